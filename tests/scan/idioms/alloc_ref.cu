// Idiom: an allocation wrapper taking the pointer by reference, void alloc(float *&p, int n)
// (common in C++ CUDA codes). The border of a 1D blur reads radius cells on each side, but
// the input is allocated without the halo on the right.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

static void alloc(float *&p, int n) { cudaMalloc(&p, n * sizeof(float)); }

__global__ void blur(const float *in, float *out, int n, int radius) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k <= 2 * radius; k++)
    // CHECK: alloc_ref.cu:[[@LINE+1]]:10: warning: out-of-bounds read of 'in' [gsan-scan-oob]
    s += in[i + k];
  // n = 14, radius = 13: thread 12 at k = 15 reads in[27], one past the 14 + 13 = 27 floats
  // CHECK: note: witness: n=14, radius=13, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=12, k=15: index 27 >= size 27
  out[i] = s / (2 * radius + 1);
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), radius = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || radius < 0 || radius > 16) return 1;
  float *in = nullptr, *out = nullptr;
  alloc(in, n + radius);
  alloc(out, n);
  blur<<<(n + 255) / 256, 256>>>(in, out, n, radius);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
