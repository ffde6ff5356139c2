// Idiom: a templated allocation wrapper, template <class T> T *dmalloc(size_t n) (common in
// HeCBench and research codes). A BLAS-style strided axpy: y is read and written every
// incy elements, but it is allocated with n elements, enough only when incy is 1.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

template <class T>
T *dmalloc(size_t n) {
  T *p = nullptr;
  cudaMalloc((void **)&p, n * sizeof(T));
  return p;
}

__global__ void axpy(double a, const double *x, double *y, int incy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // n = 11, incy = 7: thread 2 reaches y[2 * 7] = y[14] of the 11 doubles
  // CHECK: alloc_template.cu:[[@LINE+4]]:14: warning: out-of-bounds write to 'y' [gsan-scan-oob]
  // CHECK: note: witness: n=11, incy=7, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=2: index 14 of 'p' >= size 11
  // CHECK: alloc_template.cu:[[@LINE+2]]:39: warning: out-of-bounds read of 'y' [gsan-scan-oob]
  // CHECK: note: witness: n=11, incy=7, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=2: index 14 of 'p' >= size 11
  if (i < n) y[i * incy] = a * x[i] + y[i * incy];
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), incy = atoi(argv[2]);
  if (n < 1 || n > (1 << 20) || incy < 1 || incy > 64) return 1;
  double *x = dmalloc<double>(n);
  double *y = dmalloc<double>(n);
  axpy<<<(n + 255) / 256, 256>>>(3.0, x, y, incy, n);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 3 accesses
