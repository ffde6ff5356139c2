// A 2D kernel on a cudaMallocPitch'd image walks one row too many: the row
// past the last lies beyond the allocation, not in padding.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 fill(float*, unsigned long, int, int) at {{.*}}pitch_overflow.cu:16
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}pitch_overflow.cu:22
#include <cstdio>
__global__ void fill(float *img, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float *row = (float *)((char *)img + y * pitch);
  if (x < w && y <= h) row[x] = 1.0f;  // BUG: y == h is past the last row
}
int main() {
  const int w = 300, h = 8;
  float *img;
  size_t pitch;
  cudaMallocPitch(&img, &pitch, w * sizeof(float), h);
  printf("pitch %zu\n", pitch);
  fill<<<dim3(2, h + 1), 256>>>(img, pitch, w, h);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(img);
  return 0;
}
