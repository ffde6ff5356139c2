// Stress: API misuse gets the driver's own error codes through gsan. Each
// misuse below is made natively and under gsan run, and the codes printed
// must be the same, line for line; gsan adds its own reports where it has
// one (double free, invalid free) and never crashes.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %t > %t.native 2>&1
// RUN: %python %tools/exit_status.py --output %t.gsan 1 timeout 120 %gsan run -- %t
// RUN: grep '^misuse' %t.gsan > %t.gsan.codes
// RUN: grep '^misuse' %t.native > %t.native.codes
// RUN: diff %t.native.codes %t.gsan.codes
// RUN: %FileCheck %s < %t.gsan
// CHECK-DAG: ERROR: GPUSanitizer: double-free
// CHECK-DAG: ERROR: GPUSanitizer: invalid-free
// CHECK: misuse: done
#include <cuda.h>

#include <cstdio>
#include <cstdlib>

#define SHOW(call) printf("misuse: %-60s %s\n", #call, cudaGetErrorName(call))
#define SHOWD(call)                                    \
  do {                                                 \
    const char *n_ = "?";                              \
    cuGetErrorName(call, &n_);                         \
    printf("misuse: %-60s %s\n", #call, n_);           \
  } while (0)

int main() {
  void *p = nullptr, *q = nullptr, *z = nullptr;
  cudaFree(0);  // the context first
  SHOW(cudaMalloc(nullptr, 16));
  SHOW(cudaMalloc(&z, 0));
  printf("misuse: a zero-size cudaMalloc gives %s\n", z ? "a pointer" : "NULL");
  SHOW(cudaFree(z));
  SHOW(cudaFree(nullptr));
  SHOW(cudaMalloc(&p, 256));
  SHOW(cudaMemset(nullptr, 0, 16));
  SHOW(cudaMemcpy(nullptr, p, 16, cudaMemcpyDeviceToHost));
  SHOW(cudaMemcpy(p, p, 0, cudaMemcpyDeviceToDevice));
  SHOW(cudaMemset(p, 0, 0));
  SHOW(cudaFree(p));
  SHOW(cudaFree(p));  // twice: gsan reports a double free
  int on_host = 0;
  SHOW(cudaFree(&on_host));  // a host pointer: gsan reports an invalid free
  cudaGetLastError();
  SHOW(cudaMallocAsync(&q, 0, 0));
  SHOW(cudaFreeAsync(nullptr, 0));
  SHOW(cudaStreamSynchronize(0));
  CUdeviceptr d = 0;
  SHOWD(cuMemAlloc(nullptr, 16));
  SHOWD(cuMemAlloc(&d, 0));
  SHOWD(cuMemFree(0));
  SHOWD(cuMemAllocPitch(&d, nullptr, 64, 4, 4));
  CUmodule m;
  SHOWD(cuModuleLoadData(&m, "this is not a module"));
  SHOWD(cuModuleLoadData(nullptr, "x"));
  CUlibrary lib;
  SHOWD(cuLibraryLoadData(&lib, "neither is this", nullptr, nullptr, 0, nullptr, nullptr, 0));
  cudaGetLastError();
  // a real module (PTX: gsan instruments it at load), unloaded twice
  static const char ptx[] =
      ".version 7.8\n.target sm_90\n.address_size 64\n"
      ".visible .entry touch(.param .u64 p) {\n .reg .b64 %rd<2>;\n"
      " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd1, %rd1;\n"
      " st.global.u32 [%rd1], 7;\n ret;\n}\n";
  SHOWD(cuModuleLoadData(&m, ptx));
  CUfunction f;
  SHOWD(cuModuleGetFunction(&f, m, "touch"));
  SHOWD(cuModuleUnload(m));
  SHOWD(cuModuleUnload(m));
  // Invalid streams are not among the misuses: the driver itself crashes on
  // them (seen on the H100, natively: a second cudaStreamDestroy of one
  // stream is a segmentation fault), so there is no code for gsan to pass on.
  SHOW(cudaDeviceSynchronize());
  printf("misuse: done\n");
  return 0;
}
