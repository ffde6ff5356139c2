// Correct: loops whose accesses run under a guard that the loop's whole range
// of iterations would break, each reaching exactly the first and last element
// it may. A wavefront over a shared tile (Needleman-Wunsch's shape: thread tx
// updates row d - tx at step d, when 0 <= d - tx < 32), and a staircase of
// threads over one global array (thread t adds a[k - t] when 0 <= k - t < n).
// gsan checks such loops before they run over the iterations their guard lets
// through; checking the whole range would fail and run the checked loop,
// which must find nothing wrong either. Every result is compared with the
// host's.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: wavefront ok
// CHECK: staircase ok
#include <cstdio>
#include <vector>
constexpr int B = 32;
__global__ void wavefront(const int *cost, int *out) {
  __shared__ int s[B + 1][B + 1];
  __shared__ int c[B][B];
  const int tx = threadIdx.x;
  for (int y = 0; y < B; y++) c[y][tx] = cost[y * B + tx];
  s[0][tx + 1] = tx + 1;
  s[tx + 1][0] = tx + 1;
  if (tx == 0) s[0][0] = 0;
  __syncthreads();
  for (int d = 0; d < 2 * B - 1; d++) {
    int y = d - tx;
    if (y >= 0 && y < B) s[y + 1][tx + 1] = min(s[y][tx] + c[y][tx], min(s[y][tx + 1], s[y + 1][tx]) + 1);
    __syncthreads();
  }
  for (int y = 0; y <= B; y++) out[y * (B + 1) + tx + 1] = s[y][tx + 1];
}
__global__ void staircase(const int *a, int *out, int n) {
  int t = threadIdx.x, s = 0;
  for (int k = 0; k < n + 31; k++) {
    int i = k - t;
    if (i >= 0 && i < n) s += a[i] * (k + 1);
  }
  out[t] = s;
}
static int fails;
static void expect(const char *what, bool ok) {
  printf("%s %s\n", what, ok ? "ok" : "WRONG");
  fails += !ok;
}
int main() {
  std::vector<int> hc(B * B);
  for (int i = 0; i < B * B; i++) hc[i] = (i * 7 + 3) % 11;
  int *cost, *out;
  cudaMalloc(&cost, B * B * sizeof(int));
  cudaMalloc(&out, (B + 1) * (B + 1) * sizeof(int));
  cudaMemcpy(cost, hc.data(), B * B * sizeof(int), cudaMemcpyHostToDevice);
  wavefront<<<1, B>>>(cost, out);
  std::vector<int> got((B + 1) * (B + 1)), want((B + 1) * (B + 1));
  cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int y = 0; y <= B; y++)
    for (int x = 0; x <= B; x++) {
      int &w = want[y * (B + 1) + x];
      if (y == 0 || x == 0) w = y + x;
      else w = std::min(want[(y - 1) * (B + 1) + x - 1] + hc[(y - 1) * B + x - 1],
                        std::min(want[(y - 1) * (B + 1) + x], want[y * (B + 1) + x - 1]) + 1);
    }
  bool ok = true;
  for (int y = 0; y <= B; y++)
    for (int x = 1; x <= B; x++) ok = ok && got[y * (B + 1) + x] == want[y * (B + 1) + x];
  expect("wavefront", ok);

  const int n = 1000;
  std::vector<int> ha(n);
  for (int i = 0; i < n; i++) ha[i] = i % 13 - 6;
  int *a, *sum;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&sum, 32 * sizeof(int));
  cudaMemcpy(a, ha.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  staircase<<<1, 32>>>(a, sum, n);
  int hs[32];
  cudaMemcpy(hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
  ok = true;
  for (int t = 0; t < 32; t++) {
    int s = 0;
    for (int k = 0; k < n + 31; k++)
      if (k - t >= 0 && k - t < n) s += ha[k - t] * (k + 1);
    ok = ok && s == hs[t];
  }
  expect("staircase", ok);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  cudaFree(cost);
  cudaFree(out);
  cudaFree(a);
  cudaFree(sum);
  return fails || e != cudaSuccess;
}
