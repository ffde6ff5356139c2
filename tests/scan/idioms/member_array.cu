// Idiom: a struct whose array member is handed to a helper by pointer
// (member_array_guarded.cu, the correct twin, says more): here the helper
// reads a[10] of the ten-element member, past its end though inside no other
// allocation (the struct is a kernel's local): an overflow of 'x.n'.
// RUN: not %gsan-scan -DTOP=10 %S/member_array_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: member_array_guarded.cu:25:53: warning: out-of-bounds read of 'a' [gsan-scan-oob]
// CHECK: member_array_guarded.cu:33:6: note: 'x.n' declared here with size 40 bytes
// CHECK: note: witness: index 10 of 'x.n' >= size 10 (4-byte elements: byte 40, size 40 bytes)
// CHECK: gsan scan: 1 finding, 0 unknown in 8 accesses
