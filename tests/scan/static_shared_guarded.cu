// The guarded twin of static_shared.cu: the block size is fixed at 256, the
// shared array's size; the halving loop stays below it.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 6 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  int threads = 256, blocks = (n + threads - 1) / threads;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  reduce<<<blocks, threads>>>(in, out, n);
  return 0;
}
