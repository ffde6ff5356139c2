// Correct kernels whose locals per-array bounds could get wrong, each in
// bounds: a struct with an array field and scalar fields (a field's address
// passed to a function that is not inlined), an array of structs, a union
// read through another member, an array indexed backwards and forwards from
// a pointer into its middle, a 2-D array walked as rows, and two arrays side
// by side. Built with --frame-arrays at -O3 and at -G, it must run without a
// report (and print the same sums as a build without gsan).
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--frame-arrays %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: env GSAN_PTX_OPTIONS=--frame-arrays %gsan nvcc -G -arch=%arch -o %t.G %s -lcuda
// RUN: %gsan run -- %t.G > %t.G.out 2>&1
// RUN: %FileCheck %s < %t.G.out
// CHECK-NOT: GPUSanitizer
// CHECK: sums: [[S:[-0-9 ]+]]
// CHECK-NOT: GPUSanitizer
#include <cstdio>

struct Acc {
  int n;
  float v[12];
  float total;
  int tag;
};
struct P3 {
  float x, y, z;
};
union Bits {
  unsigned u[8];
  float f[8];
  unsigned char c[32];
};

__device__ __noinline__ void bump(float *t, int *tag, float by) {
  *t += by;
  *tag += 1;
}

__global__ void layouts(const float *in, float *out, int n) {
  int t = threadIdx.x;
  // data-dependent indexes keep every array in local memory
  auto at = [&](int i) { return (int)in[(t * 7 + i) % 1024]; };
  // a struct: its array field indexed at run time, its scalars by address
  Acc a;
  a.n = 0;
  a.total = 0;
  a.tag = 0;
  for (int i = 0; i < 12; i++) a.v[i] = 0;
  for (int i = 0; i < n; i++) {
    a.v[at(i) % 12] += 1.0f;
    a.n++;
  }
  bump(&a.total, &a.tag, a.v[at(1) % 12]);
  // an array of structs
  P3 p[6];
  for (int i = 0; i < 6; i++) p[i] = {in[i], in[i + 1], in[i + 2]};
  for (int i = 0; i < n; i++) p[at(i) % 6].y += 1.0f;
  int j = at(2) % 6;
  float pd = p[j].x * p[j].y + p[(j + 1) % 6].z;
  // a union, written as floats and read as bytes and words
  Bits b;
  for (int i = 0; i < 8; i++) b.f[i] = 0;
  for (int i = 0; i < n; i++) b.f[at(i) % 8] += in[i % 1024];
  unsigned bs = b.u[at(3) % 8] ^ b.c[at(4) % 32];
  // an interior pointer: backwards and forwards from the middle
  float w[16];
  for (int i = 0; i < 16; i++) w[i] = 0;
  for (int i = 0; i < n; i++) w[at(i) % 16] += 1.0f;
  float *mid = &w[8];
  float back = 0;
  int reach = at(5) % 8 + 1;
  for (int i = 1; i <= reach; i++) back += mid[-i] - mid[i - 1];
  // a 2-D array walked as rows
  float m[4][6];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 6; c++) m[r][c] = 0;
  for (int i = 0; i < n; i++) m[at(i) % 4][at(i + 1) % 6] += 1.0f;
  float diag = 0;
  for (int r = 0; r < 4; r++) diag += m[r][(r + t) % 6];
  // two arrays side by side, each indexed in bounds
  int hist[16], last[16];
  for (int i = 0; i < 16; i++) hist[i] = 0, last[i] = -1;
  for (int i = 0; i < n; i++) {
    int v = at(i);
    hist[v & 15]++;
    last[(v >> 2) & 15] = i;
  }
  out[t] = a.total + a.tag + a.n + pd + (float)(bs & 255) + back + diag + hist[t % 16] + last[(t + 3) % 16];
}

int main() {
  float h[1024];
  for (int i = 0; i < 1024; i++) h[i] = (float)((i * 37) % 64);
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  layouts<<<1, 32>>>(in, out, 200);
  float r[32];
  cudaError_t e = cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("kernel: %s\nsums:", cudaGetErrorString(e));
  for (int i = 0; i < 4; i++) printf(" %.0f", r[i]);
  printf("\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
