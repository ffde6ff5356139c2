// A SASS-only kernel (plain nvcc, no PTX: gsan cannot instrument it) writes
// one float past a 4000-byte cudaMalloc'd buffer, into the slack of its
// arena slot. The canary there is broken, and gsan reports it with the
// allocation, its line, and the kernel: at cudaFree (the monitor and the
// synchronising calls told to wait 10 s), or at cudaDeviceSynchronize
// ("sync", canary_check_ms=0: every synchronising call checks, the monitor
// does not). "odd": 1001 floats, whose end is 4 bytes past an 8-byte
// boundary, where the canary starts with a 4-byte word. "spin": the kernel
// overflows and then runs on for about 3 s; the monitor thread
// (canary_check_ms=5) reads the canary on gsan's own non-blocking stream
// while it runs, and the run ends before cudaDeviceSynchronize returns.
// REQUIRES: gpu
// RUN: nvcc %sass_only -g -o %t %s
// RUN: %python %tools/exit_status.py --output %t.free 1 timeout 300 %gsan run --opt canary_check_ms=10000 -- %t
// RUN: %FileCheck --check-prefix=FREE %s < %t.free
// RUN: %python %tools/exit_status.py --output %t.sync 1 timeout 300 %gsan run --opt canary_check_ms=0 -- %t sync
// RUN: %FileCheck --check-prefix=SYNC %s < %t.sync
// RUN: %python %tools/exit_status.py --output %t.odd 1 timeout 300 %gsan run --opt canary_check_ms=10000 -- %t odd
// RUN: %FileCheck --check-prefix=ODD %s < %t.odd
// RUN: %python %tools/exit_status.py --output %t.spin 1 timeout 300 %gsan run --opt canary_check_ms=5 -- %t spin
// RUN: %FileCheck --check-prefix=SPIN %s < %t.spin
// FREE: ERROR: GPUSanitizer: global-canary-overflow on address
// FREE-NEXT: canary after the allocation's end broken, found at cuMemFree
// FREE-NEXT: is located 0 bytes after 4000-byte region
// FREE-NEXT: allocated by host thread T0 here:
// FREE: slack_overflow.cu:62
// FREE: kernels launched since the last clean check
// FREE-NEXT: one_past(float*, int)
// FREE: SUMMARY: GPUSanitizer: global-canary-overflow 0 bytes after 4000-byte region
// SYNC: ERROR: GPUSanitizer: global-canary-overflow on address
// SYNC-NEXT: found at cuCtxSynchronize
// SYNC-NEXT: is located 0 bytes after 4000-byte region
// SYNC: one_past(float*, int)
// ODD: ERROR: GPUSanitizer: global-canary-overflow on address
// ODD-NEXT: found at cuMemFree
// ODD-NEXT: is located 0 bytes after 4004-byte region
// SPIN: ERROR: GPUSanitizer: global-canary-overflow on address
// SPIN-NEXT: found at a check by the monitor thread
// SPIN-NEXT: is located 0 bytes after 4000-byte region
// SPIN: one_past_then_spin(float*, int)
// SPIN-NOT: sync:
#include <cstdio>
#include <cstring>

__global__ void one_past(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = 1.0f;  // BUG: i == n is one past the end
}

__global__ void one_past_then_spin(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = 1.0f;  // BUG: i == n is one past the end
  __threadfence_system();
  long long t0 = clock64();
  while (clock64() - t0 < 5000000000ll) {  // about 3 s at the H100's clock
  }
}

int main(int argc, char **argv) {
  const int n = argc > 1 && !strcmp(argv[1], "odd") ? 1001 : 1000;
  float *p;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess) return 2;
  if (argc > 1 && !strcmp(argv[1], "spin"))
    one_past_then_spin<<<4, 256>>>(p, n);
  else
    one_past<<<4, 256>>>(p, n);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %d\n", (int)e);
  if (argc < 2 || !strcmp(argv[1], "odd")) printf("free: %d\n", (int)cudaFree(p));
  return 0;
}
