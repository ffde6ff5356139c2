// Idiom: float *alloc_dev(size_t n) returning the device pointer; the guarded twin of
// alloc_return.cu: the output holds rows * cols floats.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

static float *alloc_dev(size_t n) {
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  return p;
}

__global__ void outer(const float *u, const float *v, float *m, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c < cols && r < rows) m[r * cols + c] = u[r] * v[c];
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096) return 1;
  float *u = alloc_dev(rows);
  float *v = alloc_dev(cols);
  float *m = alloc_dev((size_t)rows * cols);
  outer<<<dim3((cols + 127) / 128, rows), 128>>>(u, v, m, rows, cols);
  cudaFree(u);
  cudaFree(v);
  cudaFree(m);
  return 0;
}
