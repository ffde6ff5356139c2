// cp.async (sm_80+) of 16 bytes per thread from global to shared memory: the
// last thread's source starts inside the 1022-float buffer and runs 8 bytes past it.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: {{READ|WRITE}} of size {{[0-9]+}} at {{.*}} by thread (255,0,0)
// CHECK: {{.*}}cp_async_overflow.cu:16
#include <cstdio>
#include <cuda_pipeline.h>
// 256 threads, 4 floats each: the source needs 1024 floats
__global__ void stage(const float *src, float *out) {
  __shared__ __align__(16) float buf[256 * 4];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&buf[4 * t], &src[4 * t], 16);  // BUG: t == 255 reads floats 1020..1023
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[t] = buf[4 * t] + buf[4 * t + 3];
}
int main() {
  float *src, *out;
  cudaMalloc(&src, 1022 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(src, 0, 1022 * sizeof(float));
  stage<<<1, 256>>>(src, out);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
