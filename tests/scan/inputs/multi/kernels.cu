// The kernels of a two-file program (multi_tu.test): defined here, launched
// through launch_scale, which main.cu calls.
#include "kernels.h"

__global__ void scale(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] *= s;
}

__global__ void fill(float *a, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

void launch_scale(float *d, float s, int n) { scale<<<(n + 255) / 256, 256>>>(d, s, n); }
