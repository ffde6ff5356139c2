// Two allocations never freed: reported at exit with a summary.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: done
// CHECK: ERROR: GPUSanitizer: detected device memory leaks
// CHECK: SUMMARY: GPUSanitizer: 3072 byte(s) leaked in 2 allocation(s).
#include <cstdio>
int main() {
  void *a, *b;
  cudaMalloc(&a, 1024);
  cudaMalloc(&b, 2048);  // bug: neither is freed
  printf("done\n");
  return 0;
}
