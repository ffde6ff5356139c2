// A free under a condition: on the error path the buffer is released but the
// code goes on to launch with it. The witness is the input that takes that path.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int retries = atoi(argv[2]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  if (retries > 3) {
    fprintf(stderr, "too many retries\n");
    // CHECK: uaf_conditional.cu:[[@LINE+4]]:35: warning: 'd' is used after it was freed: passed to kernel 'scale' [gsan-scan-use-after-free]
    // CHECK: uaf_conditional.cu:[[@LINE+1]]:5: note: 'd' freed here
    cudaFree(d);
  }
  scale<<<(n + 255) / 256, 256>>>(d, n);
  // CHECK: note: witness: retries=16
  // CHECK: uaf_conditional.cu:[[@LINE+2]]:12: warning: 'd' may be freed twice: freed again by cudaFree [gsan-scan-use-after-free]
  // CHECK: note: witness: retries=16
  cudaFree(d);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 1 access
