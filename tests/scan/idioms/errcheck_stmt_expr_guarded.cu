// Idiom: the statement-expression error check ({ ... e_; }); the guarded twin of
// errcheck_stmt_expr.cu: the last thread does not read in[i + 1].
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
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
  if (i + 1 < n) out[i] = in[i + 1] - in[i];
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
