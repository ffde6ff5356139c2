// clang corpus: a 1D stencil with a shared halo, and pointers loaded from an
// array of device pointers.
#include "clang_cuda.h"
extern "C" __global__ void stencil(const float *in, float *out, int n) {
  __shared__ float s[258];
  int l = tid_x() + 1, g = ctaid_x() * ntid_x() + tid_x();
  s[l] = g < n ? in[g] : 0.f;
  if (tid_x() == 0) s[0] = g > 0 ? in[g - 1] : 0.f;
  if (tid_x() == ntid_x() - 1) s[l + 1] = g + 1 < n ? in[g + 1] : 0.f;
  sync_threads();
  if (g < n) out[g] = s[l - 1] + s[l] + s[l + 1];
}
struct rows { float **row; int nrows, ncols; };
extern "C" __global__ void row_sums(rows r, float *out) {
  int i = ctaid_x() * ntid_x() + tid_x();
  if (i >= r.nrows) return;
  const float *p = r.row[i];
  float acc = 0;
  for (int k = 0; k < r.ncols; k++) acc += p[k];
  out[i] = acc;
}
