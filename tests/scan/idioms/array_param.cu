// Idiom: fixed-size helpers whose parameters are declared as arrays
// (array_param_guarded.cu, the correct twin, says more). Here mult4 reads
// x[4] of the four elements its caller passes: the kernel's own array v, so
// that is a finding against v. rows lets r reach 2 of a float[2][3]: nothing
// analysed calls rows, and C lets a caller pass more rows than the
// declaration says, so that access is an unknown that names the declaration,
// never a finding.
// RUN: not %gsan-scan -DLAST=4 -DROWS=3 %S/array_param_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-DAG: array_param_guarded.cu:29:33: warning: out-of-bounds read of 'LAST' [gsan-scan-oob]
// CHECK-DAG: note: witness: index 4 of 'v' >= size 4 (4-byte elements: byte 16, size 16 bytes)
// CHECK-DAG: array_param_guarded.cu:38:31: remark: cannot decide whether the write to 'y[r]' stays in bounds: it may leave the 2 elements (24 bytes) that parameter 'y' is declared with ('float[2][3]'), and the array passed is not known
// CHECK: gsan scan: 1 finding, 1 unknown in 26 accesses
