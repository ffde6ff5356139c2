// Correct: unrolled row loops whose addresses nvcc builds one from another by
// adding a stride held in a register, which gsan checks as stride chains (one
// check for all the rows): a tile read with the matrix's pitch down to its
// last row, the same tile read bottom-up (a negative step), its rows written
// back through the pitch to the last row of the output, and rows of dynamic
// shared memory filling exactly the size given at launch. Every result is
// compared with the host's.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: tile ok
// CHECK: shared rows ok
#include <cstdio>
#include <vector>
constexpr int B = 32, R = 8;

// out row y = in row y + in row B-1-y, for the B x B tile at column c0
__global__ void tile_flip(const int *in, int *out, long pitch, int c0) {
  __shared__ int t[B][B], u[B][B];
  int tx = threadIdx.x;
#pragma unroll
  for (int y = 0; y < B; y++) t[y][tx] = in[y * pitch + c0 + tx];
#pragma unroll
  for (int y = 0; y < B; y++) u[y][tx] = in[(B - 1 - y) * pitch + c0 + tx];
  __syncthreads();
#pragma unroll
  for (int y = 0; y < B; y++) out[y * pitch + c0 + tx] = t[y][tx] + u[y][tx];
}

__global__ void rows(const float *in, float *out, int stride) {
  extern __shared__ float s[];
  int tx = threadIdx.x;
  float v = in[tx];
#pragma unroll
  for (int y = 0; y < R; y++) s[y * stride + tx] = v + y;
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int y = 0; y < R; y++) acc += s[y * stride + tx];
  out[tx] = acc;
}

int main() {
  const long pitch = 100;  // 32 rows of 100 ints; the tile is the last 32 columns
  const int c0 = (int)pitch - B;
  std::vector<int> h(B * pitch), r(B * pitch, -1);
  for (size_t i = 0; i < h.size(); i++) h[i] = (int)(i * 7 % 1000);
  int *in, *out;
  cudaMalloc(&in, h.size() * sizeof(int));
  cudaMalloc(&out, h.size() * sizeof(int));
  cudaMemcpy(in, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, h.size() * sizeof(int));
  tile_flip<<<1, B>>>(in, out, pitch, c0);
  cudaMemcpy(r.data(), out, r.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < B; y++)
    for (int x = 0; x < (int)pitch; x++) {
      int want = x >= c0 ? h[y * pitch + x] + h[(B - 1 - y) * pitch + x] : -1;
      bad += r[y * pitch + x] != want;
    }
  printf("tile %s\n", bad ? "WRONG" : "ok");

  const int n = 64, stride = 64;
  std::vector<float> hin(n), hout(n);
  for (int i = 0; i < n; i++) hin[i] = (float)i;
  float *fin, *fout;
  cudaMalloc(&fin, n * sizeof(float));
  cudaMalloc(&fout, n * sizeof(float));
  cudaMemcpy(fin, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  rows<<<1, n, R * stride * sizeof(float)>>>(fin, fout, stride);
  cudaMemcpy(hout.data(), fout, n * sizeof(float), cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < n; i++) bad += hout[i] != R * hin[i] + R * (R - 1) / 2;
  printf("shared rows %s\n", bad ? "WRONG" : "ok");
  cudaFree(in);
  cudaFree(out);
  cudaFree(fin);
  cudaFree(fout);
  return 0;
}
