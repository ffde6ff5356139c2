// Idiom: a __constant__ scalar initialised and never written bounds an index
// (constant_scalar_guarded.cu, the correct twin, says more): here the mask is
// 31 for 16 bins, so a value read from v with bit 4 set lands past them.
// RUN: not %gsan-scan -DMASK=31 %S/constant_scalar_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: constant_scalar_guarded.cu:24:25: warning: the index of the atomic access to 'bins' is read from memory and not validated [gsan-scan-unvalidated-index]
// CHECK: note: witness: v[i]=16: index 16 >= size 16 (4-byte elements: byte 64, size 64 bytes)
// CHECK: gsan scan: 1 finding, 0 unknown in 9 accesses
