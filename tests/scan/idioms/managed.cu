// Idiom: unified memory from cudaMallocManaged, written on the host and read by the kernel
// with no explicit copies (common in HeCBench and the CUDA blog's examples). The prefix
// difference reads a[i - 1] for every thread, thread 0 included.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void delta(const int *a, int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: managed.cu:[[@LINE+1]]:28: warning: out-of-bounds read of 'a' [gsan-scan-oob]
  if (i < n) d[i] = a[i] - a[i - 1];
  // n = 15: thread 0 reads a[-1]
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=0: index -1 < 0
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  int *a, *d;
  cudaMallocManaged(&a, n * sizeof(int));
  cudaMallocManaged(&d, n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i * i;
  delta<<<(n + 255) / 256, 256>>>(a, d, n);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
