// Use after free on a host path: a helper frees the buffer, then main launches
// a kernel with it; the host later copies from it and frees it again.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}

static void release(float *p) { cudaFree(p); }

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d, *h = (float *)malloc(n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  release(d);
  // CHECK: uaf_launch.cu:[[@LINE+2]]:34: warning: 'd' is used after it was freed: passed to kernel 'fill' [gsan-scan-use-after-free]
  // CHECK: uaf_launch.cu:13:33: note: 'd' freed here
  fill<<<(n + 255) / 256, 256>>>(d, n);
  // CHECK: uaf_launch.cu:[[@LINE+1]]:17: warning: 'd' is used after it was freed: copied by cudaMemcpy [gsan-scan-use-after-free]
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: uaf_launch.cu:[[@LINE+1]]:12: warning: 'd' may be freed twice: freed again by cudaFree [gsan-scan-use-after-free]
  cudaFree(d);
  free(h);
  return 0;
}
// CHECK-NOT: witness
// CHECK: gsan scan: 3 findings, 0 unknown in 3 accesses
