// The guarded tobal__ void saxpy(float *y, const float *x, float a, block in bounds.
// RUN: %gsan-scan %s | %FileCheck %sde <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x +  2.0f,n);
  return 0;
}
