// Binary mode: a SASS-only kernel writes one int past a 400-byte cudaMalloc
// buffer. gsan's slot for it is 512 bytes, so the write lands in the slot's
// slack: gsan run --binary reports it with the allocation and the kernel,
// and the patch ends the warp before the write happens.
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary -- %t
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK-NEXT: WRITE of size 4 at {{.*}} by thread (0,0,0) block (0,0,0)
// CHECK-NEXT: #0 write_past(int*, int) at SASS offset 0x{{[0-9a-f]+}} (code gsan did not compile, checked by gsan run --binary)
// CHECK-NEXT: is located 0 bytes after 400-byte region
// CHECK-NEXT: allocated by host thread T0 here:
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow in write_past(int*, int)
#include "binary.h"

__global__ void write_past(int *p, int n) { p[n] = 42; }

int main() {
  int *p;
  CHECK_CUDA(cudaMalloc(&p, 100 * sizeof(int)));
  write_past<<<1, 1>>>(p, 100);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(p));
  printf("done\n");
  return 0;
}
