// The analysis is bounded: by the solver's budget for the whole run
// (--budget, resource units summed over every question) and by the work
// followed from one entry point (--max-steps: expressions and statements,
// and the bindings each fork of a path copies). Past either, what is left is
// an unknown that names the budget, never a finding dropped in silence, and
// the run ends. With the defaults, the bug is found.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck --check-prefix=FULL %s < %t.txt
// RUN: %gsan-scan --budget=1000 %s | %FileCheck --check-prefix=BUDGET %s
// RUN: %gsan-scan --max-steps=40 %s | %FileCheck --check-prefix=STEPS %s
// RUN: not %gsan-scan --budget=0 %s 2>&1 | %FileCheck --check-prefix=BAD %s
// RUN: not %gsan-scan --max-steps=x %s 2>&1 | %FileCheck --check-prefix=BAD2 %s
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // FULL: budgets.cu:[[@LINE+3]]:15: warning: out-of-bounds write to 'a'
  // BUDGET: budgets.cu:[[@LINE+2]]:15: remark: cannot decide whether the write to 'a' stays in bounds: the run's solver budget was spent before this access (--budget=1000) [gsan-scan-unknown]
  // STEPS: budgets.cu:[[@LINE+1]]:15: remark: cannot decide whether the write to 'a' stays in bounds: {{.*}}the call to 'blocks' comes after the entry point's budget of 40 steps (--max-steps)
  if (i <= n) a[i] = 1.0f;
}

static int blocks(int n, int b) { return (n + b - 1) / b; }
static int pad(int n) { return n + 0; }

int main(int argc, char **argv) {
  int n = pad(pad(pad(pad(atoi(argv[1])))));
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  fill<<<blocks(n, 256), 256>>>(a, n);
  cudaFree(a);
  return 0;
}
// BAD: gsan scan: --budget: '0' is not a number of resource units
// BAD2: gsan scan: --max-steps: 'x' is not a number of steps
