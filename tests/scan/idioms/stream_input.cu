// Idiom: sizes read with operator>> (stream_input_guarded.cu, the correct
// twin, says more): here the first statement runs w * h + 1 elements past n,
// its last one past the buffer's n + w * h.
// RUN: not %gsan-scan -DEXTRA='w * h + 1' %S/stream_input_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: stream_input_guarded.cu:19:22: warning: out-of-bounds write to 'a' [gsan-scan-oob]
// CHECK: note: witness: {{.*}}n=
// CHECK: gsan scan: 1 finding, 0 unknown in 2 accesses
