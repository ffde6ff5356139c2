// A read past an array whose pointer arrives inside a struct passed by value,
// behind parameters of odd sizes: the launch-bounds copy of the kernel reads
// that pointer's bounds from the word the runtime filled (docs/abi.md,
// "Launch bounds"). The same overflow is found whichever way the kernel is
// launched: <<<>>> (0), cuLaunchKernel with an argument buffer (1), and with
// the copy turned off (launch_bounds=0: the kernel looks the bounds up).
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t 0 > %t.0 2>&1
// RUN: %FileCheck %s < %t.0
// RUN: not %gsan run -- %t 1 > %t.1 2>&1
// RUN: %FileCheck %s < %t.1
// RUN: not env GSAN_OPTIONS=launch_bounds=0 %gsan run -- %t 0 > %t.off 2>&1
// RUN: %FileCheck %s < %t.off
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: READ of size 4
// CHECK: #0 scale(char, Span, short, float*) at {{.*}}launch_param_overflow.cu:30
// CHECK: is located 0 bytes after 256-byte region
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Span {
  int n;
  float *p;
};
__global__ void scale(char tag, Span s, short k, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= s.n) out[i] = s.p[i] * k + tag;  // BUG: i == s.n reads one past s.p
}
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 0, n = 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n + 1) * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  Span s = {n, in};
  char tag = 1;
  short k = 3;
  if (mode == 0) {
    scale<<<1, 128>>>(tag, s, k, out);
  } else {
    // the buffer as nvcc lays the parameters out: char at 0, Span at 8, short at 24, float * at 32
    unsigned char buf[40] = {0};
    memcpy(buf, &tag, 1);
    memcpy(buf + 8, &s, sizeof s);
    memcpy(buf + 24, &k, 2);
    memcpy(buf + 32, &out, 8);
    size_t size = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    cudaFunction_t f;
    cudaGetFuncBySymbol(&f, (const void *)scale);
    printf("launch: %d\n", (int)cuLaunchKernel((CUfunction)f, 1, 1, 1, 128, 1, 1, 0, 0, NULL, extra));
  }
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
