// C-style error handling: on a failed allocation the other buffer is freed
// and the function jumps to its cleanup label. A goto ends its path: the
// launch after it is not reached on the freed path, so no use after free is
// made up there (a use in a function with goto is at most an unknown), and
// the label's code runs for the paths that jumped and the one that falls in.
// The kernel's own off-by-one is still found: n = 8, thread 8 writes a[8].
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: goto_cleanup.cu:[[@LINE+1]]:15: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  if (i <= n) a[i] = 2.0f * b[i];
  // CHECK: note: witness: n=8, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=8: index 8 of 'x' >= size 8 (4-byte elements: byte 32, size 32 bytes)
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *x = NULL, *y = NULL;
  int status = 1;
  cudaError_t ex = cudaMalloc(&x, n * sizeof(float));
  cudaError_t ey = cudaMalloc(&y, (n + 1) * sizeof(float));
  if (ex != cudaSuccess || ey != cudaSuccess) {
    if (ex == cudaSuccess) cudaFree(x);
    if (ey == cudaSuccess) cudaFree(y);
    goto end;
  }
  // CHECK-NOT: use-after-free
  scale<<<(n + 255) / 256, 256>>>(x, y, n);
  cudaFree(x);
  cudaFree(y);
  status = 0;
end:
  printf("%d\n", status);
  return status;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
