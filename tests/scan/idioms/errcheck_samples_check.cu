// Idiom: cuda-samples' helper_cuda.h checkCudaErrors(val), a macro calling a function
// template check(result, #val, __FILE__, __LINE__) that prints and exits on error. Each
// thread sums a pair; with (n + 1) / 2 threads an odd n makes the last thread read in[n].
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
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

__global__ void pairSum(const int *in, int *out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: errcheck_samples_check.cu:[[@LINE+1]]:39: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  if (i < pairs) out[i] = in[2 * i] + in[2 * i + 1];
  // n = 15: pairs = 8, thread 7 reads in[2 * 7 + 1] = in[15], one past the 15 ints
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=7: index 15 of 'd_in' >= size 15
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
  pairSum<<<(pairs + 127) / 128, 128>>>(d_in, d_out, pairs);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 4 accesses
