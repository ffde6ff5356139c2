// Correct: a pitched image filled in bounds, then copied by rows into a
// stream-ordered buffer and summed back on the host.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: sum = 2400
#include <cstdio>
__global__ void fill(float *img, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float *row = (float *)((char *)img + y * pitch);
  if (x < w && y < h) row[x] = 1.0f;
}
int main() {
  const int w = 300, h = 8;
  float *img, *flat, host[w * h];
  size_t pitch;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocPitch(&img, &pitch, w * sizeof(float), h);
  fill<<<dim3(2, h), 256, 0, s>>>(img, pitch, w, h);
  cudaMallocAsync(&flat, sizeof host, s);
  cudaMemcpy2DAsync(flat, w * sizeof(float), img, pitch, w * sizeof(float), h, cudaMemcpyDeviceToDevice, s);
  cudaMemcpyAsync(host, flat, sizeof host, cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(flat, s);
  cudaStreamSynchronize(s);
  double sum = 0;
  for (int i = 0; i < w * h; i++) sum += host[i];
  printf("sum = %.0f\n", sum);
  cudaFree(img);
  cudaStreamDestroy(s);
  return 0;
}
