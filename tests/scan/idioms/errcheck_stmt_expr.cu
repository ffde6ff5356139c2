// Idiom: the statement-expression error check ({ cudaError_t e_ = (x); if (e_ != cudaSuccess)
// { ...; exit(1); } e_; }) (GNU extension used by several CUDA code bases' CUDA_CALL macros).
// The stencil's guard lets the last thread read one past the end: i + 1 <= n.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CALL(x)                                                      \
  ({                                                                      \
    cudaError_t e_ = (x);                                                 \
    if (e_ != cudaSuccess) {                                              \
      fprintf(stderr, "CUDA error %d at line %d\n", (int)e_, __LINE__);   \
      exit(1);                                                            \
    }                                                                     \
    e_;                                                                   \
  })

__global__ void diff(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: errcheck_stmt_expr.cu:[[@LINE+1]]:23: warning: out-of-bounds read of 'in' [gsan-scan-oob]
  if (i < n) out[i] = in[i + 1] - in[i];
  // n = 15: thread 14 passes i < n and reads in[15], one past the 15 floats
  // CHECK: note: witness: n=15, gridDim.x=1, blockDim.x=64, blockIdx.x=0, threadIdx.x=14: index 15 >= size 15
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *in, *out;
  CUDA_CALL(cudaMalloc(&in, n * sizeof(float)));
  CUDA_CALL(cudaMalloc(&out, n * sizeof(float)));
  CUDA_CALL(cudaMemset(in, 0, n * sizeof(float)));
  diff<<<(n + 63) / 64, 64>>>(in, out, n);
  CUDA_CALL(cudaDeviceSynchronize());
  CUDA_CALL(cudaFree(in));
  CUDA_CALL(cudaFree(out));
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 4 accesses
