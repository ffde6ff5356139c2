// Stress: every way out of a program prints the device reports still
// pending. A recover-mode kernel fails a check 64 times and tells the host
// through mapped memory; with the monitor thread slowed to 10 s, nothing has
// printed them yet when the program leaves by returning from main, exit(),
// _exit(), SIGTERM, SIGINT or abort(). Each run prints the report and the
// repeat count, ends with the exit status it should (exitcode 1 for the
// first three; killed by its signal for the others), and does not hang.
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--recover %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.return 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t return
// RUN: %FileCheck %s < %t.return
// RUN: %python %tools/exit_status.py --output %t.exit 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t exit
// RUN: %FileCheck %s < %t.exit
// RUN: %python %tools/exit_status.py --output %t._exit 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t _exit
// RUN: %FileCheck %s < %t._exit
// RUN: %python %tools/exit_status.py --output %t.term -15 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t SIGTERM
// RUN: %FileCheck %s < %t.term
// RUN: %python %tools/exit_status.py --output %t.int -2 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t SIGINT
// RUN: %FileCheck %s < %t.int
// RUN: %python %tools/exit_status.py --output %t.abort -6 timeout 120 env GSAN_OPTIONS=halt_on_error=0:monitor_ms=10000 %gsan run -- %t abort
// RUN: %FileCheck %s < %t.abort
// CHECK: leaving by
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: exit_paths.cu:34
// CHECK: global-buffer-overflow at {{.*}}exit_paths.cu:34 in {{.*}}: hit 64 times, reported once
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void overflow_then_tell(int *a, int n, volatile int *told) {
  a[n + threadIdx.x] = 1;  // BUG: 64 writes past the end
  __syncthreads();
  __threadfence_system();
  if (threadIdx.x == 0) *told = 1;
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "return";
  int *a;
  volatile int *told;
  cudaMalloc(&a, 100 * sizeof(int));
  cudaHostAlloc((void **)&told, sizeof(int), cudaHostAllocMapped);
  *told = 0;
  int *told_dev;
  cudaHostGetDevicePointer((void **)&told_dev, (void *)told, 0);
  overflow_then_tell<<<1, 64>>>(a, 100, told_dev);
  // no synchronising call: wait for the kernel through the mapped flag
  for (int i = 0; i < 10000000 && !*told; i++) usleep(1);
  printf("leaving by %s (the kernel %s)\n", how, *told ? "told us" : "did not tell us");
  fflush(stdout);
  if (!strcmp(how, "exit")) exit(0);
  if (!strcmp(how, "_exit")) _exit(0);
  if (!strcmp(how, "SIGTERM")) raise(SIGTERM);
  if (!strcmp(how, "SIGINT")) raise(SIGINT);
  if (!strcmp(how, "abort")) abort();
  return 0;
}
