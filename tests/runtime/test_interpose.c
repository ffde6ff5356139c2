/* Talks to libcuda the way cudart does — dlopen, dlsym("cuGetProcAddress_v2"),
 * cuGetProcAddress fetched through itself, every other entry point through
 * that — against the fake driver (fake_libcuda.c), to be run under gsan run.
 * Usage: test_interpose errors|leak|ordered|sticky|clean */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static gpa_fn gpa;

static void *get(const char *name, cuuint64_t flags) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  if (gpa(name, &p, 13000, flags, &st) != CUDA_SUCCESS) printf("no %s\n", name);
  return p;
}

int main(int argc, char **argv) {
  const char *sc = argc > 1 ? argv[1] : "errors";
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  if (!h) { printf("no libcuda: %s\n", dlerror()); return 2; }
  gpa_fn first = (gpa_fn)dlsym(h, "cuGetProcAddress_v2");
  void *(*own)(void) = (void *(*)(void))dlsym(h, "fake_own_get_proc_address");
  printf("dlsym gave %s cuGetProcAddress\n", first && own && (void *)first != own() ? "gsan's" : "the driver's");
  /* the global scope finds gsan's export: it must lead to the driver too, not to itself */
  gpa_fn global = (gpa_fn)dlsym(RTLD_DEFAULT, "cuGetProcAddress_v2");
  void *probe = NULL;
  CUdriverProcAddressQueryResult pst;
  printf("cuGetProcAddress from the global scope works: %s\n",
         global && global("cuInit", &probe, 13000, 0, &pst) == CUDA_SUCCESS && probe ? "yes" : "NO");
  gpa = first;
  gpa = (gpa_fn)get("cuGetProcAddress", 0); /* as cudart does */
  printf("cuGetProcAddress through itself: %s\n", gpa == first ? "gsan's again" : "BYPASSED");
  CUresult (*Init)(unsigned) = get("cuInit", 0);
  CUresult (*Alloc)(CUdeviceptr *, size_t) = get("cuMemAlloc", 0);
  CUresult (*Free)(CUdeviceptr) = get("cuMemFree", 0);
  CUresult (*HtoD)(CUdeviceptr, const void *, size_t) = get("cuMemcpyHtoD", 0);
  CUresult (*HtoD_ptsz)(CUdeviceptr, const void *, size_t) = get("cuMemcpyHtoD", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  CUresult (*SetD8)(CUdeviceptr, unsigned char, size_t) = get("cuMemsetD8", 0);
  Init(0);
  CUdeviceptr a = 0, b = 0;
  static char buf[8192];
  CUresult r = Alloc(&a, 4000);
  printf("cuMemAlloc(4000): %d, in the arena: %s\n", r, a >= 0x100000000000ull && a < 0x200000000000ull ? "yes" : "no");
  printf("cuMemAlloc(0): %d (the driver's CUDA_ERROR_INVALID_VALUE is 1)\n", Alloc(&b, 0));
  int *ptsz = dlsym(h, "fake_ptsz_calls"), *legacy = dlsym(h, "fake_legacy_calls");
  /* gsan writes slot tables through the legacy copy too: count each call's own */
  int p0 = *ptsz, l0 = *legacy;
  r = HtoD(a, buf, 4000);
  printf("cuMemcpyHtoD of 4000: %d\n", r);
  int legacy_went_legacy = *legacy == l0 + 1 && *ptsz == p0;
  p0 = *ptsz;
  l0 = *legacy;
  r = HtoD_ptsz(a, buf, 4000);
  printf("each stream variant forwarded to its own function: %s\n",
         legacy_went_legacy && *ptsz == p0 + 1 && *legacy == l0 ? "yes" : "NO");
  CUresult (*Range)(CUdeviceptr *, size_t *, CUdeviceptr) = get("cuMemGetAddressRange", 0);
  CUresult (*Attr)(void *, CUpointer_attribute, CUdeviceptr) = get("cuPointerGetAttribute", 0);
  CUdeviceptr rb = 0;
  size_t rn = 0, an = 0;
  Range(&rb, &rn, a + 100);
  Attr(&an, CU_POINTER_ATTRIBUTE_RANGE_SIZE, a + 100);
  printf("address range of an interior pointer: the allocation's own (%s), attribute size %zu\n",
         rb == a && rn == 4000 ? "yes" : "NO", an);
  if (!strcmp(sc, "errors")) {
    printf("cuMemcpyHtoD of 4004: %d\n", HtoD(a, buf, 4004));
    printf("cuMemsetD8 of 4001: %d\n", SetD8(a, 0, 4001));
    printf("first free: %d\n", Free(a));
    printf("second free: %d\n", Free(a));
    printf("copy into freed memory: %d\n", HtoD(a, buf, 16));
  } else if (!strcmp(sc, "ordered")) {
    CUresult (*AllocAsync)(CUdeviceptr *, size_t, CUstream) = get("cuMemAllocAsync", 0);
    CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync", 0);
    CUresult (*FreeAsync_ptsz)(CUdeviceptr, CUstream) =
        get("cuMemFreeAsync", CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    CUresult (*AllocPitch)(CUdeviceptr *, size_t *, size_t, size_t, unsigned) = get("cuMemAllocPitch", 0);
    uint64_t *synced = dlsym(h, "fake_synced_stream");
    int *syncs = dlsym(h, "fake_sync_calls");
    CUstream s = (CUstream)(uintptr_t)0x77;
    r = AllocAsync(&b, 512, s);
    printf("cuMemAllocAsync(512): %d, in the arena: %s\n", r, b >= 0x100000000000ull && b < 0x200000000000ull ? "yes" : "no");
    int n0 = *syncs;
    r = FreeAsync(b, s);
    printf("cuMemFreeAsync: %d, after waiting for its stream: %s\n", r, *syncs == n0 + 1 && *synced == 0x77 ? "yes" : "NO");
    printf("copy into memory freed by cuMemFreeAsync: %d\n", HtoD(b, buf, 16));
    r = AllocAsync(&b, 64, NULL);
    r = FreeAsync_ptsz(b, NULL);
    printf("per-thread variant waits for the per-thread stream: %s\n",
           r == CUDA_SUCCESS && *synced == (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD ? "yes" : "NO");
    printf("cuMemFreeAsync again: %d\n", FreeAsync(b, s));
    size_t pitch = 0;
    r = AllocPitch(&b, &pitch, 1000, 3, 4);
    Range(&rb, &rn, b);
    printf("cuMemAllocPitch(1000 x 3): %d, pitch %zu, %zu bytes\n", r, pitch, rn);
    printf("copy past the last row: %d\n", HtoD(b + 2 * pitch, buf, pitch + 1));
    CUstream graph = (CUstream)(uintptr_t)0x99; /* being captured */
    CUdeviceptr g = 0;
    r = AllocAsync(&g, 256, graph);
    printf("cuMemAllocAsync under capture: %d, the driver's: %s\n", r,
           g && !(g >= 0x100000000000ull && g < 0x200000000000ull) ? "yes" : "NO");
    n0 = *syncs;
    r = FreeAsync(b, graph);
    Range(&rb, &rn, b);
    printf("cuMemFreeAsync of a slot under capture: %d, no wait: %s, still live: %s\n", r,
           *syncs == n0 ? "yes" : "NO", rn == 3072 ? "yes" : "NO");
    Free(a);
    Free(b);
  } else if (!strcmp(sc, "sticky")) {
    *(int *)dlsym(h, "fake_sticky_fault") = 1;
    printf("free after a kernel fault: %d (the driver's CUDA_ERROR_LAUNCH_FAILED is 719)\n", Free(a));
  } else if (!strcmp(sc, "leak")) {
    Alloc(&b, 1024); /* a and b stay allocated */
    printf("leaving two allocations\n");
  } else {
    printf("free: %d\n", Free(a));
  }
  return 0;
}
