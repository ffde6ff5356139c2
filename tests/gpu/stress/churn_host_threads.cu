// Stress: 8 host threads allocate and free 1,000,000 buffers of mixed sizes
// (1 B to 4 MiB) in random order, while kernels fill and verify every 16th
// buffer on each thread's own stream. No report, no lost or corrupted byte,
// and gsan's arena ends with every allocation freed.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -O2 -arch=%arch -o %t %s -lcuda
// RUN: timeout 600 %gsan run --opt print_stats=1 -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: churn: 8 threads, 1000000 allocations, 1000000 frees, [[K:[0-9]+]] fill kernels, 0 bad bytes
// CHECK-NOT: GPUSanitizer
// CHECK: stats: device 0: {{[0-9]+}} allocations, {{[0-9]+}} frees, 0 live at exit
#include "stress.h"

#include <atomic>
#include <thread>
#include <vector>

static const int THREADS = 8, PER_THREAD = 125000, HOLD = 32;
static std::atomic<long> allocs{0}, frees{0}, fills{0};

struct buf {
  unsigned char *p;
  size_t n;
  unsigned char v;  // 0: not filled
};

static void worker(int id, unsigned *bad) {
  rng r(id + 1);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<buf> live;
  for (int i = 0; i < PER_THREAD; i++) {
    buf b = {nullptr, r.size(), 0};
    CK(cudaMalloc(&b.p, b.n));
    allocs++;
    if (i % 16 == 0) {
      b.v = (unsigned char)(1 + r.next() % 255);
      stress_fill<<<stress_blocks(b.n), 256, 0, s>>>(b.p, b.n, b.v);
      CK(cudaGetLastError());
      fills++;
    }
    live.push_back(b);
    if ((int)live.size() == HOLD || i == PER_THREAD - 1) {
      for (const buf &x : live)
        if (x.v) stress_verify<<<stress_blocks(x.n), 256, 0, s>>>(x.p, x.n, x.v, bad);
      CK(cudaStreamSynchronize(s));
      // free half (all at the end), picked at random
      size_t keep = i == PER_THREAD - 1 ? 0 : HOLD / 2;
      while (live.size() > keep) {
        size_t j = r.next() % live.size();
        CK(cudaFree(live[j].p));
        frees++;
        live[j] = live.back();
        live.pop_back();
      }
    }
  }
  CK(cudaStreamDestroy(s));
}

int main() {
  unsigned *bad;
  CK(cudaMalloc(&bad, THREADS * sizeof(unsigned)));
  CK(cudaMemset(bad, 0, THREADS * sizeof(unsigned)));
  std::vector<std::thread> t;
  for (int i = 0; i < THREADS; i++) t.emplace_back(worker, i, bad + i);
  for (auto &x : t) x.join();
  unsigned h[THREADS], total = 0;
  CK(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
  for (unsigned v : h) total += v;
  CK(cudaFree(bad));
  printf("churn: %d threads, %ld allocations, %ld frees, %ld fill kernels, %u bad bytes\n", THREADS, allocs.load(),
         frees.load(), fills.load(), total);
  return total != 0;
}
