// Pointers stored in device memory: the bounds come from the loaded pointer.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4
// CHECK: #0 gather(float* const*, float*) at {{.*}}pointer_in_memory.cu:13
// CHECK: bytes after 400-byte region
#include <cstdio>
__global__ void gather(float *const *rows, float *out) {
  const float *r = rows[threadIdx.x % 4];
  out[threadIdx.x] = r[threadIdx.x];  // BUG: threads 100..127 read past a 100-float row
}
int main() {
  float *rows[4], **d_rows, *out;
  for (int k = 0; k < 4; k++) {
    cudaMalloc(&rows[k], 100 * sizeof(float));
    cudaMemset(rows[k], 0, 100 * sizeof(float));
  }
  cudaMalloc(&d_rows, sizeof rows);
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice);
  gather<<<1, 128>>>(d_rows, out);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
