// Correct kernels whose checks depend on the launch alone: each launch runs
// the kernel's proven copy (docs/abi.md, "Launch proofs") when the host shows
// every one of its accesses in bounds, else its launch-bounds copy, and the
// results are the same either way. Covered: a guarded 1D kernel whose grid
// overshoots, a clamped 2D stencil, a static shared tile read backwards, the
// same at half the block, dynamic shared memory sized by the launch, a
// pointer into the middle of an allocation, managed memory (outside gsan's
// arena: unchecked), an index the interval arithmetic cannot bound
// (min(i, n - 1) + max(i, 0) - i: the launch is checked, and still right),
// and a launch captured into a graph (never the proven copy: a replay must
// read the bounds again).
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run --opt print_stats=1 --opt verbosity=2 -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: env GSAN_OPTIONS=launch_proofs=0 %gsan run --opt print_stats=1 -- %t > %t.off 2>&1
// RUN: %FileCheck --check-prefix=OFF %s < %t.off
// CHECK-NOT: {{GPUSanitizer|wrong at}}
// CHECK: launch of {{.*}}scale{{.*}}: proven copy (2 checks decided)
// CHECK: launch of {{.*}}stencil{{.*}}: proven copy
// CHECK: launch of {{.*}}tile_rev{{.*}}: proven copy
// CHECK: launch of {{.*}}tile_rev{{.*}}: proven copy
// CHECK: launch of {{.*}}dyn_rev{{.*}}: proven copy
// CHECK: launch of {{.*}}scale{{.*}}: proven copy
// CHECK: launch of {{.*}}scale{{.*}}: proven copy
// CHECK: launch of {{.*}}skew{{.*}}: launch-bounds copy (check {{[0-9]+}} of {{[0-9]+}} not shown in bounds)
// CHECK-NOT: {{launch of|wrong at}}
// CHECK: results: 9 of 9 right
// CHECK-NOT: GPUSanitizer
// CHECK: stats: 9 kernel launches, 9 of them through launch-bounds copies, 7 of those proven at launch
// OFF-NOT: {{GPUSanitizer|wrong at}}
// OFF: results: 9 of 9 right
// OFF: stats: 9 kernel launches, 9 of them through launch-bounds copies, 0 of those proven at launch
#include <cstdio>
#include <vector>

__global__ void scale(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}

__global__ void stencil(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int cx = min(x, w - 1), cy = min(y, h - 1);
  float s = in[cy * w + max(cx - 1, 0)] + in[cy * w + min(cx + 1, w - 1)] + in[max(cy - 1, 0) * w + cx] +
            in[min(cy + 1, h - 1) * w + cx];
  if (x < w && y < h) out[y * w + x] = s;
}

__global__ void tile_rev(float *out, const float *in) {
  __shared__ float t[256];
  int base = blockIdx.x * blockDim.x;
  t[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}

__global__ void dyn_rev(float *out, const float *in) {
  extern __shared__ float d[];
  int base = blockIdx.x * blockDim.x;
  d[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = d[blockDim.x - 1 - threadIdx.x];
}

__global__ void skew(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // i itself (n > i), but as an interval min + max - i spans -i .. 2i: the
  // host cannot show it in bounds
  y[min(i, n - 1) + max(i, 0) - i] = x[i];
}

static int same(const char *what, const float *d, const std::vector<float> &want) {
  std::vector<float> h(want.size());
  cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  size_t bad = 0;
  while (bad < h.size() && h[bad] == want[bad]) bad++;
  if (bad < h.size()) printf("%s: wrong at %zu: %g, not %g\n", what, bad, h[bad], want[bad]);
  return bad == h.size();
}

int main() {
  const int n = 1000, w = 70, hgt = 45;
  std::vector<float> hx(w * hgt), want(1024);  // w * hgt > 1024
  for (int i = 0; i < w * hgt; i++) hx[i] = (float)i;
  float *x, *y, *m;
  cudaMalloc(&x, 1024 * sizeof(float));
  cudaMalloc(&y, 1024 * sizeof(float));
  cudaMallocManaged(&m, 1024 * sizeof(float));
  cudaMemcpy(x, hx.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice);
  int good = 0;

  std::vector<float> two(n);
  for (int i = 0; i < n; i++) two[i] = 2.0f * i;
  float *xn, *yn;  // exactly n elements: the guard is what keeps the last block inside
  cudaMalloc(&xn, n * sizeof(float));
  cudaMalloc(&yn, n * sizeof(float));
  cudaMemcpy(xn, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(yn, xn, n);
  good += same("scale", yn, two);

  float *img, *out;
  cudaMalloc(&img, w * hgt * sizeof(float));
  cudaMalloc(&out, w * hgt * sizeof(float));
  cudaMemcpy(img, hx.data(), w * hgt * sizeof(float), cudaMemcpyHostToDevice);
  stencil<<<dim3((w + 15) / 16, (hgt + 15) / 16), dim3(16, 16)>>>(out, img, w, hgt);
  std::vector<float> st(w * hgt);
  for (int yy = 0; yy < hgt; yy++)
    for (int xx = 0; xx < w; xx++) {
      auto at = [&](int a, int b) { return hx[b * w + a]; };
      st[yy * w + xx] = at(std::max(xx - 1, 0), yy) + at(std::min(xx + 1, w - 1), yy) + at(xx, std::max(yy - 1, 0)) +
                        at(xx, std::min(yy + 1, hgt - 1));
    }
  good += same("stencil", out, st);

  for (int b : {256, 128}) {
    tile_rev<<<1024 / b, b>>>(y, x);
    for (int i = 0; i < 1024; i++) want[i] = hx[(i / b) * b + b - 1 - i % b];
    good += same("tile_rev", y, want);
  }

  dyn_rev<<<1024 / 64, 64, 64 * sizeof(float)>>>(y, x);
  for (int i = 0; i < 1024; i++) want[i] = hx[(i / 64) * 64 + 63 - i % 64];
  good += same("dyn_rev", y, want);

  // a pointer into the middle: its allocation's bounds, not the pointer's
  scale<<<4, 128>>>(y + 512, x + 512, 512);
  for (int i = 0; i < 512; i++) want[512 + i] = 2.0f * hx[512 + i];
  std::vector<float> upper(want.begin() + 512, want.end());
  good += same("scale of the upper half", y + 512, upper);

  cudaMemcpy(m, hx.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<8, 128>>>(m, m, 1024);
  cudaDeviceSynchronize();
  for (int i = 0; i < 1024; i++) want[i] = 2.0f * hx[i];
  good += same("scale of managed memory", m, want);

  skew<<<8, 128>>>(y, x, 1024);
  good += same("skew", y, std::vector<float>(hx.begin(), hx.begin() + 1024));

  // captured: the replay runs the launch-bounds copy, which reads the bounds anew
  cudaStream_t s;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  scale<<<8, 128, 0, s>>>(y, x, 1024);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  for (int i = 0; i < 1024; i++) want[i] = 2.0f * hx[i];
  good += same("graph", y, want);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
  for (float *p : {x, y, m, xn, yn, img, out}) cudaFree(p);

  printf("results: %d of 9 right\n", good);
  return good == 9 ? 0 : 1;
}
