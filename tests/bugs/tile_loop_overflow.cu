// A loop over tiles with __syncthreads(): the last tile reads past the end of
// a 1000-float input (8 tiles of 128 floats). gsan checks such a loop before
// it runs and the whole block takes one copy of it; here some threads fail
// the pre-check, so the block runs the checked loop, which reports the exact
// access of the last tile.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4 at {{.*}} by thread ({{[0-9]+}},0,0) block (0,0,0)
// CHECK: #0 tile_sum(float const*, float*, int) at {{.*}}tile_loop_overflow.cu:23
// CHECK: is located {{[0-9]+}} bytes after 4000-byte region
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}tile_loop_overflow.cu:33
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}tile_loop_overflow.cu:23 in tile_sum(float const*, float*, int)
#include <cstdio>
__global__ void tile_sum(const float *a, float *out, int tiles) {
  __shared__ float t[128];
  float s = 0;
  for (int k = 0; k < tiles; k++) {
    // bug: 8 tiles of 128 are 1024 floats; the input holds 1000
    t[threadIdx.x] = a[k * 128 + threadIdx.x];
    __syncthreads();
    s += t[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  out[threadIdx.x] = s;
}
int main() {
  const int n = 1000, tiles = 8;
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  tile_sum<<<1, 128>>>(a, out, tiles);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
