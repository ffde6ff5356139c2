// A kernel compiled at run time by NVRTC (-lineinfo, compute_90) and loaded
// as PTX with cuModuleLoadData writes one element past a cudaMalloc'd array.
// No device code of this program went through gsan nvcc: libgsan instruments
// the PTX when it is loaded (docs/jit.md). The kernel's text carries a #line
// naming this file, so the report gives the line below.
// REQUIRES: gpu
// JIT-LINK: -lnvrtc
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda -lnvrtc
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK-NEXT: WRITE of size 4 at {{.*}} by thread
// CHECK-NEXT: #0 fill at {{.*}}nvrtc_overflow.cu:35
// CHECK-NEXT: is located 0 bytes after 4000-byte region
// CHECK-NEXT: allocated by host thread T0 here:
// CHECK-NEXT: #0 cudaMalloc
// CHECK: main {{.*}}nvrtc_overflow.cu:60
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}nvrtc_overflow.cu:35 in fill
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>

#define CK(x)                                                                          \
  do {                                                                                 \
    if ((x) != 0) return fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x), 2; \
  } while (0)

static const int kernel_line = __LINE__ + 2; // the line of "extern", two lines down
static const char *kernel = R"(
extern "C" __global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;  // bug: i == n is past the end
}
)";

int main() {
  char src[1024];
  snprintf(src, sizeof src, "#line %d \"%s\"%s", kernel_line, __FILE__, kernel);
  nvrtcProgram prog;
  CK(nvrtcCreateProgram(&prog, src, "nvrtc_overflow_kernel.cu", 0, nullptr, nullptr));
  const char *opts[] = {"-lineinfo", "--gpu-architecture=compute_90"};
  if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS) {
    size_t n;
    nvrtcGetProgramLogSize(prog, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(prog, &log[0]);
    fprintf(stderr, "nvrtc: %s\n", log.c_str());
    return 2;
  }
  size_t n;
  CK(nvrtcGetPTXSize(prog, &n));
  std::string ptx(n, '\0');
  CK(nvrtcGetPTX(prog, &ptx[0]));
  nvrtcDestroyProgram(&prog);

  float *a;
  CK(cudaMalloc(&a, 1000 * sizeof(float))); // also makes the device's primary context current
  CUmodule mod;
  CUfunction fill;
  CK(cuModuleLoadData(&mod, ptx.c_str()));
  CK(cuModuleGetFunction(&fill, mod, "fill"));
  int count = 1000;
  void *args[] = {&a, &count};
  CK(cuLaunchKernel(fill, 4, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
