// Idiom: if (cudaMalloc(&d, bytes) != cudaSuccess) return 1; the guarded twin of
// errcheck_if_return.cu: the header's counts must agree.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 6 accesses
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
  if (n < 1 || n > (1 << 20) || used != n) return 1;
  int *h = (int *)calloc(used, sizeof(int));
  int *d;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
  if (cudaMemcpy(d, h, used * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess) return 1;
  negate<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess) return 1;
  if (cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  cudaFree(d);
  free(h);
  return 0;
}
