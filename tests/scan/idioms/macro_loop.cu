// Idiom: a grid-stride loop written by a macro (macro_loop_guarded.cu, the
// correct twin, says more): here it runs over one row more than there are.
// RUN: not %gsan-scan -DROWS='(B + 1)' %S/macro_loop_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: macro_loop_guarded.cu:24:5: warning: out-of-bounds write to 'out' [gsan-scan-oob]
// CHECK: gsan scan: 3 findings, 0 unknown in 3 accesses
