// A staircase of threads over one global array: thread t adds a[k - t] at step
// k when its guard lets the step through. The guard is off by one (i <= n), so
// threads 0-30 each read a[n], one past the end; thread 0 first, at k == n. gsan checks the loop
// before it runs over the iterations the guard lets through; that range
// leaves the array for thread 0, which runs the checked loop and reports the
// exact access.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4 at {{.*}} by thread (0,0,0) block (0,0,0)
// CHECK: #0 staircase(int const*, int*, int) at {{.*}}guarded_loop_overflow.cu:23
// CHECK: is located 0 bytes after 4000-byte region
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}guarded_loop_overflow.cu:30
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}guarded_loop_overflow.cu:23 in staircase(int const*, int*, int)
#include <cstdio>
__global__ void staircase(const int *a, int *out, int n) {
  int t = threadIdx.x, s = 0;
  for (int k = 0; k < n + 31; k++) {
    int i = k - t;
    if (i >= 0 && i <= n) s += a[i];  // bug: i == n, first for thread 0 at k == n
  }
  out[t] = s;
}
int main() {
  const int n = 1000;
  int *a, *out;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(a, 0, n * sizeof(int));
  staircase<<<1, 32>>>(a, out, n);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
