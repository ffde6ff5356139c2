// The guarded twin of copy_overflow.cu: both buffers hold n floats.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d, *m;
  float *h = new float[n];
  cudaMalloc(&d, n * sizeof(float));
  cudaMallocManaged(&m, n * sizeof(float));
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemset(m, 0, n * sizeof(float));
  delete[] h;
  return 0;
}
