// Idiom: a page-locked host buffer from cudaMallocHost used as the source and target of
// cudaMemcpy (common in HeCBench for faster transfers). The device buffer is padded to
// whole blocks and the result copied back with the padded size into the n-float host
// buffer: too many bytes whenever n is not a multiple of 256.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void relu(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[i] > 0.0f ? a[i] : 0.0f;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  int blocks = (n + 255) / 256;
  size_t padded = (size_t)blocks * 256 * sizeof(float);
  float *h, *d;
  cudaMallocHost((void **)&h, n * sizeof(float));
  cudaMalloc((void **)&d, padded);
  cudaMemset(d, 0, padded);
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  relu<<<blocks, 256>>>(d);
  // CHECK: host_pinned.cu:[[@LINE+1]]:14: warning: out-of-bounds copy to 'h' by cudaMemcpy [gsan-scan-oob]
  cudaMemcpy(h, d, padded, cudaMemcpyDeviceToHost);
  // n = 8: one block, padded = 256 floats = 1024 bytes into the 32 of h
  // CHECK: note: witness: n=8: 1024 bytes > size 32 bytes
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 8 accesses
