// Parses only as C++14 (clang's CUDA defaults to C++17): the -std a build
// gives nvcc, in any of its spellings, must reach the parser. 64 threads
// write 64 floats: no finding.
#if __cplusplus != 201402L
#error "not parsed as C++14"
#endif
#include <cuda_runtime.h>

__global__ void k(float *a) { a[threadIdx.x] = 0.0f; }

int main() {
  float *a;
  cudaMalloc(&a, 64 * sizeof(float));
  k<<<1, 64>>>(a);
  return 0;
}
