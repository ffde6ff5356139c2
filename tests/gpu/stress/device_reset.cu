// Stress: cudaDeviceReset with an allocation still live, then the program
// starts over on the same device, three times. gsan serves and checks each
// new context (cudart resets through the driver's internal table, so gsan
// finds the reset by the context's new id); the allocations a reset took
// before the program freed them are leaks at exit, as compute-sanitizer
// reports them at the reset. With "bug", the overflow after the first reset
// is reported with its line.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 300 %gsan run -- %t
// RUN: %FileCheck --check-prefix=CLEAN %s < %t.out
// RUN: %python %tools/exit_status.py --output %t.bug 1 timeout 300 %gsan run -- %t bug
// RUN: %FileCheck --check-prefix=BUG %s < %t.bug
// CLEAN-NOT: GPUSanitizer
// CLEAN: round 0: 0 bad bytes
// CLEAN: round 1: 0 bad bytes
// CLEAN: round 2: 0 bad bytes
// CLEAN: ERROR: GPUSanitizer: detected device memory leaks
// CLEAN: Leak of 4096 byte(s)
// CLEAN: device_reset.cu:39
// CLEAN: SUMMARY: GPUSanitizer: 12288 byte(s) leaked in 3 allocation(s).
// BUG: round 0: 0 bad bytes
// BUG: ERROR: GPUSanitizer: global-buffer-overflow on address
// BUG: WRITE of size 1
// BUG: device_reset.cu:[[#@LINE+5]]
#include "stress.h"

#include <cstring>

__global__ void one_past(unsigned char *p, size_t n) { p[n] = 1; }  // BUG (with "bug")

int main(int argc, char **argv) {
  bool bug = argc > 1 && !strcmp(argv[1], "bug");
  for (int round = 0; round < 3; round++) {
    unsigned char *p, *kept;
    unsigned *bad;
    size_t n = 1000 + round;
    CK(cudaMalloc(&p, n));
    CK(cudaMalloc(&kept, 4096));  // live at the reset: the reset takes it
    CK(cudaMalloc(&bad, sizeof(unsigned)));
    CK(cudaMemset(bad, 0, sizeof(unsigned)));
    stress_fill<<<4, 256>>>(p, n, 7);
    stress_verify<<<4, 256>>>(p, n, 7, bad);
    if (bug && round == 1) one_past<<<1, 1>>>(p, n);
    unsigned h;
    CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
    printf("round %d: %u bad bytes\n", round, h);
    fflush(stdout);
    CK(cudaFree(p));
    CK(cudaFree(bad));
    CK(cudaDeviceReset());  // kept is still live: the reset takes it
  }
  return 0;
}
