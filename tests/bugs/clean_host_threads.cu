// Correct: 8 host threads, each with its own non-blocking stream, each doing 200
// cudaMalloc / kernel / copy-back / cudaFree cycles at the same time. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: threads: ok
#include <cstdio>
#include <thread>
#include <vector>
__global__ void inc(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += i;
}
static void work(int id, int *good) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int it = 0; it < 200; it++) {
    int n = 64 + (id * 200 + it) % 1000, *a, last = -1;
    if (cudaMalloc(&a, n * sizeof(int))) break;
    cudaMemsetAsync(a, 0, n * sizeof(int), s);
    inc<<<(n + 127) / 128, 128, 0, s>>>(a, n);
    cudaMemcpyAsync(&last, a + n - 1, sizeof last, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    *good += last == n - 1;
    cudaFree(a);
  }
  cudaStreamDestroy(s);
}
int main() {
  int good[8] = {0}, total = 0;
  cudaFree(0);  // the context, before the threads start
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++) threads.emplace_back(work, t, &good[t]);
  for (auto &t : threads) t.join();
  for (int t = 0; t < 8; t++) total += good[t];
  printf("threads: %s\n", total == 8 * 200 ? "ok" : "wrong results");
  return 0;
}
