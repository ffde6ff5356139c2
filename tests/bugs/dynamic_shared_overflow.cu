// Dynamic shared memory: one element past the size given at launch.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: shared-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 stage(float const*, float*) at {{.*}}dynamic_shared_overflow.cu:13
#include <cstdio>
__global__ void stage(const float *in, float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0) s[blockDim.x] = 0.0f;  // BUG: the launch gave blockDim.x floats
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  stage<<<1, 256, 256 * sizeof(float)>>>(in, out);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
