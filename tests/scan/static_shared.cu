// A reduction into a static shared array sized for 256 threads, launched with
// a block size the user chooses: any block larger than 256 overflows it. The
// halving loop's counter is exact (h = blockDim.x / 2 >> k): with 558 threads
// h is 279 >> 1 = 139 in the second round, and thread 138 adds s[138 + 139].
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void reduce(const float *in, float *out, int n) {
  // CHECK: static_shared.cu:[[@LINE+5]]:3: warning: out-of-bounds write to 's' [gsan-scan-oob]
  // CHECK: static_shared.cu:[[@LINE+1]]:20: note: shared array 's' declared here with size 256 * 4 bytes
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  // CHECK: note: witness: n=1024, threads=1024, blockDim.x=1024, threadIdx.x=1022: index 1022 >= size 256
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {
    // CHECK: static_shared.cu:[[@LINE+4]]:16: warning: out-of-bounds write to 's' [gsan-scan-oob]
    // CHECK: note: witness: n=1024, threads=1024, blockDim.x=1024, threadIdx.x=302, h=512: index 302 >= size 256
    // CHECK: static_shared.cu:[[@LINE+2]]:24: warning: out-of-bounds read of 's' [gsan-scan-oob]
    // CHECK: note: witness: n=976, threads=558, blockDim.x=558, threadIdx.x=138, h=139: index 277 >= size 256
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]), threads = atoi(argv[2]);
  if (n < 1 || n > (1 << 24) || threads < 32 || threads > 1024) return 1;
  int blocks = (n + threads - 1) / threads;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, blocks * sizeof(float));
  reduce<<<blocks, threads>>>(in, out, n);
  return 0;
}
// CHECK: gsan scan: 3 findings, 0 unknown in 6 accesses
