// A 5 x 5 stencil with replicated edges whose column clamp is off by one:
// min(x + i, w) instead of min(x + i, w - 1). gsan checks the 25 clamped
// loads as one clamped family (the four corner loads and the no-wrap tests
// of x + i and y + j); in the last row the clamp lets x + i reach w, one
// element past the image. The report names the first failing load in
// program order: element h * w, 0 bytes after the image.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4 at {{.*}} by thread ({{[0-9]+}},{{[0-9]+}},0) block ({{[0-9]+}},{{[0-9]+}},0)
// CHECK: #0 stencil(float*, float const*, int, int) at {{.*}}clamped_stencil_overflow.cu:29
// CHECK: is located 0 bytes after 409600-byte region
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}clamped_stencil_overflow.cu:37
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}clamped_stencil_overflow.cu:29 in stencil(float*, float const*, int, int)
#include <cstdio>
constexpr int R = 2;
__global__ void stencil(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int j = -R; j <= R; j++) {
    size_t row = (size_t)min(max(y + j, 0), h - 1) * w;
#pragma unroll
    for (int i = -R; i <= R; i++)
      acc += in[row + min(max(x + i, 0), w)];  // BUG: w - 1
  }
  out[(size_t)y * w + x] = acc;
}
int main() {
  const int w = 320, h = 320;
  float *in, *out;
  cudaMalloc(&out, (size_t)w * h * sizeof(float));
  cudaMalloc(&in, (size_t)w * h * sizeof(float));
  cudaMemset(in, 0, (size_t)w * h * sizeof(float));
  dim3 block(32, 8), grid(w / 32, h / 8);
  stencil<<<grid, block>>>(out, in, w, h);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
