// Idiom: the error code assigned and compared, cudaError_t err = cudaMalloc(...);
// if (err != cudaSuccess) { fprintf(...); exit(EXIT_FAILURE); } (the style of cuda-samples'
// vectorAdd). The guarded twin of errcheck_assign_compare.cu: the extra block's threads
// stop at numElements.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < numElements) C[i] = A[i] + B[i];
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
