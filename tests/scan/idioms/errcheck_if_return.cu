// Idiom: the status of each runtime call compared in an if that returns,
// if (cudaMalloc(&d, bytes) != cudaSuccess) return 1; (common in small HeCBench mains).
// The input is copied with the element count of the file header, which may exceed the
// count the device buffer was sized for, and the result copied back into the host buffer
// of the other count.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void negate(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = -a[i];
}

int main(int argc, char **argv) {
  int n, used;
  FILE *f = fopen(argv[1], "r");
  if (!f || fscanf(f, "%d %d", &n, &used) != 2) return 1;
  if (n < 1 || n > (1 << 20) || used < 1 || used > (1 << 20)) return 1;
  int *h = (int *)calloc(used, sizeof(int));
  int *d;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
  // CHECK: errcheck_if_return.cu:[[@LINE+1]]:18: warning: out-of-bounds copy to 'd' by cudaMemcpy [gsan-scan-oob]
  if (cudaMemcpy(d, h, used * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess) return 1;
  // n = 8, used = 9: 36 bytes copied into the 32 of d
  // CHECK: note: witness: n=8, used=9: 36 bytes > size 32 bytes
  negate<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess) return 1;
  // CHECK: errcheck_if_return.cu:[[@LINE+2]]:18: warning: out-of-bounds copy to 'h' by cudaMemcpy [gsan-scan-oob]
  // n = 9, used = 8: 36 bytes copied back into the 32 of h
  if (cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  // CHECK: note: witness: n=9, used=8: 36 bytes > size 32 bytes
  cudaFree(d);
  free(h);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 6 accesses
