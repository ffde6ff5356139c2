// Idiom: a template kernel that calls a __device__ helper
// (template_helper_guarded.cu, the correct twin, says more): here each block
// takes the slot of its own index, past n for every block after the n-th.
// RUN: not %gsan-scan -DSLOT=blockIdx.x %S/template_helper_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-DAG: template_helper_guarded.cu:22:19: warning: out-of-bounds read of 'address' [gsan-scan-oob]
// CHECK-DAG: template_helper_guarded.cu:36:25: warning: out-of-bounds write to 'res' [gsan-scan-oob]
// the helper's loop runs on what the read past the end gave: not decided
// CHECK-DAG: template_helper_guarded.cu:25:37: remark: cannot decide whether the atomic access to '(unsigned long long *)address' stays in bounds: 'ret' is changed by the loop at line 23
// CHECK: gsan scan: 2 findings, 1 unknown in 3 accesses
