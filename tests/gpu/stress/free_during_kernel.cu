// Stress: the host frees buffers while a long kernel runs. cudaFree waits
// for the device (the CUDA contract), so freeing the very buffer the
// running kernel reads is correct and must not be reported; freeing another
// buffer meanwhile, from a second host thread, must not disturb the kernel.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -O2 -arch=%arch -o %t %s -lcuda
// RUN: timeout 300 %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: the kernel's buffer freed while it ran: sum right: yes
// CHECK: another buffer freed from another thread while it ran: sum right: yes
// CHECK-NOT: GPUSanitizer
#include "stress.h"

#include <thread>

// about 200 ms on one SM: reads all of in, round after round
__global__ void long_sum(const unsigned *in, int n, int rounds, unsigned long long *out) {
  unsigned long long s = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += in[i];
  atomicAdd(out, s);
}

static bool run(bool free_own) {
  const int n = 1 << 16, rounds = 400;
  unsigned *in, *other;
  unsigned long long *out, h = 0;
  CK(cudaMalloc(&in, n * sizeof(unsigned)));
  CK(cudaMalloc(&other, 1 << 20));
  CK(cudaMalloc(&out, sizeof h));
  CK(cudaMemset(in, 0, n * sizeof(unsigned)));
  CK(cudaMemset(in, 1, 4));  // in[0] = 0x01010101, the rest 0
  CK(cudaMemset(out, 0, sizeof h));
  CK(cudaDeviceSynchronize());
  long_sum<<<1, 256>>>(in, n, rounds, out);
  CK(cudaGetLastError());
  if (free_own) {
    CK(cudaFree(in));  // waits for long_sum
    CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
  } else {
    std::thread t([&] { CK(cudaFree(other)); });
    t.join();
    CK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaFree(in));
  }
  if (!free_own) other = nullptr;
  CK(cudaFree(other));
  CK(cudaFree(out));
  return h == 0x01010101ull * rounds;
}

int main() {
  printf("the kernel's buffer freed while it ran: sum right: %s\n", run(true) ? "yes" : "no");
  printf("another buffer freed from another thread while it ran: sum right: %s\n", run(false) ? "yes" : "no");
  return 0;
}
