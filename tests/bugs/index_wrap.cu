// A 32-bit index that wraps: i * 4096 is computed in 32 bits and wraps to a
// negative int for the last threads. The buffer holds every index below 2^31,
// so only the wrapped ones leave it: far before its start.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 1
// CHECK: #0 stride_read(char const*, int*, int) at {{.*}}index_wrap.cu:16
// CHECK: bytes before
#include <cstdio>
__global__ void stride_read(const char *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int idx = (int)((unsigned)i * 4096u) + 1;  // wraps for i >= 524288
  if (i < n) out[i & 1023] = a[idx];  // BUG: idx is negative for the last threads
}
int main() {
  char *a;
  int *out;
  if (cudaMalloc(&a, (1ull << 31) + 4096) != cudaSuccess) return 2;
  cudaMalloc(&out, 1024 * sizeof(int));
  stride_read<<<2049, 256>>>(a, out, 2049 * 256);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
