// Dynamic shared memory written in rows of a stride given at launch, the row
// loop unrolled: nvcc builds each row's 32-bit shared address from the one
// before by adding the stride, and gsan checks the stores as one stride
// chain. The launch gives room for 7 rows and the kernel writes 8: the
// chain's last member is out of bounds, and its store is the one reported.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: shared-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 rows(float const*, float*, int) at {{.*}}shared_stride_overflow.cu:21
#include <cstdio>
constexpr int R = 8;
__global__ void rows(const float *in, float *out, int stride) {
  extern __shared__ float s[];
  int tx = threadIdx.x;
  float v = in[tx];
#pragma unroll
  for (int y = 0; y < R; y++)
    s[y * stride + tx] = v + y;  // BUG: the launch gave R - 1 rows
  __syncthreads();
  float acc = 0;
  for (int y = 0; y < R - 1; y++) acc += s[y * stride + tx];
  out[tx] = acc;
}
int main() {
  const int n = 64, stride = 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  rows<<<1, n, (R - 1) * stride * sizeof(float)>>>(in, out, stride);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
