// Correct: a kernel compiled at run time by NVRTC (-lineinfo, compute_90)
// and loaded as PTX twice, by cuModuleLoadData and through the JIT linker
// (cuLinkAddData with CU_JIT_INPUT_PTX, then the linked cubin), each
// instrumented at load, reads and writes up to exactly the last element.
// No report. cuLinkAddData is fetched through cuGetProcAddress, as cudart and
// the CUDA Python bindings reach the driver.
// REQUIRES: gpu
// JIT-LINK: -lnvrtc
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda -lnvrtc
// RUN: %gsan run --opt verbosity=1 --opt jit_cache=0 -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer < %t.out
// CHECK: gsan: jit: cuModuleLoadData: instrumented, {{[1-9][0-9]*}} of {{[0-9]+}} memory accesses checked
// CHECK: gsan: jit: saxpy.ptx: instrumented, {{[1-9][0-9]*}} of {{[0-9]+}} memory accesses checked
// CHECK: loaded: y[0] = 3, y[999] = 3
// CHECK: linked: y[0] = 4, y[999] = 4
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>

#define CK(x)                                                                          \
  do {                                                                                 \
    if ((x) != 0) return fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x), 2; \
  } while (0)

static const char *kernel = R"(
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

static int run(CUmodule mod, float a, float *x, float *y, int n, const char *how) {
  CUfunction f;
  CK(cuModuleGetFunction(&f, mod, "saxpy"));
  void *args[] = {&a, &x, &y, &n};
  CK(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CK(cudaDeviceSynchronize());
  float first, last;
  CK(cudaMemcpy(&first, y, sizeof first, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&last, y + n - 1, sizeof last, cudaMemcpyDeviceToHost));
  printf("%s: y[0] = %g, y[%d] = %g\n", how, first, n - 1, last);
  return 0;
}

int main() {
  nvrtcProgram prog;
  CK(nvrtcCreateProgram(&prog, kernel, "saxpy.cu", 0, nullptr, nullptr));
  const char *opts[] = {"-lineinfo", "--gpu-architecture=compute_90"};
  CK(nvrtcCompileProgram(prog, 2, opts));
  size_t size;
  CK(nvrtcGetPTXSize(prog, &size));
  std::string ptx(size, '\0');
  CK(nvrtcGetPTX(prog, &ptx[0]));
  nvrtcDestroyProgram(&prog);

  const int n = 1000;
  std::string ones(n * sizeof(float), '\0');
  for (int i = 0; i < n; i++) reinterpret_cast<float *>(&ones[0])[i] = 1.0f;
  float *x, *y;
  CK(cudaMalloc(&x, n * sizeof(float)));
  CK(cudaMalloc(&y, n * sizeof(float)));
  CK(cudaMemcpy(x, ones.data(), ones.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, ones.data(), ones.size(), cudaMemcpyHostToDevice));

  CUmodule loaded;
  CK(cuModuleLoadData(&loaded, ptx.c_str()));
  if (run(loaded, 2.0f, x, y, n, "loaded")) return 2; // y = 2 * 1 + 1

  CUresult (*link_add)(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *, void **);
  CUdriverProcAddressQueryResult found;
  CK(cuGetProcAddress("cuLinkAddData", (void **)&link_add, 12000, 0, &found));
  CUlinkState link;
  void *cubin;
  size_t cubin_size;
  CUmodule linked;
  CK(cuLinkCreate(0, nullptr, nullptr, &link));
  CK(link_add(link, CU_JIT_INPUT_PTX, &ptx[0], size, "saxpy.ptx", 0, nullptr, nullptr));
  CK(cuLinkComplete(link, &cubin, &cubin_size));
  CK(cuModuleLoadData(&linked, cubin));
  CK(cuLinkDestroy(link));
  if (run(linked, 1.0f, x, y, n, "linked")) return 2; // y = 1 * 1 + 3

  cudaFree(x);
  cudaFree(y);
  return 0;
}
