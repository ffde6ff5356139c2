// An error-checking macro that calls its argument again to print the error:
// on the path where the first cudaFree failed, it frees a second time. A
// cudaFree that failed freed nothing, so that is no double free; a variable
// length host array has a size that is not a constant, which is no overflow.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                   \
  if ((x) != cudaSuccess) {                                        \
    printf("error: %s\n", cudaGetErrorString(x));                  \
    exit(1);                                                       \
  }

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > 1024) return 1;
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  float h[n];
  memset(h, 0, n * sizeof(float));
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaFree(d));
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: freed twice
// CHECK: gsan scan: 0 findings,
