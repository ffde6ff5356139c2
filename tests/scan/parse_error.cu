// A file that does not parse, none of its functions left (an error in the
// kernel's declaration: partial_parse.cu has the files analysed in part): the
// compiler's errors as file:line:col: error:, one line saying the file was
// not analysed, exit status 2. With two files,
// the one that parses is still analysed and reported.
// RUN: %python %tools/exit_status.py 2 %gsan-scan %s
// RUN: not %gsan-scan %s 2> %t.err
// RUN: %FileCheck --check-prefix=ERR %s < %t.err
// RUN: not %gsan-scan %s %S/missing_guard.cu > %t.out 2> %t.err2
// RUN: %FileCheck --check-prefix=BOTH %s < %t.out
// ERR: parse_error.cu:[[@LINE+4]]:{{[0-9]+}}: error: unknown type name 'undeclared_t'
// ERR: gsan scan: {{.*}}parse_error.cu: not analysed: the file does not parse
// BOTH: missing_guard.cu:{{[0-9]+}}:3: warning: out-of-bounds write to 'y' [gsan-scan-oob]
#include <cuda_runtime.h>
__global__ void k(float *a, undeclared_t n) {
  int i = threadIdx.x;
  a[i] = n;
}
