// Idiom: an allocation wrapper that returns the device pointer,
// float *alloc_dev(size_t n) { float *p; cudaMalloc(&p, n * sizeof(float)); return p; }
// (common in HeCBench and many research codes). The output buffer is sized for the
// rows, but the kernel writes one value per row and column.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
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
  // CHECK: alloc_return.cu:[[@LINE+1]]:29: warning: out-of-bounds write to 'm' [gsan-scan-oob]
  if (c < cols && r < rows) m[r * cols + c] = u[r] * v[c];
  // rows = 13, cols = 7: block row 12, thread 4 writes 12 * 7 + 4 = 88 of the 13 + 7 = 20 floats
  // CHECK: note: witness: rows=13, cols=7, gridDim.x=1, gridDim.y=13, blockDim.x=128, blockDim.y=1, blockIdx.x=0, blockIdx.y=12, threadIdx.x=4: index 88 of 'p' >= size 20
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096) return 1;
  float *u = alloc_dev(rows);
  float *v = alloc_dev(cols);
  float *m = alloc_dev(rows + cols);
  outer<<<dim3((cols + 127) / 128, rows), 128>>>(u, v, m, rows, cols);
  cudaFree(u);
  cudaFree(v);
  cudaFree(m);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
