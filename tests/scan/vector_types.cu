// float4 loads and stores over an array of n floats, with (n + 3) / 4 vectors:
// when n is not a multiple of 4 the last vector runs past the end. A struct
// read, a struct assignment and a method call on an element are accesses of
// the whole element.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

struct Pt {
  float x, y;
  __device__ float norm2() const { return x * x + y * y; }
};

__global__ void scale4(float4 *a, int n4, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    // CHECK: vector_types.cu:[[@LINE+1]]:16: warning: out-of-bounds read of 'a' [gsan-scan-oob]
    float4 v = a[i];
    // CHECK: note: 'a' allocated here with size n * 4 bytes
    // n = 2 gives one vector, read by thread 0: 16 bytes of an 8-byte buffer
    // CHECK: note: witness: n=2, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=0: 16 bytes > size 8 bytes
    v.x *= s;
    v.y *= s;
    // CHECK: vector_types.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'a' [gsan-scan-oob]
    a[i] = v;
    // CHECK: note: witness: n=2, {{.*}}: 16 bytes > size 8 bytes
  }
}

__global__ void norms(const Pt *p, float *out, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // one past the end: i <= m
  // CHECK: vector_types.cu:[[@LINE+1]]:24: warning: out-of-bounds read of 'p' [gsan-scan-oob]
  if (i <= m) out[i] = p[i].norm2();
  // CHECK: note: witness: gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=100: index 100 >= size 100
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  int n4 = (n + 3) / 4;
  scale4<<<(n4 + 255) / 256, 256>>>((float4 *)a, n4, 2.0f);
  Pt *p;
  float *out;
  cudaMalloc(&p, 100 * sizeof(Pt));
  cudaMalloc(&out, 101 * sizeof(float));
  norms<<<1, 128>>>(p, out, 100);
  cudaFree(a);
  return 0;
}
// CHECK: gsan scan: 3 findings, 0 unknown in 4 accesses
