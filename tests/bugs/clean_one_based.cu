// Correct: 1-based views of arrays, as code translated from Fortran or
// Numerical Recipes makes them. The host passes a - 1 (a pointer one before
// the allocation) and b - 3, and the kernels index from 1 (and from 3); one
// kernel forms a1 - 5 further below and indexes back into range; a 2-D view
// c - (w + 1) is indexed from (1, 1); one reads a1 four elements at a time
// (one merged check of four members, each looked up by its own address in
// its stub). Every access is in bounds, so nothing is
// reported, though the pointers the kernels get are outside every allocation.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: one_based: 1000 of 1000 right
// CHECK: shifted_back: 1000 of 1000 right
// CHECK: grid: 4096 of 4096 right
// CHECK: quads: 250 of 250 right
#include <cstdio>
__global__ void one_based(float *a1, float *b3, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1; /* 1..n */
  if (i <= n) {
    a1[i] = 2.0f * i;
    b3[i + 2] = a1[i] + 1.0f; /* b3[3..n+2] is b[0..n-1] */
  }
}
__global__ void shifted_back(const float *a1, float *out, int n) {
  const float *q = a1 - 5; /* further below the allocation still */
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (i <= n) out[i - 1] = q[i + 5];
}
__global__ void grid(float *c11, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1, y = blockIdx.y + 1;
  if (x <= w && y <= h) c11[y * w + x] = (float)(y * 1000 + x); /* c11 = c - (w + 1) */
}
__global__ void quads(const float *a1, float *sum, int nquads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nquads) {
    const float *q = a1 + 4 * i;
    sum[i] = q[1] + q[2] + q[3] + q[4];
  }
}
int main() {
  const int n = 1000, w = 64, h = 64;
  float *a, *b, *out, *c;
  static float ha[n], hb[n], ho[n], hc[w * h];
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&c, w * h * sizeof(float));
  one_based<<<4, 256>>>(a - 1, b - 3, n);
  shifted_back<<<4, 256>>>(a - 1, out, n);
  grid<<<dim3(1, h), w>>>(c - (w + 1), w, h);
  float *sums;
  cudaMalloc(&sums, n / 4 * sizeof(float));
  quads<<<1, 256>>>(a - 1, sums, n / 4);
  cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  static float hq[n / 4];
  cudaMemcpy(hq, sums, sizeof hq, cudaMemcpyDeviceToHost);
  int r1 = 0, r2 = 0, r3 = 0, r4 = 0;
  for (int i = 0; i < n / 4; i++) r4 += hq[i] == ha[4 * i] + ha[4 * i + 1] + ha[4 * i + 2] + ha[4 * i + 3];
  for (int i = 0; i < n; i++) r1 += ha[i] == 2.0f * (i + 1) && hb[i] == ha[i] + 1.0f;
  for (int i = 0; i < n; i++) r2 += ho[i] == ha[i];
  for (int y = 1; y <= h; y++)
    for (int x = 1; x <= w; x++) r3 += hc[(y - 1) * w + (x - 1)] == (float)(y * 1000 + x);
  printf("one_based: %d of %d right\nshifted_back: %d of %d right\ngrid: %d of %d right\nquads: %d of %d right\n", r1, n,
         r2, n, r3, w * h, r4, n / 4);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
  cudaFree(c);
  cudaFree(sums);
  return 0;
}
