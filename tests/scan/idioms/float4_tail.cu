// Idiom: a grid-stride loop over float4 vectors with a scalar loop for the tail (vectorised
// copies and element-wise kernels, e.g. HeCBench's and the CUDA blog's float4 loads). The
// vector count is rounded up instead of down, so when n is not a multiple of 4 the last
// vector runs past the end (and the tail loop then starts past it).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(const float *x, float *y, float a, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = (n + 3) / 4;
  for (int i = tid; i < n4; i += stride) {
    // CHECK: float4_tail.cu:[[@LINE+1]]:16: warning: out-of-bounds read of '{{(reinterpret_cast<const float4 \*>\(x\)|x)}}' [gsan-scan-oob]
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    // n = 2: n4 = 1, thread 0 moves the 16 bytes of vector 0 of an 8-byte array
    // CHECK: note: witness: n=2, gridDim.x=128, blockDim.x=256, blockIdx.x=0, threadIdx.x=0, i=0: 16 bytes > size 8 bytes
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    // CHECK: float4_tail.cu:[[@LINE+1]]:5: warning: out-of-bounds write to '{{(reinterpret_cast<float4 \*>\(y\)|y)}}' [gsan-scan-oob]
    reinterpret_cast<float4 *>(y)[i] = v;
    // CHECK: note: witness: n=2, gridDim.x=128, blockDim.x=256, blockIdx.x=0, threadIdx.x=0, i=0: 16 bytes > size 8 bytes
  }
  for (int i = n4 * 4 + tid; i < n; i += stride) y[i] = a * x[i];
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  scale<<<128, 256>>>(x, y, 2.0f, n);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 4 accesses
