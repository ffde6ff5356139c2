// Correct: a graph captured with a stream-ordered scratch buffer (allocated
// and freed inside the capture, so a graph memory node), launched twice.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: out[255] = 1020 after 2 launches
#include <cstdio>
__global__ void twice(const int *in, int *tmp) { tmp[threadIdx.x] = 2 * in[threadIdx.x]; }
__global__ void add(const int *tmp, int *out) { out[threadIdx.x] += tmp[threadIdx.x]; }
int main() {
  int *in, *out, *tmp, h[256];
  for (int i = 0; i < 256; i++) h[i] = i;
  cudaStream_t s;
  cudaGraph_t g;
  cudaGraphExec_t x;
  cudaStreamCreate(&s);
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, sizeof h);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&tmp, sizeof h, s);
  twice<<<1, 256, 0, s>>>(in, tmp);
  add<<<1, 256, 0, s>>>(tmp, out);
  cudaFreeAsync(tmp, s);
  cudaError_t e = cudaStreamEndCapture(s, &g);
  if (e == cudaSuccess) e = cudaGraphInstantiate(&x, g, 0);
  if (e != cudaSuccess) {
    printf("capture: %s\n", cudaGetErrorString(e));
    return 2;
  }
  cudaGraphLaunch(x, s);
  cudaGraphLaunch(x, s);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("out[255] = %d after 2 launches\n", h[255]);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaFree(in);
  cudaFree(out);
  cudaStreamDestroy(s);
  return 0;
}
