// A wavefront over a shared tile (Needleman-Wunsch's shape): thread tx updates
// row y = d - tx at step d when its guard lets the step through. The guard is
// off by one (y <= B), so the last step of each column reads row B of the
// B-row tile `c`: past its end, into memory that may well be the next shared
// array. gsan checks the loop before it runs over the iterations the guard
// lets through; here that range leaves `c`, so the block runs the checked
// loop, which reports the exact access.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: shared-buffer-overflow on address
// CHECK: READ of size 4
// CHECK: #0 wavefront(int const*, int*) at {{.*}}wavefront_overflow.cu:29
// CHECK: 4096-byte shared variable 'wavefront(int const*, int*)::c'
#include <cstdio>
constexpr int B = 32;
__global__ void wavefront(const int *cost, int *out) {
  __shared__ int s[B + 2][B + 1];
  __shared__ int c[B][B];
  const int tx = threadIdx.x;
  for (int y = 0; y < B; y++) c[y][tx] = cost[y * B + tx];
  for (int y = 0; y < B + 2; y++) s[y][tx + 1] = 0;
  s[tx + 1][0] = 0;
  if (tx == 0) s[0][0] = s[B + 1][0] = 0;
  __syncthreads();
  for (int d = 0; d < 2 * B; d++) {
    int y = d - tx;
    if (y >= 0 && y <= B) s[y + 1][tx + 1] = s[y][tx] + c[y][tx];  // bug: y == B
    __syncthreads();
  }
  out[tx] = s[B][tx + 1];
}
int main() {
  int *cost, *out;
  cudaMalloc(&cost, B * B * sizeof(int));
  cudaMalloc(&out, B * sizeof(int));
  cudaMemset(cost, 0, B * B * sizeof(int));
  wavefront<<<1, B>>>(cost, out);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
