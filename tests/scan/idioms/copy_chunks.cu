// Idiom: a chunked upload, a host loop copying chunk elements at offset off (cuda-samples'
// simpleStreams, pipelined HeCBench mains), from a cudaHostAlloc buffer. The last chunk is
// copied whole although n need not be a multiple of the chunk size.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void inc(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), chunk = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || chunk < 1 || chunk > n) return 1;
  int *h, *d;
  cudaHostAlloc((void **)&h, n * sizeof(int), cudaHostAllocDefault);
  cudaMalloc((void **)&d, n * sizeof(int));
  for (int off = 0; off < n; off += chunk)
    // CHECK: copy_chunks.cu:[[@LINE+2]]:16: warning: out-of-bounds copy to 'd + off' by cudaMemcpy [gsan-scan-oob]
    // n = 13, chunk = 12: the second chunk at off = 12 covers bytes 48..95 of 52
    cudaMemcpy(d + off, h + off, chunk * sizeof(int), cudaMemcpyHostToDevice);
  // CHECK: note: witness: n=13, chunk=12, off=12: bytes 48..95 outside size 52
  // CHECK: copy_chunks.cu:[[@LINE-2]]:25: warning: out-of-bounds copy from 'h + off' by cudaMemcpy [gsan-scan-oob]
  // CHECK: note: witness: n=13, chunk=12, off=12: bytes 48..95 outside size 52
  inc<<<(n + 255) / 256, 256>>>(d, n);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 3 accesses
