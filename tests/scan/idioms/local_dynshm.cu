// Idiom: a kernel keeping a small fixed-size local array (a register tile, float acc[TAPS])
// walked by a loop, while it carves its dynamic shared memory into two partitions by
// pointer arithmetic (FIR filters and tiled stencils in HeCBench). The host accepts up to
// 5 taps for a tile of 4: with taps = 5 the loop writes acc[4].
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

#define TAPS 4

__global__ void fir(const float *in, const float *coef, float *out, int n, int taps) {
  extern __shared__ float smem[];
  float *s_coef = smem;
  float *s_in = smem + taps;
  float acc[TAPS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (tid < taps) s_coef[tid] = coef[tid];
  s_in[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int k = 0; k < taps; k++)
    // CHECK: local_dynshm.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'acc' [gsan-scan-oob]
    acc[k] = s_coef[k] * s_in[tid];
  // taps = 5: k = 4 writes acc[4] of 4 floats
  // CHECK: note: witness: n=16, taps=5, k=4: index 4 >= size 4
  float sum = 0.0f;
  for (int k = 0; k < TAPS; k++) sum += acc[k];
  if (i < n) out[i] = sum;
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]), taps = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || taps < 1 || taps > 5) return 1;
  float *in, *coef, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&coef, taps * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  int threads = 128;
  size_t shm = (taps + threads) * sizeof(float);
  fir<<<(n + threads - 1) / threads, threads, shm>>>(in, coef, out, n, taps);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 9 accesses
