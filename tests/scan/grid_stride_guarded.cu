// The guarded twin of grid_stride.cu: the loop stops below n.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void bump(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] += 1.0f;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  bump<<<32, 256>>>(a, n);
  return 0;
}
