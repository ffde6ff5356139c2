// Correct: pitched 2D copies both ways and a 2D set of exactly the rows
// allocated, and 3D copies of exactly cudaMalloc3D's extent. No report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: 2d/3d copies: ok
#include <cstdio>
#include <cstring>
const size_t W = 100, H = 6, X = 32, Y = 4, Z = 3;
static float h[H][W], back[H][W], v[Z][Y][X], v2[Z][Y][X];
int main() {
  for (size_t i = 0; i < H * W; i++) h[0][i] = (float)i;
  for (size_t i = 0; i < Z * Y * X; i++) v[0][0][i] = (float)(i * 3);
  float *d;
  size_t pitch;
  cudaError_t e = cudaMallocPitch(&d, &pitch, W * sizeof(float), H);
  if (!e) e = cudaMemset2D(d, pitch, 0, W * sizeof(float), H);
  if (!e) e = cudaMemcpy2D(d, pitch, h, sizeof h[0], sizeof h[0], H, cudaMemcpyHostToDevice);
  if (!e) e = cudaMemcpy2D(back, sizeof back[0], d, pitch, sizeof h[0], H, cudaMemcpyDeviceToHost);
  cudaExtent ext = make_cudaExtent(X * sizeof(float), Y, Z);
  cudaPitchedPtr dv = {};
  if (!e) e = cudaMalloc3D(&dv, ext);
  cudaMemcpy3DParms up = {}, down = {};
  up.srcPtr = make_cudaPitchedPtr(v, X * sizeof(float), X, Y);
  up.dstPtr = dv;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  down.srcPtr = dv;
  down.dstPtr = make_cudaPitchedPtr(v2, X * sizeof(float), X, Y);
  down.extent = ext;
  down.kind = cudaMemcpyDeviceToHost;
  if (!e) e = cudaMemcpy3D(&up);
  if (!e) e = cudaMemcpy3D(&down);
  int same = !memcmp(h, back, sizeof h) && !memcmp(v, v2, sizeof v);
  printf("2d/3d copies: %s\n", e ? cudaGetErrorString(e) : same ? "ok" : "data differs");
  cudaFree(d);
  cudaFree(dv.ptr);
  return 0;
}
