// The parts of gsan's allocation path, each timed alone on the host (CUDA
// events cannot time host calls): what a slot-table write costs done each
// way, a host backtrace, the waits. Explains bench/alloc.sh's numbers.
// Build: nvcc -O2 -o alloc_parts bench/alloc_parts.cu -lcuda
#include <cuda.h>
#include <execinfo.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

static double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

#define CK(x)                                                      \
  do {                                                             \
    CUresult r_ = (x);                                             \
    if (r_ != CUDA_SUCCESS) {                                      \
      fprintf(stderr, "alloc_parts: %s failed: %d\n", #x, (int)r_); \
      exit(1);                                                     \
    }                                                              \
  } while (0)

template <class F> static double median_us(int n, F f) {
  std::vector<double> t(n);
  for (int i = 0; i < n; i++) {
    double a = now_us();
    f(i);
    t[i] = now_us() - a;
  }
  std::sort(t.begin(), t.end());
  return t[n / 2];
}

__attribute__((noinline)) static int deep(int d) {
  if (d == 0) {
    void *pc[40];
    return backtrace(pc, 40);
  }
  return deep(d - 1) + 1;
}

int main() {
  CK(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUdeviceptr buf;
  CK(cuMemAlloc(&buf, 8 << 20));
  CUstream s;
  CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUevent ev;
  CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
  const int n = 2000;
  unsigned long long v = 42;
  printf("| part | median us |\n|---|---:|\n");
  printf("| cuMemcpyHtoD, 8 bytes (pageable) | %.3f |\n",
         median_us(n, [&](int i) { CK(cuMemcpyHtoD(buf + 8 * (i % 1024), &v, 8)); }));
  CK(cuCtxSynchronize());
  printf("| cuStreamWriteValue64 on a non-blocking stream | %.3f |\n",
         median_us(n, [&](int i) { CK(cuStreamWriteValue64(s, buf + 8 * (i % 1024), v, 0)); }));
  CK(cuStreamSynchronize(s));
  printf("| cuMemsetD32Async, 2 words | %.3f |\n",
         median_us(n, [&](int i) { CK(cuMemsetD32Async(buf + 8 * (i % 1024), 7, 2, s)); }));
  CK(cuStreamSynchronize(s));
  printf("| cuMemcpyHtoDAsync, 8 bytes (pageable) | %.3f |\n",
         median_us(n, [&](int i) { CK(cuMemcpyHtoDAsync(buf + 8 * (i % 1024), &v, 8, s)); }));
  CK(cuStreamSynchronize(s));
  printf("| cuStreamWriteValue64 + cuStreamSynchronize | %.3f |\n", median_us(n, [&](int i) {
           CK(cuStreamWriteValue64(s, buf + 8 * (i % 1024), v, 0));
           CK(cuStreamSynchronize(s));
         }));
  printf("| cuEventRecord + cuEventQuery | %.3f |\n", median_us(n, [&](int) {
           CK(cuEventRecord(ev, s));
           cuEventQuery(ev);
         }));
  printf("| cuCtxSynchronize, idle | %.3f |\n", median_us(n, [&](int) { CK(cuCtxSynchronize()); }));
  printf("| backtrace(), 12 frames | %.3f |\n", median_us(n, [&](int) { deep(10); }));
  CUmemAllocationProp p = {};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  size_t g = 2 << 20;
  CUdeviceptr va;
  CK(cuMemAddressReserve(&va, 64ull << 30, 0, 0, 0));
  CUmemAccessDesc d = {};
  d.location = p.location;
  d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  printf("| cuMemCreate + cuMemMap + cuMemSetAccess, 2 MiB | %.3f |\n", median_us(200, [&](int i) {
           CUmemGenericAllocationHandle h;
           CK(cuMemCreate(&h, g, &p, 0));
           CK(cuMemMap(va + g * i, g, 0, h, 0));
           CK(cuMemSetAccess(va + g * i, g, &d, 1));
           CK(cuMemRelease(h));
         }));
  printf("| cuMemUnmap, 2 MiB | %.3f |\n", median_us(200, [&](int i) { CK(cuMemUnmap(va + g * i, g)); }));
  // what a single 2 MiB allocation costs gsan: its kept handle mapped at the
  // next slot (a new address), then unmapped at its free, over and over
  CUmemGenericAllocationHandle kept;
  CK(cuMemCreate(&kept, g, &p, 0));
  CUdeviceptr va2 = va + (4ull << 30);
  std::vector<double> tmap, tacc, tunmap, tboth;
  for (int i = 0; i < 200; i++) {
    CUdeviceptr at = va2 + 2 * g * i;
    double t0 = now_us();
    CK(cuMemMap(at, g, 0, kept, 0));
    double t1 = now_us();
    CK(cuMemSetAccess(at, g, &d, 1));
    double t2 = now_us();
    CK(cuStreamWriteValue64(s, buf + 8 * (i % 1024), v, 0));
    double t3 = now_us();
    CK(cuMemUnmap(at, g));
    double t4 = now_us();
    tmap.push_back(t1 - t0);
    tacc.push_back(t2 - t1);
    tboth.push_back(t3 - t0);
    tunmap.push_back(t4 - t3);
  }
  auto med = [](std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x[x.size() / 2];
  };
  printf("| kept handle: cuMemMap at a new address, 2 MiB | %.3f |\n", med(tmap));
  printf("| kept handle: cuMemSetAccess, 2 MiB | %.3f |\n", med(tacc));
  printf("| kept handle: map + access + a table write (one allocation's driver calls) | %.3f |\n", med(tboth));
  printf("| kept handle: cuMemUnmap after it, 2 MiB | %.3f |\n", med(tunmap));
  std::vector<double> na, nf;
  for (int i = 0; i < 200; i++) {
    CUdeviceptr q;
    double t0 = now_us();
    CK(cuMemAlloc(&q, g));
    double t1 = now_us();
    CK(cuMemFree(q));
    nf.push_back(now_us() - t1);
    na.push_back(t1 - t0);
  }
  printf("| cuMemAlloc, 2 MiB, one (the driver's) | %.3f |\n", med(na));
  printf("| cuMemFree, 2 MiB, one (the driver's) | %.3f |\n", med(nf));
  printf("| cuMemAlloc + cuMemFree, 256 B (the driver's) | %.3f |\n", median_us(n, [&](int) {
           CUdeviceptr q;
           CK(cuMemAlloc(&q, 256));
           CK(cuMemFree(q));
         }));
  return 0;
}
