// A captured graph whose scratch buffer (cudaMallocAsync inside the capture:
// a graph memory node) is written one element past its end by its kernel.
// The graph's allocation is an arena slot made at capture, so the graph's
// kernel has the buffer's exact bounds when the graph runs.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: #0 fill(int*) at {{.*}}graph_overflow.cu:14
#include <cstdio>
__global__ void fill(int *tmp) {
  tmp[threadIdx.x] = threadIdx.x;  // BUG: 257 threads, 256 ints
}
__global__ void sum(const int *tmp, int *out) { atomicAdd(out, tmp[threadIdx.x]); }
int main() {
  int *tmp, *out;
  cudaStream_t s;
  cudaGraph_t g;
  cudaGraphExec_t x;
  cudaStreamCreate(&s);
  cudaMalloc(&out, sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&tmp, 256 * sizeof(int), s);
  fill<<<1, 257, 0, s>>>(tmp);
  sum<<<1, 256, 0, s>>>(tmp, out);
  cudaFreeAsync(tmp, s);
  cudaError_t e = cudaStreamEndCapture(s, &g);
  if (e == cudaSuccess) e = cudaGraphInstantiate(&x, g, 0);
  if (e != cudaSuccess) {
    printf("capture: %s\n", cudaGetErrorString(e));
    return 2;
  }
  cudaGraphLaunch(x, s);
  printf("graph: %s\n", cudaGetErrorString(cudaStreamSynchronize(s)));
  return 0;
}
