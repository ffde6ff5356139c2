// Where inputs come from: scanf, a file read with fread (which returns at most
// the count asked for) and argc; not the parameters of a function nothing here
// calls when the program has a main (code main does not reach: its accesses
// are examined, its arguments unknown). Witnesses name each input by the
// variable it was read into.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// CHECK: inputs.cu:[[@LINE+1]]:55: warning: out-of-bounds read of 'a' [gsan-scan-oob]
__global__ void take_a(const int *a, int i) { int x = a[i]; (void)x; }
// CHECK: note: witness: argc=16, n=15, scanf@27=1: index -1 of 'd' < 0
// CHECK: inputs.cu:[[@LINE+1]]:55: warning: out-of-bounds read of 'a' [gsan-scan-oob]
__global__ void take_b(const int *a, int i) { int x = a[i]; (void)x; }
// CHECK: note: witness: n=1, scanf@27=1, got=2: index 2 of 'd' >= size 1
// CHECK: inputs.cu:[[@LINE+1]]:55: remark: cannot decide whether the read of 'a' stays in bounds: 'd' is a parameter of 'library_entry', which the program's main does not reach [gsan-scan-unknown]
__global__ void take_c(const int *a, int i) { int x = a[i]; (void)x; }

void library_entry(const int *d, int count, int index) {
  if (index < count) take_c<<<1, 1>>>(d, index);
}

int main(int argc, char **argv) {
  int n, header[2];
  if (scanf("%d", &n) != 1 || n < 1 || n > 4096) return 1;
  FILE *f = fopen(argv[1], "rb");
  size_t got = fread(header, sizeof(int), 2, f);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  take_a<<<1, 1>>>(d, n - argc);
  take_b<<<1, 1>>>(d, (int)got);
  return 0;
}
// CHECK: gsan scan: 2 findings, 1 unknown in 3 accesses
