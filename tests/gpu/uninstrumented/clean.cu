// A correct SASS-only program (plain nvcc, no PTX): buffers of every layout
// (small classes, exact powers of two, large ones with slack, multiples of
// the granule, a pitched one, stream-ordered ones), each set whole with
// cudaMemset and written to its last byte by kernels, 600 launches, checks
// at every synchronisation (canary_check_ms=0) and by the monitor (the
// default period): no report.
// REQUIRES: gpu
// RUN: nvcc %sass_only -g -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 0 timeout 300 %gsan run --opt canary_check_ms=0 -- %t
// RUN: %FileCheck %s < %t.out
// RUN: %python %tools/exit_status.py --output %t.mon 0 timeout 300 %gsan run -- %t
// RUN: %FileCheck %s < %t.mon
// CHECK-NOT: GPUSanitizer
// CHECK: round 0: 0 bad bytes
// CHECK: round 9: 0 bad bytes
// CHECK: pitched: 0, stream-ordered: 0
// CHECK-NOT: GPUSanitizer
#include <cstdio>
#include <vector>

__global__ void fill(unsigned char *p, size_t n, unsigned char v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}

__global__ void count_bad(const unsigned char *p, size_t n, unsigned char v, unsigned long long *bad) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (p[i] != v) atomicAdd(bad, 1ull);
}

int main() {
  const size_t sizes[] = {1, 7, 100, 256, 4000, 4096, 65536, (1u << 20) + 3, 2u << 20, 3u << 20, 4u << 20};
  const int ns = sizeof sizes / sizeof sizes[0];
  unsigned long long *bad;
  cudaMalloc(&bad, sizeof *bad);
  for (int round = 0; round < 10; round++) {
    std::vector<unsigned char *> p(ns);
    for (int i = 0; i < ns; i++) {
      cudaMalloc(&p[i], sizes[i]);
      cudaMemset(p[i], 0xab, sizes[i]);
    }
    cudaMemset(bad, 0, sizeof *bad);
    for (int k = 0; k < 5; k++)
      for (int i = 0; i < ns; i++) fill<<<64, 256>>>(p[i], sizes[i], (unsigned char)(round + k));
    for (int i = 0; i < ns; i++) count_bad<<<64, 256>>>(p[i], sizes[i], (unsigned char)(round + 4), bad);
    unsigned long long h = 0;
    cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
    printf("round %d: %llu bad bytes\n", round, h);
    for (int i = 0; i < ns; i++) cudaFree(p[i]);
  }
  unsigned char *pitched, *ordered;
  size_t pitch;
  cudaMallocPitch(&pitched, &pitch, 1000, 33);
  cudaMemset2D(pitched, pitch, 1, pitch, 33);
  fill<<<8, 256>>>(pitched, pitch * 33, 2);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMallocAsync(&ordered, 5000, s);
  fill<<<8, 256, 0, s>>>(ordered, 5000, 3);
  cudaStreamSynchronize(s);
  cudaFreeAsync(ordered, s);
  cudaStreamSynchronize(s);
  printf("pitched: %d, stream-ordered: %d\n", (int)cudaFree(pitched), (int)cudaGetLastError());
  cudaFree(bad);
  cudaStreamDestroy(s);
  return 0;
}
