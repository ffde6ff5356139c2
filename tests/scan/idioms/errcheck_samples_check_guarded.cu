// Idiom: cuda-samples' checkCudaErrors(val) calling the template check(); the guarded twin
// of errcheck_samples_check.cu: the last thread of an odd n reads only in[2 * i].
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, (int)result, func);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)

__global__ void pairSum(const int *in, int *out, int n, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = in[2 * i] + (2 * i + 1 < n ? in[2 * i + 1] : 0);
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 2 || n > (1 << 24)) return 1;
  int pairs = (n + 1) / 2;
  int *d_in, *d_out;
  checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
  checkCudaErrors(cudaMalloc(&d_out, pairs * sizeof(int)));
  checkCudaErrors(cudaMemset(d_in, 0, n * sizeof(int)));
  pairSum<<<(pairs + 127) / 128, 128>>>(d_in, d_out, n, pairs);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  return 0;
}
