// clang corpus: a non-inlined function on generic pointers (called with
// global, shared and local memory) and a local array indexed at run time.
#include "clang_cuda.h"
__device__ __noinline__ float sum3(const float *p, int i) { return p[i] + p[i + 1] + p[i + 2]; }
extern "C" __global__ void mixed(const float *g, float *out, int k) {
  __shared__ float sh[64];
  float loc[64];
  int t = tid_x();
  sh[t & 63] = g[t];
  for (int j = 0; j < 64; j++) loc[j] = g[j] * (float)j;
  sync_threads();
  out[t] = sum3(g, t) + sum3(sh, t & 31) + sum3(loc, k & 31) + loc[(t + k) & 63];
}
