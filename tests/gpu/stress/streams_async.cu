// Stress: 16 streams allocate and free asynchronously (cudaMallocAsync from
// the default pool, cudaMallocFromPoolAsync from a pool of the program's
// own), 64,000 allocations in all; every buffer is filled and verified on
// its stream before its free, and one in 8 is handed to another stream
// through an event and freed there. No report, no bad byte.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -O2 -arch=%arch -o %t %s -lcuda
// RUN: timeout 600 %gsan run --opt print_stats=1 -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: streams: 16 streams, 64000 async allocations (32000 from a pool of its own), 8000 freed on another stream, 0 bad bytes
// CHECK-NOT: GPUSanitizer
// CHECK: stats: device 0: {{[0-9]+}} allocations, {{[0-9]+}} frees, 0 live at exit
#include "stress.h"

int main() {
  const int S = 16, N = 64000;
  cudaStream_t s[S];
  cudaEvent_t ev[S];
  for (int i = 0; i < S; i++) {
    CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
  }
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CK(cudaMemPoolCreate(&pool, &props));
  unsigned *bad;
  CK(cudaMalloc(&bad, sizeof(unsigned)));
  CK(cudaMemset(bad, 0, sizeof(unsigned)));
  rng r(7);
  int from_pool = 0, handed = 0;
  for (int i = 0; i < N; i++) {
    cudaStream_t a = s[i % S];
    size_t n = r.size();
    unsigned char v = (unsigned char)(1 + i % 255), *p;
    if (i % 2) {
      CK(cudaMallocFromPoolAsync((void **)&p, n, pool, a));
      from_pool++;
    } else {
      CK(cudaMallocAsync((void **)&p, n, a));
    }
    stress_fill<<<stress_blocks(n), 256, 0, a>>>(p, n, v);
    if (i % 8 == 3) {  // used and freed on the next stream, after an event
      cudaStream_t b = s[(i + 1) % S];
      CK(cudaEventRecord(ev[i % S], a));
      CK(cudaStreamWaitEvent(b, ev[i % S], 0));
      stress_verify<<<stress_blocks(n), 256, 0, b>>>(p, n, v, bad);
      CK(cudaFreeAsync(p, b));
      handed++;
    } else {
      stress_verify<<<stress_blocks(n), 256, 0, a>>>(p, n, v, bad);
      CK(cudaFreeAsync(p, a));
    }
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  unsigned h;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaFree(bad));
  CK(cudaMemPoolDestroy(pool));
  for (int i = 0; i < S; i++) {
    CK(cudaStreamDestroy(s[i]));
    CK(cudaEventDestroy(ev[i]));
  }
  printf("streams: %d streams, %d async allocations (%d from a pool of its own), %d freed on another stream, %u bad bytes\n",
         S, N, from_pool, handed, h);
  return h != 0;
}
