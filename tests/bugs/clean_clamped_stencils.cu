// Correct: stencils with replicated edges, whose clamped loads gsan checks
// as clamped families (the corner loads, and tests that x + i and y + j do
// not wrap). A 7 x 7 stencil over an image whose sides are not multiples
// of the block, reading right up to its last element; the same stencil
// with column indexes computed from a base near INT_MAX, where x + i wraps
// for some i (the no-wrap test fails, the stub finds every load in bounds
// and the kernel goes on); and a 3 x 3 stencil over a flipped image
// (h - 1 - clamp(y + j)), which is no family. Every result is compared
// with the host's.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: stencil ok
// CHECK: wrapped ok
// CHECK: flipped ok
#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

constexpr int R = 3;

__device__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

// the sum of the (2R+1)^2 clamped neighbours of (x, y)
__global__ void stencil(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int j = -R; j <= R; j++) {
    size_t row = (size_t)clampi(y + j, 0, h - 1) * w;
#pragma unroll
    for (int i = -R; i <= R; i++) acc += in[row + clampi(x + i, 0, w - 1)];
  }
  out[(size_t)y * w + x] = acc;
}

// columns x0 + tx + i computed in wrapping 32-bit arithmetic: past INT_MAX
// they turn negative and clamp to column 0
__global__ void wrapped(float *out, const float *in, int x0, int w) {
  int tx = threadIdx.x, x = (int)((unsigned)x0 + (unsigned)tx);
  float acc = 0.0f;
#pragma unroll
  for (int i = -R; i <= R; i++) acc += in[clampi((int)((unsigned)x + (unsigned)i), 0, w - 1)];
  out[tx] = acc;
}

__global__ void flipped(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int j = -1; j <= 1; j++) {
    size_t row = (size_t)(h - 1 - clampi(y + j, 0, h - 1)) * w;
#pragma unroll
    for (int i = -1; i <= 1; i++) acc += in[row + clampi(x + i, 0, w - 1)];
  }
  out[(size_t)y * w + x] = acc;
}

static int clamph(int v, int lo, int hi) { return std::min(std::max(v, lo), hi); }

int main() {
  const int w = 203, h = 77;
  std::vector<float> img((size_t)w * h), res((size_t)w * h), ref((size_t)w * h);
  for (size_t k = 0; k < img.size(); k++) img[k] = (float)(k % 13);
  float *in, *out;
  cudaMalloc(&in, img.size() * sizeof(float));
  cudaMalloc(&out, img.size() * sizeof(float));
  cudaMemcpy(in, img.data(), img.size() * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);

  stencil<<<grid, block>>>(out, in, w, h);
  cudaMemcpy(res.data(), out, res.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float a = 0;
      for (int j = -R; j <= R; j++)
        for (int i = -R; i <= R; i++) a += img[(size_t)clamph(y + j, 0, h - 1) * w + clamph(x + i, 0, w - 1)];
      ref[(size_t)y * w + x] = a;
    }
  printf("stencil %s\n", res == ref ? "ok" : "WRONG");

  const int x0 = INT_MAX - 20;  // threads 18.. wrap for some i
  wrapped<<<1, 64>>>(out, in, x0, w);
  std::vector<float> wres(64);
  cudaMemcpy(wres.data(), out, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int t = 0; t < 64; t++) {
    float a = 0;
    for (int i = -R; i <= R; i++) a += img[clamph((int)((unsigned)x0 + (unsigned)t + (unsigned)i), 0, w - 1)];
    ok = ok && wres[t] == a;
  }
  printf("wrapped %s\n", ok ? "ok" : "WRONG");

  flipped<<<grid, block>>>(out, in, w, h);
  cudaMemcpy(res.data(), out, res.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float a = 0;
      for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++)
          a += img[(size_t)(h - 1 - clamph(y + j, 0, h - 1)) * w + clamph(x + i, 0, w - 1)];
      ref[(size_t)y * w + x] = a;
    }
  printf("flipped %s\n", res == ref ? "ok" : "WRONG");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
