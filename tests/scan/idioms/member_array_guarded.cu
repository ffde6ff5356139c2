// Idiom: a struct whose array member is handed to a helper by pointer
// (secp256k1's `secp256k1_fe { uint n[10]; }`, squared by
// `secp256k1_fe_sqr_inner(r->n, a->n)` on locals the kernel keeps in a
// loop). The member gets bounds of its own, its declared size, so the
// helper's reads of a[0] to a[9] are decided; the loop that changes the
// struct changes its elements, not where its member lies. Before, each read
// was an unknown ('x' has no value here, then 'x' is changed by the loop).
// The correct twin of member_array.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 8 accesses
#include <cuda_runtime.h>

#ifndef TOP
#define TOP 9
#endif

typedef struct {
  unsigned n[10];
} fe;

__device__ void sqr_inner(unsigned *r, const unsigned *a) {
  unsigned long long d = (unsigned long long)a[0] * a[TOP];
  r[0] = (unsigned)d;
  r[1] = (unsigned)(d >> 32);
}

__device__ void fe_sqr(fe *r, const fe *a) { sqr_inner(r->n, a->n); }

__global__ void k(const unsigned *in, unsigned *out, int rounds) {
  fe x;
  for (int i = 0; i < 10; i++) x.n[i] = in[i];
  for (int j = 0; j < rounds; j++) fe_sqr(&x, &x);
  out[0] = x.n[0];
}

int main() {
  unsigned *in, *out;
  cudaMalloc(&in, 10 * sizeof(unsigned));
  cudaMalloc(&out, sizeof(unsigned));
  k<<<1, 1>>>(in, out, 3);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
