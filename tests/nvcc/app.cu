// A whole program for gsan nvcc's tests: built, linked, and (on a GPU) run.
#include <cstdio>

__global__ void scale(float *v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

int main() {
  const int n = 1 << 20;
  float *d;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemset(d, 0, n * sizeof(float));
  scale<<<n / 256, 256>>>(d, n, 2.0f);
  cudaError_t e = cudaDeviceSynchronize();
  printf("scale: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return e != cudaSuccess;
}
