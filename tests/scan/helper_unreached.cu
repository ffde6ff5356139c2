// A __device__ helper whose only caller is a template kernel that nothing
// launches: the helper is analysed with no launch, so its access is counted
// (an unknown that says no analysed code calls it) rather than left out of
// the accesses altogether, and the template says it is never instantiated.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-DAG: helper_unreached.cu:12:49: remark: cannot decide whether the read of 'x' stays in bounds: 'first' is called by no analysed code, so what 'x' points to is not known
// CHECK-DAG: helper_unreached.cu:15:17: remark: 'twice' is a template that is never instantiated: its accesses are not analysed
// CHECK: gsan scan: 0 findings, 2 unknown in 1 access
#include <cuda_runtime.h>

__device__ float first(const float *x) { return x[0]; }

template <int N>
__global__ void twice(const float *x, float *out) {
  out[threadIdx.x] = N * first(x);
}

int main() { return 0; }
