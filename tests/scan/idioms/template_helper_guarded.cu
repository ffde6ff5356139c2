// Idiom: a template kernel that calls a __device__ helper (HeCBench's
// atomicCAS: atomic_min(res, (T)i) in atomicMinDerived<T>). In the template
// the call's arguments depend on T, so clang leaves it an overload set until
// instantiation; the helper is the one function of that name taking two
// arguments, so the call is followed and the helper's accesses are checked
// against the launch's allocation. Before, the helper was analysed as if no
// launch reached it (remark: 'atomic_min' has no launch in the analysed
// code). The correct twin of template_helper.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef SLOT
#define SLOT (blockIdx.x % n)
#endif

__device__ long long atomic_min(long long *address, long long val) {
  long long ret = *address;
  while (val < ret) {
    long long old = ret;
    if ((ret = (long long)atomicCAS((unsigned long long *)address, (unsigned long long)old,
                                    (unsigned long long)val)) == old)
      break;
  }
  return ret;
}

template <typename T>
__global__ void min_derived(T *res, int n) {
  T i = threadIdx.x + blockIdx.x * blockDim.x + 1;
  atomic_min(res + SLOT, i);
  if (threadIdx.x == 0) res[SLOT] += 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > 1024) return 1;
  long long *d;
  cudaMalloc((void **)&d, n * sizeof(long long));
  min_derived<long long><<<64, 128>>>(d, n);
  cudaFree(d);
  return 0;
}
