// Correct: 4000 live allocations of 1 to 387904 bytes; a kernel writes the last
// byte of each through a device table of pointers and sizes; all freed. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: many: ok
#include <cstdio>
const int N = 4000;
static char *ptrs[N];
static size_t sizes[N];
__global__ void last_byte(char *const *p, const size_t *size, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i][size[i] - 1] = (char)(i % 100 + 1);
}
int main() {
  for (int i = 0; i < N; i++) {
    sizes[i] = (size_t)i * 97 + 1;
    if (cudaMalloc(&ptrs[i], sizes[i])) return printf("allocation %d failed\n", i), 1;
  }
  char **dp;
  size_t *ds;
  cudaMalloc(&dp, sizeof ptrs);
  cudaMalloc(&ds, sizeof sizes);
  cudaMemcpy(dp, ptrs, sizeof ptrs, cudaMemcpyHostToDevice);
  cudaMemcpy(ds, sizes, sizeof sizes, cudaMemcpyHostToDevice);
  last_byte<<<(N + 255) / 256, 256>>>(dp, ds, N);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < N; i++) {
    char c = 0;
    cudaMemcpy(&c, ptrs[i] + sizes[i] - 1, 1, cudaMemcpyDeviceToHost);
    bad += c != (char)(i % 100 + 1);
    cudaFree(ptrs[i]);
  }
  cudaFree(dp);
  cudaFree(ds);
  printf("many: %s\n", e ? cudaGetErrorString(e) : bad ? "wrong bytes" : "ok");
  return 0;
}
