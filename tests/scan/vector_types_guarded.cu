// The guarded twin of vector_types.cu: n / 4 whole vectors, the remaining
// n % 4 floats handled one by one, and i < m before the method call.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 5 accesses
#include <cstdlib>
#include <cuda_runtime.h>

struct Pt {
  float x, y;
  __device__ float norm2() const { return x * x + y * y; }
};

__global__ void scale4(float4 *a, float *tail, int n4, int rest, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = a[i];
    v.x *= s;
    v.y *= s;
    a[i] = v;
  }
  if (i < rest) tail[i] *= s;
}

__global__ void norms(const Pt *p, float *out, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) out[i] = p[i].norm2();
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  int n4 = n / 4;
  scale4<<<(n4 + 256) / 256, 256>>>((float4 *)a, a + 4 * n4, n4, n % 4, 2.0f);
  Pt *p;
  float *out;
  cudaMalloc(&p, 100 * sizeof(Pt));
  cudaMalloc(&out, 101 * sizeof(float));
  norms<<<1, 128>>>(p, out, 100);
  cudaFree(a);
  return 0;
}
