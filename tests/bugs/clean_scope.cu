// Correct: local arrays passed to __noinline__ callees (which also keep them in
// global memory for a while) and used only while their frame lives, through
// recursion too: no use-after-scope report, and the sums are right.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum = 5888
#include <cstdio>

__device__ int *kept[64];

__device__ __noinline__ int sum8(const int *p) {
  int s = 0;
  for (int i = 0; i < 8; i++) s += p[i];
  return s;
}

__device__ __noinline__ void remember(int *p) { kept[threadIdx.x] = p; }

// each level passes its own array down and reads its parent's, which lives
__device__ __noinline__ int walk(int *parent, int depth) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = parent ? parent[i] + 1 : i;
  if (depth == 0) return sum8(a);
  return walk(a, depth - 1);
}

__device__ __noinline__ int keep_and_use(int v) {
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = v;
  remember(a);
  int s = sum8(kept[threadIdx.x]); // the kept pointer, while a lives
  kept[threadIdx.x] = nullptr;
  return s;
}

__global__ void scopes(int *out) {
  int t = threadIdx.x;
  out[t] = sum8(out + 32) + walk(nullptr, 3) + keep_and_use(t);
}

int main() {
  int *out, h[64] = {0};
  for (int i = 32; i < 64; i++) h[i] = 1;
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(out, h, sizeof h, cudaMemcpyHostToDevice);
  scopes<<<1, 32>>>(out);
  cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < 32; i++) sum += h[i];
  // each thread t: 8 (sum8) + 52 (walk: 0..7 plus 3 each) + 8 t (keep_and_use)
  printf("sum = %ld\n", sum); // 32 * 60 + 8 * (0 + ... + 31) = 5888
  cudaFree(out);
  return 0;
}
