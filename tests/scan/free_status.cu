// An error-checking macro that calls its argument again to print the error:
// on the path where the first cudaFree failed, it frees a second time. A
// cudaFree that failed freed nothing, so that is no double free; a variable
// length host array has a size that is not a constant, which is no overflow.
// CHECK3 calls it twice more (the status and its string, as wmma's
// CHECK_CUDA_ERROR does): a cudaFree of a pointer whose free already failed
// fails too, so the second call frees nothing either and the third is no
// double free. Freeing d2 twice for real is still found.
// RUN: not %gsan-scan %s > %t.txt
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

#define CHECK3(status)                                                       \
  if (status != cudaSuccess) {                                               \
    fprintf(stderr, "CUDA error: '%s'(%d)\n", cudaGetErrorString(status), status); \
    exit(EXIT_FAILURE);                                                      \
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
  float *d1, *d2;
  CHECK3(cudaMalloc(&d1, n * sizeof(float)));
  CHECK3(cudaMalloc(&d2, n * sizeof(float)));
  CHECK3(cudaFree(d1));
  cudaFree(d2);
  // CHECK: free_status.cu:[[@LINE+1]]:12: warning: 'd2' may be freed twice: freed again by cudaFree [gsan-scan-use-after-free]
  cudaFree(d2);
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: freed twice
// CHECK: gsan scan: 1 finding,
