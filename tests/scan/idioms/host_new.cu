// Idiom: a host buffer from new[] uploaded with cudaMemcpy (image and matrix loaders in
// HeCBench). The image header gives width, height and channels; the host buffer is sized
// for one channel, the upload copies all of them: past its end for colour images.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
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
  unsigned char *pixels = new unsigned char[w * h];
  fread(pixels, 1, w * h, f);
  unsigned char *d;
  cudaMalloc(&d, count);
  // CHECK: host_new.cu:[[@LINE+1]]:17: warning: out-of-bounds copy from 'pixels' by cudaMemcpy [gsan-scan-oob]
  cudaMemcpy(d, pixels, count, cudaMemcpyHostToDevice);
  // w = 1, h = 2, channels = 3: 6 bytes copied from the 2 of pixels
  // CHECK: note: witness: w=1, h=2, channels=3: 6 bytes > size 2 bytes
  threshold<<<(count + 255) / 256, 256>>>(d, count, 128);
  cudaFree(d);
  delete[] pixels;
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 4 accesses
