// Idiom: the function-call error check, #define gpuErrchk(ans) { gpuAssert((ans), __FILE__,
// __LINE__); } with an inline gpuAssert that may exit (common in HeCBench, e.g. aobench).
// The guarded twin of errcheck_gpuassert.cu: the copy moves the n floats the host holds.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line, bool abort = true) {
  if (code != cudaSuccess) {
    fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
    if (abort) exit(code);
  }
}

__global__ void square(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * a[i];
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  int padded = (n + 3) / 4 * 4;
  float *h = (float *)malloc(n * sizeof(float));
  float *d;
  gpuErrchk(cudaMalloc(&d, padded * sizeof(float)));
  gpuErrchk(cudaMemset(d, 0, padded * sizeof(float)));
  square<<<(n + 127) / 128, 128>>>(d, n);
  gpuErrchk(cudaPeekAtLastError());
  gpuErrchk(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  gpuErrchk(cudaFree(d));
  free(h);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 6 accesses
