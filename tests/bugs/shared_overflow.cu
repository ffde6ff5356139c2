// Past the end of one shared array into the next: memory that is valid, so
// compute-sanitizer does not see it.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: shared-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 tiles(float*, int) at {{.*}}shared_overflow.cu:17
// CHECK: 256-byte shared variable 'tiles(float*, int)::A'
#include <cstdio>
__global__ void tiles(float *out, int k) {
  __shared__ float A[64];
  __shared__ float B[64];
  A[threadIdx.x] = 1.0f;
  B[threadIdx.x] = 2.0f;
  if (threadIdx.x == 0) A[64 + k] = 3.0f;  // bug: lands in B
  __syncthreads();
  out[threadIdx.x] = A[threadIdx.x] + B[threadIdx.x];
}
int main() {
  float *out;
  cudaMalloc(&out, 64 * sizeof(float));
  tiles<<<1, 64>>>(out, 2);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
