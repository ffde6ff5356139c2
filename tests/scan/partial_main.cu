// A function whose errors are all in statements of its body (a main that
// calls a library whose header is missing) is analysed in part: each
// statement with an error is skipped, and every variable it declares or
// names takes a value the model does not know. Code before the first such
// statement is analysed as usual (the overrun launched there is a finding);
// after one, an access is proved in bounds (the guarded kernel: no remark)
// or left unknown with the statement's line, never reported: the skipped
// code may have held a guard (the same overrun launched after it). A function
// that only a skipped statement calls is analysed with its parameters as
// inputs (run: its overrun is a finding). A loop with a skipped statement in
// it is that statement's from its start: its next iteration comes after it.
// RUN: not %gsan-scan %s > %t.out 2> %t.err
// RUN: %FileCheck %s < %t.out
// RUN: %FileCheck --check-prefix=ERR %s < %t.err
// ERR: partial_main.cu:[[#@LINE+2]]:10: error: 'missing_lib.h' file not found
// ERR: gsan scan: {{.*}}partial_main.cu: analysed in part: {{[0-9]+}} errors; of the 7 functions defined in it and its headers, 2 are analysed in part
#include "missing_lib.h"
#include <cuda_runtime.h>

__global__ void guarded(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0;
}

__global__ void overrun(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: partial_main.cu:[[#@LINE+4]]:15: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  // CHECK: note: kernel 'overrun' launched here
  // CHECK: note: witness: {{.*}}index 1000 of 'd' >= size 1000
  // CHECK-NOT: remark: {{.*}}stays in bounds
  if (i <= n) a[i] = 0;
}

__global__ void step(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: partial_main.cu:[[#@LINE+1]]:15: remark: cannot decide whether the write to 'a' stays in bounds: code with an error at line [[#@LINE+21]] (use of undeclared identifier 'lib_progress') came before it, and what that code does is not known [gsan-scan-unknown]
  if (i <= n) a[i] = 1;
}

__global__ void late(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: partial_main.cu:[[#@LINE+1]]:15: remark: cannot decide whether the write to 'a' stays in bounds: code with an error at line [[#@LINE+15]] (use of undeclared identifier 'lib_progress') came before it, and what that code does is not known [gsan-scan-unknown]
  if (i <= n) a[i] = 2;
}

void run(int rows) {
  float *r;
  cudaMalloc(&r, rows * sizeof(float));
  overrun<<<(rows + 255) / 256, 256>>>(r, rows);
  cudaFree(r);
}

// CHECK: partial_main.cu:[[#@LINE+1]]:6: remark: 'iterate' is analysed in part: its code has an error at line [[#@LINE+4]] (use of undeclared identifier 'lib_progress'); {{.*}} [gsan-scan-unknown]
void iterate(float *d, int n) {
  for (int t = 0; t < 4; t++) {
    step<<<(n + 255) / 256, 256>>>(d, n);
    lib_progress(t);
  }
}

// CHECK: partial_main.cu:[[#@LINE+1]]:5: remark: 'main' is analysed in part: its code has an error at line [[#@LINE+7]] (use of undeclared identifier 'lib_init'); its statements with errors are skipped, and an access after one is proved in bounds or left unknown, never reported [gsan-scan-unknown]
int main(int argc, char **argv) {
  int n = 1000;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  overrun<<<(n + 255) / 256, 256>>>(d, n);
  iterate(d, n);
  lib_init(argc, argv);
  guarded<<<(n + 255) / 256, 256>>>(d, n);
  late<<<(n + 255) / 256, 256>>>(d, n);
  run(lib_rows());
  cudaFree(d);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 1 finding, 4 unknown in 4 accesses
