// Copies and sets counted in bytes: memcpy and cp.async in a kernel,
// cudaMemcpyPeer and cudaMemset2D on the host. Each copies one unit more than
// its buffer holds. Witnesses checked by hand: thread 7 copies bytes 28..35 of
// a 32-byte buffer; the last thread's cp.async reads floats 1020..1023 of 1022;
// the peer copy is n + 256 bytes into n; H + 2 rows of a pitch * H allocation
// (pitch 853 in the witness, within the model's width <= pitch < width + 1024).
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>

__global__ void rows(const char *src, char *dst) {
  int t = threadIdx.x;
  // CHECK: byte_copies.cu:[[@LINE+1]]:11: warning: out-of-bounds write to 'dst' by memcpy [gsan-scan-oob]
  memcpy(&dst[4 * t], &src[4 * t], 8);
  // CHECK: note: witness: blockDim.x=8, threadIdx.x=7: bytes 28..35 outside size 32
  // CHECK: byte_copies.cu:[[@LINE-2]]:24: warning: out-of-bounds read of 'src' by memcpy [gsan-scan-oob]
  // CHECK: note: witness: blockDim.x=8, threadIdx.x=7: bytes 28..35 outside size 32
}

__global__ void stage(const float *src, float *out) {
  __shared__ __align__(16) float buf[256 * 4];
  int t = threadIdx.x;
  // CHECK: byte_copies.cu:[[@LINE+1]]:41: warning: out-of-bounds read of 'src' by __pipeline_memcpy_async [gsan-scan-oob]
  __pipeline_memcpy_async(&buf[4 * t], &src[4 * t], 16);
  // CHECK: note: witness: blockDim.x=256, threadIdx.x=255: bytes 4080..4095 outside size 4088
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
  cudaMalloc(&src, 1022 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  stage<<<1, 256>>>(src, out);
  char *p, *q;
  cudaMalloc(&p, n);
  cudaMalloc(&q, n + 256);
  // CHECK: byte_copies.cu:[[@LINE+1]]:18: warning: out-of-bounds copy to 'p' by cudaMemcpyPeer [gsan-scan-oob]
  cudaMemcpyPeer(p, 0, q, 0, n + 256);
  // CHECK: note: witness: n=[[N:[0-9]+]]: {{[0-9]+}} bytes > size [[N]] bytes
  size_t pitch;
  char *img;
  cudaMallocPitch((void **)&img, &pitch, 300, 10);
  // CHECK: byte_copies.cu:[[@LINE+1]]:16: warning: out-of-bounds set of 'img' by cudaMemset2D [gsan-scan-oob]
  cudaMemset2D(img, pitch, 0, 300, 12);
  // 853 * 11 + 300 = 9683 bytes set, 853 * 10 = 8530 allocated
  // CHECK: note: witness: pitch=853: 9683 bytes > size 8530 bytes
  return 0;
}
// CHECK: gsan scan: 5 findings, 0 unknown in 10 accesses
