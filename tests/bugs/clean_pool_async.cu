// Correct: 100 stream-ordered allocations from the default pool, each filled
// and summed by kernels on the stream before its cudaFreeAsync. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: checksum = [[SUM:[0-9]+]], expected [[SUM]]
#include <cstdio>
__global__ void iota(int *a, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i + k;
}
__global__ void sum(const int *a, int n, unsigned long long *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, (unsigned long long)a[i]);
}
int main() {
  cudaMemPool_t pool;
  cudaStream_t s;
  unsigned long long *total, got = 0, want = 0;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMalloc(&total, sizeof *total);
  cudaMemsetAsync(total, 0, sizeof *total, s);
  for (int it = 0; it < 100; it++) {
    int n = 64 + 37 * it, *a;
    cudaMallocFromPoolAsync(&a, n * sizeof(int), pool, s);
    iota<<<(n + 127) / 128, 128, 0, s>>>(a, n, it);
    sum<<<(n + 127) / 128, 128, 0, s>>>(a, n, total);
    cudaFreeAsync(a, s);
    for (int i = 0; i < n; i++) want += i + it;
  }
  cudaMemcpyAsync(&got, total, sizeof got, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  printf("checksum = %llu, expected %llu\n", got, want);
  cudaFree(total);
  cudaStreamDestroy(s);
  return 0;
}
