// Idiom: the thread's index written through macros; the guarded twin of
// macro_thread_index.cu: the host allocates all NS species.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

#define NS 4
#define N_GP (blockDim.x * gridDim.x)
#define thread_num (threadIdx.x + (blockIdx.x * blockDim.x))
#define idx2(p, z) (p[(((z) - 1) * (N_GP)) + thread_num])
#define C(q) idx2(C, q)
#define W(q) idx2(W, q)

__global__ void sum_species(const float *C, float *W) {
  float s = 0.0f;
  // CHECK-NOT: warning:
  s += C(1) + C(2) + C(3) + C(4);
  W(1) = s;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int blocks = atoi(argv[1]);
  if (blocks < 1 || blocks > 4096) return 1;
  int n_gp = blocks * 64;
  float *c, *w;
  cudaMalloc(&c, NS * n_gp * sizeof(float));
  cudaMalloc(&w, n_gp * sizeof(float));
  sum_species<<<blocks, 64>>>(c, w);
  cudaFree(c);
  cudaFree(w);
  return 0;
}
// CHECK: gsan scan: 0 findings, 0 unknown in 5 accesses
