// Idiom: ping-pong buffers picked by a condition each iteration
// (`float *src = (it % 2) ? a : b;`, as iterative solvers and stencils swap
// their input and output). The pointer is one of two allocations: it is
// bounded by the size of whichever the condition picks, so the kernel's
// accesses are decided for both. Before, the join made it a pointer the
// model does not follow ('the pointer refers to different allocations
// depending on the path'). The correct twin of ptr_select.cu.
// RUN: %gsan-scan %s -- -DNB=n > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 2 accesses
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef NB
#define NB n
#endif

__global__ void step(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = 0.5f * src[i];
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, NB * sizeof(float));
  for (int it = 0; it < 10; it++) {
    float *src = (it % 2) ? a : b;
    float *dst = (it % 2) ? b : a;
    step<<<(n + 255) / 256, 256>>>(src, dst, n);
  }
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(b);
  return 0;
}
