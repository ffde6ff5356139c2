// Host copies that do not fit: a host buffer from new[] one element short of
// the device buffer it receives, and a memset past the end of managed memory.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d, *m;
  float *h = new float[n - 1];
  cudaMalloc(&d, n * sizeof(float));
  cudaMallocManaged(&m, n * sizeof(float));
  // CHECK: copy_overflow.cu:[[@LINE+1]]:14: warning: out-of-bounds copy to 'h' by cudaMemcpy [gsan-scan-oob]
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: copy_overflow.cu:[[@LINE-5]]:14: note: 'h' allocated here with size (n - 1) * 4 bytes
  // CHECK: note: witness: n=15: 60 bytes > size 56 bytes
  // CHECK: copy_overflow.cu:[[@LINE+1]]:14: warning: out-of-bounds set of 'm' by cudaMemset [gsan-scan-oob]
  cudaMemset(m, 0, (n + 1) * sizeof(float));
  // CHECK: note: 'm' allocated here with size n * 4 bytes
  // CHECK: note: witness: n=2: 12 bytes > size 8 bytes
  delete[] h;
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 3 accesses
