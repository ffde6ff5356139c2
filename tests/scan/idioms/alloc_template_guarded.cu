// Idiom: template <class T> T *dmalloc(size_t n); the guarded twin of alloc_template.cu:
// y holds (n - 1) * incy + 1 elements, as BLAS requires.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
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
  if (i < n) y[i * incy] = a * x[i] + y[i * incy];
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), incy = atoi(argv[2]);
  if (n < 1 || n > (1 << 20) || incy < 1 || incy > 64) return 1;
  double *x = dmalloc<double>(n);
  double *y = dmalloc<double>((size_t)(n - 1) * incy + 1);
  axpy<<<(n + 255) / 256, 256>>>(3.0, x, y, incy, n);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
