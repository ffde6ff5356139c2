// Idiom: a size read from a file with operator>> (HeCBench's svd3x3,
// tonemapping: std::ifstream f(path); f >> n), and two more read in one
// chain: the values are the program's inputs, as scanf's are. The correct
// twin of stream_input.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <fstream>
#include <cuda_runtime.h>

#ifndef EXTRA
#define EXTRA 0
#endif

__global__ void scale(float *a, int n, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n + EXTRA) a[i] *= 2.0f;
  if (i < w * h) a[n + i] = 0.0f;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  std::ifstream f(argv[1]);
  int n, w, h;
  f >> n;
  f >> w >> h;
  if (n <= 0 || n > (1 << 20) || w <= 0 || h <= 0 || w > 1024 || h > 1024) return 1;
  float *d;
  cudaMalloc((void **)&d, (n + w * h) * sizeof(float));
  scale<<<(n + w * h + 255) / 256, 256>>>(d, n, w, h);
  cudaFree(d);
  return 0;
}
