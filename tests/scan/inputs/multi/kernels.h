#include <cuda_runtime.h>
__global__ void fill(float *a, float v, int n);
void launch_scale(float *d, float s, int n);
