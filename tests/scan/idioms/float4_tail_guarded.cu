// Idiom: a grid-stride loop over float4 vectors with a scalar tail; the guarded twin of
// float4_tail.cu: n / 4 whole vectors, then the tail from n / 4 * 4 to n.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(const float *x, float *y, float a, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n4 = n / 4;
  for (int i = tid; i < n4; i += stride) {
    float4 v = reinterpret_cast<const float4 *>(x)[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    reinterpret_cast<float4 *>(y)[i] = v;
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
