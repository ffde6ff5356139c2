// clang corpus: a bounds-guarded saxpy and a shared-memory tree reduction.
#include "clang_cuda.h"
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = ctaid_x() * ntid_x() + tid_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void tile_sum(const float *in, float *out, int n) {
  __shared__ float t[256];
  int l = tid_x(), g = ctaid_x() * 256 + l;
  t[l] = g < n ? in[g] : 0.f;
  sync_threads();
  for (int s = 128; s > 0; s >>= 1) {
    if (l < s) t[l] += t[l + s];
    sync_threads();
  }
  if (l == 0) out[ctaid_x()] = t[0];
}
