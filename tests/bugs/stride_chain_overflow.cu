// A tile of rows read with the matrix's pitch, the row loop unrolled: nvcc
// builds each row's address from the one before by adding the pitch, and
// gsan checks the 32 loads as one stride chain (the first and last row, and
// the pitch). The kernel reads one row more than the matrix has: the
// chain's last member, row 31, is out of bounds, and the report names that
// load and its address, one row past the matrix's first element of the row.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4 at {{.*}} by thread ({{[0-9]+}},0,0) block (0,0,0)
// CHECK: #0 tile_sum(int const*, int*, long) at {{.*}}stride_chain_overflow.cu:25
// CHECK: is located {{[0-9]+}} bytes after 126976-byte region
// CHECK: allocated by host thread T0 here:
// CHECK: main {{.*}}stride_chain_overflow.cu:34
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}stride_chain_overflow.cu:25 in tile_sum(int const*, int*, long)
#include <cstdio>
constexpr int B = 32;
__global__ void tile_sum(const int *m, int *out, long pitch) {
  __shared__ int t[B][B];
  int tx = threadIdx.x;
#pragma unroll
  for (int y = 0; y < B; y++)
    t[y][tx] = m[y * pitch + tx];  // BUG: the matrix has B - 1 rows
  __syncthreads();
  int s = 0;
  for (int y = 0; y < B; y++) s += t[tx][y];
  out[tx] = s;
}
int main() {
  const long pitch = 1024;  // ints per row: 31 rows of 4096 bytes
  int *m, *out;
  cudaMalloc(&m, (B - 1) * pitch * sizeof(int));
  cudaMalloc(&out, B * sizeof(int));
  cudaMemset(m, 0, (B - 1) * pitch * sizeof(int));
  tile_sum<<<1, B>>>(m, out, pitch);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
