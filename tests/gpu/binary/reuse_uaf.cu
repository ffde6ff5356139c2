// Binary mode: a use after free through a reused address. The program frees
// a 100-byte buffer, allocates another of the same size and reads through
// the stale pointer. cudaMalloc gives the same address back (the native run
// says so), so to compute-sanitizer the read is of live memory. gsan does
// not reuse a slot until its class wraps: the stale pointer still names the
// freed slot, and gsan run --binary reports a use after free with both
// stacks.
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %t | %FileCheck --check-prefix=NATIVE %s
// NATIVE: same address again: yes
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary -- %t
// RUN: %FileCheck %s < %t.out
// CHECK: same address again: no
// CHECK: ERROR: GPUSanitizer: use-after-free on address
// CHECK-NEXT: READ of size 4
// CHECK-NEXT: #0 read_stale(int const*, int*) at SASS offset 0x{{[0-9a-f]+}}
// CHECK-NEXT: is located 0 bytes inside 100-byte region
// CHECK-NEXT: freed by host thread T0 here:
// CHECK: previously allocated by host thread T0 here:
#include "binary.h"

__global__ void read_stale(const int *stale, int *out) { *out = *stale; }

int main() {
  int *a, *b, *out;
  CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&a, 100));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaMalloc(&b, 100));
  printf("same address again: %s\n", a == b ? "yes" : "no");
  fflush(stdout);
  read_stale<<<1, 1>>>(a, out);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
