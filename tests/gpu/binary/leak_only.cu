// Binary mode, a program that only leaks: one cudaMalloc, no kernel, no
// free. Under gsan run --binary it ends with the leak report and exit 1, as
// under plain gsan run (a SASS-only build of such a program once ended in
// a segmentation fault under --binary).
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary -- %t
// RUN: %FileCheck %s < %t.out
// CHECK: allocated
// CHECK: ERROR: GPUSanitizer: detected device memory leaks
// CHECK: Leak of 4096 byte(s) at 0x{{[0-9a-f]+}}
// CHECK: SUMMARY: GPUSanitizer: 4096 byte(s) leaked in 1 allocation(s).
#include "binary.h"

int main() {
  void *p;
  CHECK_CUDA(cudaMalloc(&p, 4096));
  printf("allocated\n");
  return 0;
}
