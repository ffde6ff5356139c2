// In-kernel malloc and free used correctly: blocks of many sizes written to
// their last byte, their pointers stored in global memory and used and freed
// by a later kernel, an aligned block, and one block larger than the default
// heap, which the raised cudaLimitMallocHeapSize allows. Nothing is reported.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: heap limit 67108864
// CHECK: sum ok
// CHECK: big ok
// CHECK: aligned ok
// CHECK-NOT: GPUSanitizer
#include <cstdio>
#define N 256
#define BIG (16u << 20)
__global__ void make(int **keep, int *lens) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 1 + (t * 37) % 300;
  int *p = (int *)malloc(n * sizeof(int));
  lens[t] = p ? n : 0;
  if (p)
    for (int i = 0; i < n; i++) p[i] = t;
  keep[t] = p;
}
__global__ void use(int **keep, int *lens, unsigned long long *sum) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = keep[t];
  if (!p) return;
  int n = lens[t];
  atomicAdd(sum, (unsigned long long)(p[0] + p[n - 1]));  // first and exact last
  free(p);
}
__global__ void big(int *ok) {
  char *p = (char *)malloc(BIG);
  if (!p) return;
  p[0] = 1;
  p[BIG - 1] = 2;
  *ok = p[0] + p[BIG - 1];
  free(p);
}
__global__ void aligned(int *ok) {
  double *p = (double *)__nv_aligned_device_malloc(100 * sizeof(double), 256);
  if (!p) return;
  for (int i = 0; i < 100; i++) p[i] = i;
  *ok = ((unsigned long long)p % 256 == 0) && p[99] == 99.0;
  free(p);
}
int main() {
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20);
  size_t limit = 0;
  cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
  printf("heap limit %zu\n", limit);
  int **keep, *lens, *ok;
  unsigned long long *sum, host_sum = 0, want = 0;
  cudaMalloc(&keep, N * sizeof(int *));
  cudaMalloc(&lens, N * sizeof(int));
  cudaMalloc(&sum, sizeof *sum);
  cudaMalloc(&ok, 2 * sizeof(int));
  cudaMemset(sum, 0, sizeof *sum);
  cudaMemset(ok, 0, 2 * sizeof(int));
  make<<<N / 64, 64>>>(keep, lens);
  use<<<N / 64, 64>>>(keep, lens, sum);
  big<<<1, 1>>>(ok);
  aligned<<<1, 1>>>(ok + 1);
  cudaMemcpy(&host_sum, sum, sizeof host_sum, cudaMemcpyDeviceToHost);
  int host_ok[2];
  cudaMemcpy(host_ok, ok, sizeof host_ok, cudaMemcpyDeviceToHost);
  for (int t = 0; t < N; t++) want += 2ull * t;
  printf("sum %s (%llu)\n", host_sum == want ? "ok" : "WRONG", host_sum);
  printf("big %s\n", host_ok[0] == 3 ? "ok" : "WRONG");
  printf("aligned %s\n", host_ok[1] == 1 ? "ok" : "WRONG");
  cudaFree(keep);
  cudaFree(lens);
  cudaFree(sum);
  cudaFree(ok);
  return 0;
}
