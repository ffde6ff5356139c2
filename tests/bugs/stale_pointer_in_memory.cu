// A pointer kept in a device-side table outlives its buffer: after cudaFree the
// kernel loads it from the table and writes through it; bounds of the loaded pointer.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK: WRITE of size 4
// CHECK: #0 scatter(float* const*, int) at {{.*}}stale_pointer_in_memory.cu:13
#include <cstdio>
__global__ void scatter(float *const *table, int n) {
  float *p = table[blockIdx.x];
  if (threadIdx.x < n) p[threadIdx.x] = 1.0f;  // BUG: table[1] was freed
}
int main() {
  float *buf[2], **table;
  for (int k = 0; k < 2; k++) cudaMalloc(&buf[k], 256 * sizeof(float));
  cudaMalloc(&table, sizeof buf);
  cudaMemcpy(table, buf, sizeof buf, cudaMemcpyHostToDevice);
  cudaFree(buf[1]);  // the table still holds it
  scatter<<<2, 256>>>(table, 256);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(buf[0]);
  cudaFree(table);
  return 0;
}
