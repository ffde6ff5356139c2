// Stress: 1,048,576 threads fail the same check (every thread writes one
// element past the end). Recover mode: one report, the kernel finishes, and
// the exact count is stated (a site's first failures go to the ring, the
// rest are counted on the device: docs/abi.md). Halt mode: one report, the
// run ends with exitcode. Neither hangs.
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--recover %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0 %gsan run -- %t
// RUN: %FileCheck %s < %t.out
// RUN: %gsan nvcc -g -arch=%arch -o %t.halt %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.halt.out 1 timeout 120 %gsan run -- %t.halt
// RUN: %FileCheck --check-prefix=HALT %s < %t.halt.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: same_check_million.cu:29
// CHECK-NOT: ERROR: GPUSanitizer
// CHECK: kernel: no error
// CHECK: global-buffer-overflow at {{.*}}same_check_million.cu:29 in {{.*}}: hit 1048576 times, reported once
// CHECK-NOT: not recorded
// HALT: ERROR: GPUSanitizer: global-buffer-overflow on address
// HALT: WRITE of size 4
// HALT-NOT: ERROR: GPUSanitizer
// HALT-NOT: kernel:
#include <cstdio>

__global__ void past_end(int *a, int n) {
  // all threads: one past the end, the same address and the same check
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[n] = i;  // BUG
}

int main() {
  int *a;
  cudaMalloc(&a, 1000 * sizeof(int));
  past_end<<<4096, 256>>>(a, 1000);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(a);
  return 0;
}
