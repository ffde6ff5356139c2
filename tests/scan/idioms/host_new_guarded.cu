// Idiom: a host buffer from new[] uploaded with cudaMemcpy; the guarded twin of host_new.cu:
// the host buffer holds every channel.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 4 accesses
#include <cstdio>
#include <cuda_runtime.h>

__global__ void threshold(unsigned char *img, int count, unsigned char t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) img[i] = img[i] > t ? 255 : 0;
}

int main(int argc, char **argv) {
  int w, h, channels;
  FILE *f = fopen(argv[1], "rb");
  if (!f || fscanf(f, "%d %d %d", &w, &h, &channels) != 3) return 1;
  if (w < 1 || h < 1 || w > 8192 || h > 8192 || (channels != 1 && channels != 3)) return 1;
  int count = w * h * channels;
  unsigned char *pixels = new unsigned char[count];
  fread(pixels, 1, count, f);
  unsigned char *d;
  cudaMalloc(&d, count);
  cudaMemcpy(d, pixels, count, cudaMemcpyHostToDevice);
  threshold<<<(count + 255) / 256, 256>>>(d, count, 128);
  cudaFree(d);
  delete[] pixels;
  return 0;
}
