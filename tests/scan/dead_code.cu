// In a program with a main, a host function nothing calls is code main does
// not reach: its accesses are still examined, but its parameters are not
// inputs, so what depends on them is an unknown, never a finding (here a copy
// whose size is a parameter). Without a main (a library's file) the same
// function's parameters are inputs and the overflow is a finding (the second
// RUN, with main left out).
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: not %gsan-scan -DNO_MAIN %s | %FileCheck --check-prefix=LIB %s
#include <cstring>
#include <cstdlib>
#include <cuda_runtime.h>

void change_extension(const char *name, int len) {
  char buf[256];
  // CHECK: dead_code.cu:[[@LINE+2]]:10: remark: cannot decide whether the copy to 'buf' by memcpy stays in bounds: 'len' is a parameter of 'change_extension', which the program's main does not reach (line 14) [gsan-scan-unknown]
  // LIB: dead_code.cu:[[@LINE+1]]:10: warning: out-of-bounds copy to 'buf' by memcpy [gsan-scan-oob]
  memcpy(buf, name, len + 1);
}

#ifndef NO_MAIN
int main() { return 0; }
#endif
// CHECK: gsan scan: 0 findings, 2 unknown in 2 accesses
// LIB: gsan scan: 1 finding,
