// Idiom: ping-pong buffers picked by a condition each iteration
// (ptr_select_guarded.cu, the correct twin, says more): here the second
// buffer is one element short, so whichever iteration reads or writes it
// through the picked pointer overflows it. The witness names the iteration.
// RUN: not %gsan-scan %S/ptr_select_guarded.cu -- "-DNB=(n-1)" > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-DAG: ptr_select_guarded.cu:22:14: warning: out-of-bounds write to 'dst' [gsan-scan-oob]
// CHECK-DAG: ptr_select_guarded.cu:22:30: warning: out-of-bounds read of 'src' [gsan-scan-oob]
// CHECK-DAG: ptr_select_guarded.cu:32:18: note: the pointer is 'a' or 'b', as a condition chooses here
// CHECK-DAG: ptr_select_guarded.cu:33:18: note: the pointer is 'b' or 'a', as a condition chooses here
// CHECK-DAG: ptr_select_guarded.cu:30:3: note: 'b' allocated here with size (n - 1) * 4 bytes
// odd iterations write b through dst, even ones read it through src
// CHECK-DAG: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=14, it=1: index 14 of 'b or a' >= size 14 (4-byte elements: byte 56, size 56 bytes)
// CHECK-DAG: note: witness: n=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=14, it=0: index 14 of 'a or b' >= size 14 (4-byte elements: byte 56, size 56 bytes)
// CHECK: gsan scan: 2 findings, 0 unknown in 2 accesses
