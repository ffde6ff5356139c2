// Where the model gives up it says so, with the reason, and never passes an
// access in silence: a pointer from a function it cannot see, an index from
// floating point, a value a loop accumulates, goto, a kernel nobody launches,
// a device function without a body, a runtime copy the model does not count.
// Unknowns alone leave the exit status 0.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

extern float *external_buffer(int n);
extern __device__ void external_fill(float *p, int n);
__device__ float table[16];

__global__ void k(float *a, float *b, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = (int)(i * scale);
  // CHECK: unknowns.cu:[[@LINE+1]]:14: remark: cannot decide whether the write to 'a' stays in bounds: the value is converted from floating point (line [[@LINE-1]]) [gsan-scan-unknown]
  if (i < n) a[j] = 0.0f;
  int acc = 0;
  for (int t = 0; t < n; t++) acc += t % 3;
  // CHECK: unknowns.cu:[[@LINE+1]]:14: remark: cannot decide whether the write to 'a' stays in bounds: 'acc' has the value the loop at line [[@LINE-1]] leaves [gsan-scan-unknown]
  if (i < n) a[acc] = 1.0f;
  // CHECK: unknowns.cu:[[@LINE+1]]:14: remark: cannot decide whether the write to 'b' stays in bounds: the value is returned by 'external_buffer' (line {{[0-9]+}}), whose body is not analysed [gsan-scan-unknown]
  if (i < n) b[i] = 2.0f;
  // CHECK: unknowns.cu:[[@LINE+1]]:29: remark: cannot decide whether the use of 'a' by external_fill stays in bounds: 'external_fill' has no body the analysis can see, so what it touches is not known [gsan-scan-unknown]
  if (i == 0) external_fill(a, n);
}

__device__ void with_goto(float *a, int n) {
  int i = threadIdx.x;
  if (i >= n) goto done;
  // CHECK: unknowns.cu:[[@LINE+1]]:3: remark: cannot decide whether the write to 'a' stays in bounds: 'with_goto' uses goto (line [[@LINE-1]]), which the model does not follow [gsan-scan-unknown]
  a[i] = 0.0f;
done:
  return;
}

__global__ void uses_goto(float *a, int n) { with_goto(a, n); }

__global__ void never_launched(float *a) {
  __shared__ float s[64];
  // CHECK: unknowns.cu:[[@LINE+1]]:3: remark: cannot decide whether the write to 's' stays in bounds: 'never_launched' has no launch in the analysed code; under some launch: blockDim.x={{[0-9]+}}, threadIdx.x={{[0-9]+}}: index {{[0-9]+}} >= size 64 (4-byte elements: byte {{[0-9]+}}, size 256 bytes) [gsan-scan-unknown]
  s[threadIdx.x] = 0.0f;
  // this one is safe under any launch
  s[threadIdx.x % 64] = 1.0f;
  // CHECK: unknowns.cu:[[@LINE+1]]:3: remark: cannot decide whether the write to 'a' stays in bounds: 'never_launched' has no launch in the analysed code, so what 'a' points to is not known [gsan-scan-unknown]
  a[0] = s[5];
}

// a function called through its address gets values nobody here can name
__global__ void set_one(float *a, int idx) {
  // CHECK: unknowns.cu:[[@LINE+1]]:3: remark: cannot decide whether the write to 'a' stays in bounds: 'idx' is a parameter of 'worker', which is called through its address (line {{[0-9]+}}) [gsan-scan-unknown]
  a[idx] = 0.0f;
}
static void worker(int idx) {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  set_one<<<1, 1>>>(d, idx);
  cudaFree(d);
}
static void (*callback)(int) = worker;

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *a, *b = external_buffer(n);
  cudaMalloc(&a, n * sizeof(float));
  k<<<(n + 255) / 256, 256>>>(a, b, n, 0.5f);
  uses_goto<<<1, 64>>>(a, n);
  callback(3);
  float host[16] = {0};
  // CHECK: unknowns.cu:[[@LINE+1]]:3: remark: cannot decide whether the use of 'table' by cudaMemcpyToSymbol stays in bounds: 'cudaMemcpyToSymbol' is not modelled, so the bytes it copies or sets are not checked [gsan-scan-unknown]
  cudaMemcpyToSymbol(table, host, sizeof host);
  return 0;
}
// CHECK: gsan scan: 0 findings, 9 unknown in 11 accesses
