// The guarded twin of byte_copies.cu: each copy or set counts what its buffer
// holds (4 bytes a thread, a 1024-float source, n bytes, 10 rows).
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 10 accesses
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

__global__ void rows(const char *src, char *dst) {
  int t = threadIdx.x;
  memcpy(&dst[4 * t], &src[4 * t], 4);
}

__global__ void stage(const float *src, float *out) {
  __shared__ __align__(16) float buf[256 * 4];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[4 * t], &src[4 * t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[t] = buf[4 * t] + buf[4 * t + 3];
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  char *a, *b;
  cudaMalloc(&a, 32);
  cudaMalloc(&b, 32);
  rows<<<1, 8>>>(a, b);
  float *src, *out;
  cudaMalloc(&src, 1024 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  stage<<<1, 256>>>(src, out);
  char *p, *q;
  cudaMalloc(&p, n);
  cudaMalloc(&q, n + 256);
  cudaMemcpyPeer(p, 0, q, 0, n);
  size_t pitch;
  char *img;
  cudaMallocPitch((void **)&img, &pitch, 300, 10);
  cudaMemset2D(img, pitch, 0, 300, 10);
  return 0;
}
