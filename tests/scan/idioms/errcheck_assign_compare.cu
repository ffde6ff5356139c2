// Idiom: the error code assigned and compared, cudaError_t err = cudaMalloc(...);
// if (err != cudaSuccess) { fprintf(...); exit(EXIT_FAILURE); } (the style of cuda-samples'
// vectorAdd). The launch computes the grid with a truncating division and the kernel adds
// one extra block's worth of threads: numElements / threads + 1 blocks with no guard.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  // numElements = 15: 15 / 256 + 1 = 1 block; thread 15 is past the 15 floats of each array
  // CHECK: errcheck_assign_compare.cu:[[@LINE+6]]:3: warning: out-of-bounds write to 'C' [gsan-scan-oob]
  // CHECK: note: witness: argc=16, atoi(argv[1])=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd_C' >= size 15
  // CHECK: errcheck_assign_compare.cu:[[@LINE+4]]:10: warning: out-of-bounds read of 'A' [gsan-scan-oob]
  // CHECK: note: witness: argc=16, atoi(argv[1])=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd_A' >= size 15
  // CHECK: errcheck_assign_compare.cu:[[@LINE+2]]:17: warning: out-of-bounds read of 'B' [gsan-scan-oob]
  // CHECK: note: witness: argc=16, atoi(argv[1])=15, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=15: index 15 of 'd_B' >= size 15
  C[i] = A[i] + B[i];
}

int main(int argc, char **argv) {
  int numElements = argc > 1 ? atoi(argv[1]) : 50000;
  if (numElements < 1 || numElements > (1 << 24)) return 1;
  size_t size = numElements * sizeof(float);
  float *d_A = NULL, *d_B = NULL, *d_C = NULL;
  cudaError_t err = cudaMalloc((void **)&d_A, size);
  if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); exit(EXIT_FAILURE); }
  err = cudaMalloc((void **)&d_B, size);
  if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); exit(EXIT_FAILURE); }
  err = cudaMalloc((void **)&d_C, size);
  if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); exit(EXIT_FAILURE); }
  int threadsPerBlock = 256;
  int blocksPerGrid = numElements / threadsPerBlock + 1;
  vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
  err = cudaGetLastError();
  if (err != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(err)); exit(EXIT_FAILURE); }
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
  return 0;
}
// CHECK: gsan scan: 3 findings, 0 unknown in 3 accesses
