// Stress: 1,048,576 threads fail the same check (every thread writes one
// element past the end). Recover mode: one report, the kernel finishes, and
// the repeat count is stated: exactly, when the ring holds every record;
// otherwise with how many were not recorded. Halt mode: one report, the run
// ends with exitcode. None of the runs hangs.
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--recover %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.big 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0:ring_capacity=2097152 %gsan run -- %t
// RUN: %FileCheck --check-prefix=BIG %s < %t.big
// RUN: %python %tools/exit_status.py --output %t.small 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0 %gsan run -- %t
// RUN: %FileCheck --check-prefix=SMALL %s < %t.small
// RUN: %gsan nvcc -g -arch=%arch -o %t.halt %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.halt.out 1 timeout 120 %gsan run -- %t.halt
// RUN: %FileCheck --check-prefix=HALT %s < %t.halt.out
// BIG: ERROR: GPUSanitizer: global-buffer-overflow on address
// BIG: WRITE of size 4
// BIG: same_check_million.cu:37
// BIG-NOT: ERROR: GPUSanitizer
// BIG: kernel: no error
// BIG: global-buffer-overflow at {{.*}}same_check_million.cu:37 in {{.*}}: hit 1048576 times, reported once
// BIG-NOT: not recorded
// SMALL: ERROR: GPUSanitizer: global-buffer-overflow on address
// SMALL-NOT: ERROR: GPUSanitizer
// SMALL: kernel: no error
// SMALL: global-buffer-overflow at {{.*}}same_check_million.cu:37 in {{.*}}: hit {{[0-9]+}} times, reported once
// SMALL: GPUSanitizer: {{[1-9][0-9]*}} more failed accesses on device 0 were not recorded: the report ring was full (ring_capacity=4096)
// HALT: ERROR: GPUSanitizer: global-buffer-overflow on address
// HALT: WRITE of size 4
// HALT-NOT: ERROR: GPUSanitizer
// HALT-NOT: kernel:
#include <cstdio>

__global__ void past_end(int *a, int n) {
  // all threads: one past the end, the same address and the same check
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 0)
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
