// Stress: allocate until the device is full (1 GiB pieces, then 2 MiB ones),
// past 95% of its memory; each way of asking then gets the driver's own
// out-of-memory code (cudaMalloc, cudaMallocAsync, cuMemAlloc), gsan reports
// nothing and aborts nothing; a kernel still runs on the full device, and
// after the memory is freed the program allocates and computes again.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -O2 -arch=%arch -o %t %s -lcuda
// RUN: timeout 600 %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: full: reached 95% of device memory: yes
// CHECK: cudaMalloc 1 GiB when full: cudaErrorMemoryAllocation
// CHECK: cudaMallocAsync 1 GiB when full: cudaErrorMemoryAllocation
// CHECK: cuMemAlloc 1 GiB when full: CUDA_ERROR_OUT_OF_MEMORY
// CHECK: kernel on the full device: 0 bad bytes
// CHECK: after freeing: 8 GiB allocated, filled and verified, 0 bad bytes
// CHECK-NOT: GPUSanitizer
#include "stress.h"

#include <cuda.h>
#include <vector>

int main() {
  size_t free0, total;
  CK(cudaMemGetInfo(&free0, &total));
  // the kernels run once first: with lazy module loading their code would
  // need device memory at the first launch, on the full device
  {
    unsigned char *w;
    unsigned *wb;
    CK(cudaMalloc(&w, 256));
    CK(cudaMalloc(&wb, sizeof(unsigned)));
    stress_fill<<<1, 256>>>(w, 256, 1);
    stress_verify<<<1, 256>>>(w, 256, 1, wb);
    CK(cudaDeviceSynchronize());
    CK(cudaFree(w));
    CK(cudaFree(wb));
  }
  std::vector<void *> held;
  size_t got = 0;
  const size_t GiB = 1ull << 30, MiB2 = 2ull << 20;
  cudaError_t e = cudaSuccess;
  for (size_t piece : {GiB, MiB2}) {
    for (;;) {
      void *p;
      e = cudaMalloc(&p, piece);
      if (e != cudaSuccess) break;
      held.push_back(p);
      got += piece;
    }
    if (e != cudaErrorMemoryAllocation) {
      printf("cudaMalloc of %zu bytes failed with %s, not cudaErrorMemoryAllocation\n", piece, cudaGetErrorName(e));
      return 1;
    }
    cudaGetLastError();  // the error is the call's, not sticky
  }
  printf("full: %zu of %zu MiB in %zu allocations (%.1f%%)\n", got >> 20, total >> 20, held.size(),
         100.0 * got / total);
  printf("full: reached 95%% of device memory: %s\n", got >= total / 100 * 95 ? "yes" : "no");
  void *p;
  printf("cudaMalloc 1 GiB when full: %s\n", cudaGetErrorName(cudaMalloc(&p, GiB)));
  printf("cudaMallocAsync 1 GiB when full: %s\n", cudaGetErrorName(cudaMallocAsync(&p, GiB, 0)));
  cudaGetLastError();
  CUdeviceptr d;
  const char *name = "?";
  cuGetErrorName(cuMemAlloc(&d, GiB), &name);
  printf("cuMemAlloc 1 GiB when full: %s\n", name);
  // gsan needs no new memory to launch: a kernel on the last piece held
  unsigned *bad;
  bad = (unsigned *)held.back();
  unsigned char *last = (unsigned char *)held[held.size() - 2];
  CK(cudaMemset(bad, 0, sizeof(unsigned)));
  stress_fill<<<256, 256>>>(last, MiB2, 0x5a);
  stress_verify<<<256, 256>>>(last, MiB2, 0x5a, bad);
  CK(cudaGetLastError());
  unsigned h;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  printf("kernel on the full device: %u bad bytes\n", h);
  for (void *q : held) CK(cudaFree(q));
  held.clear();
  // and again, from empty: 8 pieces of 1 GiB, each filled and verified
  CK(cudaMalloc(&bad, sizeof(unsigned)));
  CK(cudaMemset(bad, 0, sizeof(unsigned)));
  for (int i = 0; i < 8; i++) {
    CK(cudaMalloc(&p, GiB));
    held.push_back(p);
    stress_fill<<<1024, 256>>>((unsigned char *)p, GiB, (unsigned char)(i + 1));
    stress_verify<<<1024, 256>>>((unsigned char *)p, GiB, (unsigned char)(i + 1), bad);
  }
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  printf("after freeing: %zu GiB allocated, filled and verified, %u bad bytes\n", held.size(), h);
  for (void *q : held) CK(cudaFree(q));
  CK(cudaFree(bad));
  return h != 0;
}
