// Correct kernels whose pointer parameters reach the launch-bounds copy in
// every way a launch can carry them (docs/abi.md, "Launch bounds"): <<<>>>,
// cuLaunchKernel with kernelParams and with an argument buffer, a captured
// and replayed graph, a pointer inside a struct, a managed pointer (outside
// gsan's arena: unchecked), a null pointer never used, and two pointers into
// one allocation. Each result is compared with the host's; no report.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run --opt print_stats=1 -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: env GSAN_OPTIONS=launch_bounds=0 %gsan run --opt print_stats=1 -- %t > %t.off 2>&1
// RUN: %FileCheck --check-prefix=OFF %s < %t.off
// CHECK-NOT: GPUSanitizer
// CHECK: results: 6 of 6 right
// CHECK-NOT: GPUSanitizer
// CHECK: stats: 6 kernel launches, 6 of them through launch-bounds copies
// OFF: results: 6 of 6 right
// OFF: stats: 6 kernel launches, 0 of them through launch-bounds copies
#include <cuda.h>
#include <cstdio>
#include <cstring>

struct Span {
  int n;
  float *p;
};
__global__ void scale(char tag, Span s, short k, float *out, const float *unused) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) out[i] = s.p[i] * k + tag + (unused ? unused[0] : 0.0f);
}

static int right(const float *out, int n, float base) {
  float h[256];
  cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    if (h[i] != base) return 0;
  return 1;
}

int main() {
  const int n = 256;
  float *in, *out, *managed;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMallocManaged(&managed, n * sizeof(float));
  float ones[n];
  for (int i = 0; i < n; i++) ones[i] = 1.0f;
  cudaMemcpy(in, ones, sizeof ones, cudaMemcpyHostToDevice);
  memcpy(managed, ones, sizeof ones);
  Span s = {n, in};
  char tag = 1;
  short k = 3;
  const float *none = nullptr;
  int good = 0;

  scale<<<2, 128>>>(tag, s, k, out, none);  // 1 * 3 + 1
  good += right(out, n, 4.0f);

  Span sm = {n, managed};
  scale<<<2, 128>>>(tag, sm, k, managed, none);  // in place, managed memory
  cudaDeviceSynchronize();
  good += managed[0] == 4.0f && managed[n - 1] == 4.0f;

  Span half = {n / 2, in + n / 2};  // an interior pointer and its own length
  scale<<<1, 128>>>(tag, half, k, out + n / 2, none);
  good += right(out, n, 4.0f);

  cudaFunction_t f;
  cudaGetFuncBySymbol(&f, (const void *)scale);
  short k2 = 5;
  void *args[] = {&tag, &s, &k2, &out, &none};
  cuLaunchKernel((CUfunction)f, 2, 1, 1, 128, 1, 1, 0, 0, args, NULL);  // 1 * 5 + 1
  good += right(out, n, 6.0f);

  unsigned char buf[48] = {0};  // char at 0, Span at 8, short at 24, float * at 32, 40
  short k7 = 7;
  memcpy(buf, &tag, 1);
  memcpy(buf + 8, &s, sizeof s);
  memcpy(buf + 24, &k7, 2);
  memcpy(buf + 32, &out, 8);
  memcpy(buf + 40, &none, 8);
  size_t size = sizeof buf;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  cuLaunchKernel((CUfunction)f, 2, 1, 1, 128, 1, 1, 0, 0, NULL, extra);  // 1 * 7 + 1
  good += right(out, n, 8.0f);

  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaGraph_t g;
  cudaGraphExec_t ge;
  short k9 = 9;
  cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
  scale<<<2, 128, 0, st>>>(tag, s, k9, out, none);  // 1 * 9 + 1
  cudaStreamEndCapture(st, &g);
  cudaGraphInstantiate(&ge, g, 0);
  cudaMemset(out, 0, n * sizeof(float));
  for (int r = 0; r < 3; r++) cudaGraphLaunch(ge, st);
  cudaStreamSynchronize(st);
  good += right(out, n, 10.0f);

  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(st);
  cudaFree(in);
  cudaFree(out);
  cudaFree(managed);
  printf("results: %d of 6 right\n", good);
  printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
