// float4 loads over an array whose length is not a multiple of 4.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 16
// CHECK: #0 sum4(float4 const*, float*, int) at {{.*}}vector_overflow.cu:13
#include <cstdio>
__global__ void sum4(const float4 *a, float *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = a[i];  // BUG: the last float4 runs past 1001 floats
    out[i] = v.x + v.y + v.z + v.w;
  }
}
int main() {
  float *a, *out;
  cudaMalloc(&a, 1001 * sizeof(float));
  cudaMalloc(&out, 251 * sizeof(float));
  cudaMemset(a, 0, 1001 * sizeof(float));
  sum4<<<1, 256>>>((const float4 *)a, out, (1001 + 3) / 4);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
