// Binary mode on a correct program: SASS-only kernels that use their
// allocations right up to the last byte, with 1-, 4-, 8- and 16-byte
// accesses, atomics and loads through generic pointers, and a buffer freed
// and allocated again between launches. gsan run --binary reports nothing
// and the results are right.
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %gsan run --binary -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: sum 1000 bytes 1000 vec 4000 count 1000
// CHECK-NOT: GPUSanitizer
#include "binary.h"

__global__ void fill(char *bytes, int *ints, float4 *vecs, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  bytes[i] = 1;
  ints[i] = 1;
  d[i] = 1.0;
  if (i < n / 4) vecs[i] = make_float4(4.f, 4.f, 4.f, 4.f);
}

__device__ __noinline__ int load_generic(const int *p) { return *p; }

__global__ void sum(const char *bytes, const int *ints, const float4 *vecs, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&out[0], (unsigned long long)load_generic(ints + i));
  atomicAdd(&out[1], (unsigned long long)bytes[i]);
  if (i < n / 4) atomicAdd(&out[2], (unsigned long long)(vecs[i].x + vecs[i].y + vecs[i].z + vecs[i].w));
  atomicAdd(&out[3], 1ull);
}

int main() {
  const int n = 1000;
  char *bytes;
  int *ints;
  float4 *vecs;
  double *d;
  unsigned long long *out, host[4];
  CHECK_CUDA(cudaMalloc(&bytes, n));
  CHECK_CUDA(cudaMalloc(&ints, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&vecs, n / 4 * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(double)));
  fill<<<(n + 255) / 256, 256>>>(bytes, ints, vecs, d, n);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(double)));
  CHECK_CUDA(cudaMalloc(&out, sizeof host));
  CHECK_CUDA(cudaMemset(out, 0, sizeof host));
  sum<<<(n + 255) / 256, 256>>>(bytes, ints, vecs, n, out);
  CHECK_CUDA(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  printf("sum %llu bytes %llu vec %llu count %llu\n", host[0], host[1], host[2], host[3]);
  CHECK_CUDA(cudaFree(bytes));
  CHECK_CUDA(cudaFree(ints));
  CHECK_CUDA(cudaFree(vecs));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
