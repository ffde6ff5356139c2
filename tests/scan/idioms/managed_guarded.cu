// Idiom: unified memory from cudaMallocManaged with no explicit copies; the guarded twin of
// managed.cu: thread 0 does not read a[-1].
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void delta(const int *a, int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = a[i] - (i > 0 ? a[i - 1] : 0);
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
