// Idiom: the command line parsed inside try, a catch that returns
// (try_catch_guarded.cu, the correct twin, says more): here the kernel's
// guard lets the last thread read one past n.
// RUN: not %gsan-scan "-DLIMIT(n)=(n)+1" %S/try_catch_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: try_catch_guarded.cu:23:21: warning: out-of-bounds write to 'out' [gsan-scan-oob]
// CHECK: try_catch_guarded.cu:38:3: note: kernel 'twice' launched here
// CHECK: note: witness: n=2, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=2: index 2 >= size 2 (4-byte elements: byte 8, size 8 bytes)
// CHECK: try_catch_guarded.cu:23:34: warning: out-of-bounds read of 'in' [gsan-scan-oob]
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
