// Idiom: an allocation wrapper taking the pointer by reference, void alloc(float *&p, int n)
// (common in C++ CUDA codes). The guarded twin of alloc_ref.cu: the input holds both halos.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

static void alloc(float *&p, int n) { cudaMalloc(&p, n * sizeof(float)); }

__global__ void blur(const float *in, float *out, int n, int radius) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k <= 2 * radius; k++)
    s += in[i + k];
  out[i] = s / (2 * radius + 1);
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), radius = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || radius < 0 || radius > 16) return 1;
  float *in = nullptr, *out = nullptr;
  alloc(in, n + 2 * radius);
  alloc(out, n);
  blur<<<(n + 255) / 256, 256>>>(in, out, n, radius);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
