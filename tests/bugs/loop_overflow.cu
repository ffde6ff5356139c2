// A row sum whose loop runs one element too far (k <= cols): every row reads
// the next row's first element, and the last row reads one past the end of
// the allocation, in the loop's last iteration. gsan checks such a loop before
// it runs; this thread's pre-check fails, so it runs the checked loop, which
// reports the exact access.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4 at {{.*}} by thread (63,0,0) block (0,0,0)
// CHECK: #0 row_sum(float const*, float*, int, int) at {{.*}}loop_overflow.cu:22
// CHECK: is located 0 bytes after 65536-byte region
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}loop_overflow.cu:28
#include <cstdio>
__global__ void row_sum(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int k = 0; k <= cols; k++)  // bug: k == cols is the next row
    s += a[(size_t)r * cols + k];
  out[r] = s;
}
int main() {
  const int rows = 64, cols = 256;
  float *a, *out;
  cudaMalloc(&a, rows * cols * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  cudaMemset(a, 0, rows * cols * sizeof(float));
  row_sum<<<1, rows>>>(a, out, rows, cols);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
