// Idiom: an atomic on a __shared__ scalar, or on a field of a local struct,
// through its address (`atomicAdd(&count, 1)`, aop's `atomicOr(&lsum, ...)`
// and `atomicAdd(&lsums.x, ...)`). The access is to that variable, as wide as
// it: decided. Before, an address of a variable (not of an array) was a
// pointer the model does not follow, and each such atomic an unknown. A cast
// to a wider type (-DWIDE: a 64-bit atomic on a 32-bit int) stays an unknown
// that says so, never a finding.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: %gsan-scan -DWIDE %s > %t.wide.txt
// RUN: %FileCheck --check-prefix=WIDE %s < %t.wide.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 5 accesses
// WIDE-NOT: warning:
// WIDE: atomic_shared_scalar.cu:35:15: remark: cannot decide whether the atomic access to '(unsigned long long *)&count' stays in bounds: the access is wider than 'count', whose address it is
// WIDE: gsan scan: 0 findings, 1 unknown in 5 accesses
#include <cuda_runtime.h>

struct sums {
  float x, y;
};

__global__ void tally(const int *in, int *out, float *fout, int n) {
  __shared__ int count;
  __shared__ sums s;
  if (threadIdx.x == 0) {
    count = 0;
    s.x = 0.f;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
#ifdef WIDE
    atomicAdd((unsigned long long *)&count, 1ull);
#else
    atomicAdd(&count, 1);
#endif
    atomicAdd(&s.x, 1.0f);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x] = count;
    fout[blockIdx.x] = s.x;
  }
}

int main() {
  int n = 1024, *in, *out;
  float *fout;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(int));
  cudaMalloc(&fout, 4 * sizeof(float));
  tally<<<4, 256>>>(in, out, fout, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(fout);
  return 0;
}
