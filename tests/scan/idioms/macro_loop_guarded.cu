// Idiom: a grid-stride loop written by a macro (HeCBench's mask, Caffe's and
// PyTorch's CUDA_KERNEL_LOOP): every token of the for statement has the
// macro's one expansion location, and its init, condition and increment are
// still told apart. The correct twin of macro_loop.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

#define KERNEL_LOOP(index, range) \
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < (range); index += blockDim.x * gridDim.x)

#ifndef ROWS
#define ROWS B
#endif

template <typename T>
__global__ void mask_fill(int B, int N, const int *lens, T fill, T *out) {
  KERNEL_LOOP(index, ROWS * N) {
    int j = index % N;
    out[index] = j >= lens[index / N] ? fill : out[index];
  }
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int B = atoi(argv[1]), N = 64;
  if (B < 1 || B > 4096) return 1;
  float *out;
  int *lens;
  cudaMalloc((void **)&out, B * N * sizeof(float));
  cudaMalloc((void **)&lens, B * sizeof(int));
  mask_fill<float><<<16, 256>>>(B, N, lens, 0.0f, out);
  cudaFree(out);
  cudaFree(lens);
  return 0;
}
