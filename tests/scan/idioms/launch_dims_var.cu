// Idiom: launch dimensions in dim3 variables from the command line
// (launch_dims_var_guarded.cu, the correct twin, says more); here the
// dynamic shared memory holds 17 doubles per thread but one: with one thread
// per block there are none, and thread 0 reads smem[0].
// RUN: not %gsan-scan -DFEWER=1 %S/launch_dims_var_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: launch_dims_var_guarded.cu:19:39: warning: out-of-bounds read of 'smem' [gsan-scan-oob]
// CHECK: note: witness: wgs=1{{.*}}: index 0 >= size 0 (8-byte elements: byte 0, size 0 bytes)
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
