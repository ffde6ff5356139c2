// A 16x16 shared tile written one column to the right: rows 0..14 spill into the
// next row, still inside the array; row 15 spills past the array into the next one.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: shared-buffer-overflow on address
// CHECK: WRITE of size 4 at {{.*}} by thread (15,15,0) block (0,0,0)
// CHECK: #0 edges(float*, int) at {{.*}}shared_2d_overflow.cu:19
// CHECK: 1024-byte shared variable 'edges(float*, int)::tile'
#include <cstdio>
__global__ void edges(float *out, int k) {
  __shared__ float tile[16][16];
  __shared__ float halo[16];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = tx + ty;
  if (ty == 0) halo[tx] = 0.0f;
  __syncthreads();
  if (tx == 15) tile[ty][tx + k] = halo[ty];  // BUG: k == 1; at ty == 15 past the whole tile
  __syncthreads();
  out[ty * 16 + tx] = tile[ty][tx] + halo[tx];
}
int main() {
  float *out;
  cudaMalloc(&out, 256 * sizeof(float));
  edges<<<1, dim3(16, 16)>>>(out, 1);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
