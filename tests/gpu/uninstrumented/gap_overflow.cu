// A SASS-only kernel (plain nvcc, no PTX) writes past the end of a 2 MiB
// allocation: a multiple of the granule, so its slot has no slack, and the
// address after its end is an unmapped guard gap. The write faults
// (cudaErrorIllegalAddress); gsan's report names the kernel that was
// running and the allocation that ends at a guard gap.
// REQUIRES: gpu
// RUN: nvcc %sass_only -g -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 300 %gsan run -- %t
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: illegal-address: cuCtxSynchronize returned 700 (a kernel faulted)
// CHECK-NEXT: kernels launched since the last successful synchronisation (1 launch,
// CHECK-NEXT: past_gap(unsigned char*, unsigned long)
// CHECK-NEXT: recently used allocations that end at an unmapped guard gap
// CHECK-NEXT: 2097152-byte region
// CHECK: gap_overflow.cu:27
// CHECK: SUMMARY: GPUSanitizer: illegal-address in past_gap(unsigned char*, unsigned long)
// CHECK: sync: 700
#include <cstdio>

__global__ void past_gap(unsigned char *p, size_t n) {
  if (threadIdx.x == 0) p[n + threadIdx.x] = 1;  // BUG: one past a 2 MiB buffer
}

int main() {
  const size_t n = 2u << 20;
  unsigned char *p;
  if (cudaMalloc(&p, n) != cudaSuccess) return 2;
  past_gap<<<1, 32>>>(p, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %d\n", (int)e);
  return 0;
}
