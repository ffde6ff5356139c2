// Correct: dynamic shared memory carved into two arrays, each used in bounds.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: ok = 256
#include <cstdio>
__global__ void part(int *out) {
  extern __shared__ int dyn[];
  int *a = dyn, *b = dyn + blockDim.x;
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  __syncthreads();
  atomicAdd(out, b[blockDim.x - 1 - threadIdx.x] - a[threadIdx.x]);
}
int main() {
  int *out, ok = 0;
  cudaMalloc(&out, sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  part<<<1, 256, 2 * 256 * sizeof(int)>>>(out);
  cudaMemcpy(&ok, out, sizeof ok, cudaMemcpyDeviceToHost);
  printf("ok = %d\n", ok);
  cudaFree(out);
  return 0;
}
