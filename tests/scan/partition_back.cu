// A pointer into the middle of a shared array that reads behind itself on
// purpose (a lagged generator: px = &cx[P] and px[i - P] reaches cx[0]): the
// bytes below it belong to no other partition, so nothing is reported. With
// a second partition below it (-DTWO: py = cx carved too), the same read
// reaches into py's bytes and is a partition overflow.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: not %gsan-scan -DTWO %s | %FileCheck --check-prefix=TWO %s
#include <cuda_runtime.h>
#define P 64

__global__ void lagged(float *out) {
  __shared__ float cx[2 * P];
  float *px = &cx[P];
#ifdef TWO
  float *py = &cx[0];
  py[threadIdx.x] = 1.0f;
#endif
  int i = threadIdx.x;
  px[i] = 0.0f;
  __syncthreads();
  // TWO: partition_back.cu:[[@LINE+1]]:12: warning: read of 'px' reaches below the start of partition 'px' into 'py', another partition of 'cx' [gsan-scan-partition-oob]
  out[i] = px[i - P];
}

int main() {
  float *d;
  cudaMalloc(&d, P * sizeof(float));
  lagged<<<1, P>>>(d);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
