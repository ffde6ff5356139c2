// A grid-stride loop whose condition is one too wide (i <= n). The loop
// counter is modelled as start + k * stride for some k, so the witness is a
// thread that really reaches the index.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void bump(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)
    // CHECK: grid_stride.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'a' [gsan-scan-oob]
    a[i] += 1.0f;
  // CHECK: note: witness: n=255, gridDim.x=32, blockDim.x=256, blockIdx.x=0, threadIdx.x=255, i=255: index 255 >= size 255
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  bump<<<32, 256>>>(a, n);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
