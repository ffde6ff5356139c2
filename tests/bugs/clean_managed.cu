// Correct: managed memory filled by a kernel and read on the host, set,
// copied in and out up to its last element, and freed; managed allocations
// freed and made again (the driver hands their addresses out again) are set
// with no report, and nothing is left for the leak check.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum: 499500
// CHECK: managed: no error
#include <cstdio>

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  static int h[1000];
  int *m;
  cudaError_t e = cudaMallocManaged(&m, sizeof h);
  fill<<<4, 256>>>(m, 1000);
  if (!e) e = cudaDeviceSynchronize();
  long sum = 0;
  for (int i = 0; i < 1000; i++) sum += m[i];
  printf("sum: %ld\n", sum);
  if (!e) e = cudaMemset(m + 500, 0, 500 * sizeof(int));
  if (!e) e = cudaMemcpy(h, m, sizeof h, cudaMemcpyDefault);
  if (!e) e = cudaMemcpy(m + 999, h, sizeof(int), cudaMemcpyHostToDevice);
  if (!e) e = cudaFree(m);
  for (int k = 0; k < 8 && !e; k++) {
    int *p;
    e = cudaMallocManaged(&p, 4096);
    if (!e) e = cudaMemset(p, 1, 4096);
    if (!e) e = cudaFree(p);
  }
  printf("managed: %s\n", cudaGetErrorString(e));
  return 0;
}
