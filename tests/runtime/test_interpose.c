/* Talks to libcuda the way cudart does — dlopen, dlsym("cuGetProcAddress_v2"),
 * cuGetProcAddress fetched through itself, every other entry point through
 * that — against the fake driver (fake_libcuda.c), to be run under gsan run.
 * Usage: test_interpose errors|leak|ordered|sticky|copies|pools|launch|graph|graph-node|fork|devices|stacks|
 * managed|managed-leak|clean */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static gpa_fn gpa;

static void *get_version(const char *name, cuuint64_t flags, int version) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  if (gpa(name, &p, version, flags, &st) != CUDA_SUCCESS) printf("no %s\n", name);
  return p;
}
static void *get(const char *name, cuuint64_t flags) { return get_version(name, flags, 13000); }

static int in_arena(CUdeviceptr p) { return p >= 0x100000000000ull && p < 0x200000000000ull; }
/* gsan gives devices 0-15 an arena each, at (device + 1) * 16 TiB; only 0
 * and 1 are used here */
#define RT_FAKE_DEVICES 16
static int in_any_arena(CUdeviceptr p) { return p >= 0x100000000000ull && p < 0x300000000000ull; }

/* 2D, 3D, peer and batch copies and 2D sets: each first exactly in range,
 * then one row, layer or byte too far */
static void copies(CUdeviceptr a, int *calls) {
  static char host[8192];
  CUresult (*AllocPitch)(CUdeviceptr *, size_t *, size_t, size_t, unsigned) = get("cuMemAllocPitch", 0);
  CUresult (*Copy2D)(const CUDA_MEMCPY2D *) = get("cuMemcpy2D", 0);
  CUresult (*Copy3D)(const CUDA_MEMCPY3D *) = get("cuMemcpy3D", 0);
  CUresult (*Set2D)(CUdeviceptr, size_t, unsigned char, size_t, size_t) = get("cuMemsetD2D8", 0);
  CUresult (*Peer)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t) = get("cuMemcpyPeer", 0);
  CUresult (*Batch)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t,
                    CUstream) = get("cuMemcpyBatchAsync", 0);
  CUresult (*Batch12)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t,
                      size_t *, CUstream) = get_version("cuMemcpyBatchAsync", 0, 12080);
  CUdeviceptr b;
  size_t pitch;
  AllocPitch(&b, &pitch, 1000, 3, 4); /* 3 rows of 1024 bytes */
  CUDA_MEMCPY2D c2 = {0};
  c2.srcMemoryType = CU_MEMORYTYPE_HOST;
  c2.srcHost = host;
  c2.srcPitch = 1000;
  c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c2.dstDevice = b;
  c2.dstPitch = pitch;
  c2.WidthInBytes = 1000;
  c2.Height = 3;
  int n0 = *calls;
  printf("2D copy of 3 rows: %d\n", Copy2D(&c2));
  c2.Height = 4;
  printf("2D copy of 4 rows: %d\n", Copy2D(&c2));
  c2.Height = 3;
  c2.dstY = 1;
  printf("2D copy of 3 rows from row 1: %d\n", Copy2D(&c2));
  c2.dstY = 0;
  c2.dstXInBytes = 100; /* the last row's end passes the allocation's by 76 bytes */
  printf("2D copy from column 100: %d\n", Copy2D(&c2));
  CUDA_MEMCPY3D c3 = {0};
  c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c3.srcDevice = b;
  c3.srcPitch = pitch;
  c3.srcHeight = 3;
  c3.dstMemoryType = CU_MEMORYTYPE_HOST;
  c3.dstHost = host;
  c3.dstPitch = 1000;
  c3.dstHeight = 3;
  c3.WidthInBytes = 1000;
  c3.Height = 3;
  c3.Depth = 1;
  printf("3D copy of one layer: %d\n", Copy3D(&c3));
  c3.Depth = 2;
  printf("3D copy of two layers: %d\n", Copy3D(&c3));
  printf("2D set of 3 rows: %d\n", Set2D(b, pitch, 0, 1000, 3));
  printf("2D set of 4 rows: %d\n", Set2D(b, pitch, 0, 1000, 4));
  printf("peer copy of 4000: %d\n", Peer(a, NULL, a, NULL, 4000));
  printf("peer copy of 4001: %d\n", Peer(a, NULL, a, NULL, 4001));
  CUdeviceptr dsts[2] = {a, b}, srcs[2] = {(CUdeviceptr)host, (CUdeviceptr)host};
  size_t sizes[2] = {4000, 3072}, fail = 9;
  printf("batch of exact copies: %d\n", Batch(dsts, srcs, sizes, 2, NULL, NULL, 0, NULL));
  sizes[1] = 3073;
  printf("batch with one copy too long: %d\n", Batch(dsts, srcs, sizes, 2, NULL, NULL, 0, NULL));
  printf("12.8 batch with one copy too long: %d\n", Batch12(dsts, srcs, sizes, 2, NULL, NULL, 0, &fail, NULL));
  sizes[1] = 3072;
  CUresult r = Batch12(dsts, srcs, sizes, 2, NULL, NULL, 0, &fail, NULL);
  printf("12.8 batch of exact copies: %d, its own signature: %s\n", r, fail == 0 ? "yes" : "NO");
  /* 3D batches: b is 3 rows of 1024 bytes; a 1000-byte-wide box of 3 rows
   * fits, a fourth row does not, nor 2 layers of 2 rows */
  CUresult (*Batch3D)(size_t, CUDA_MEMCPY3D_BATCH_OP *, unsigned long long, CUstream) =
      get("cuMemcpy3DBatchAsync", 0);
  CUDA_MEMCPY3D_BATCH_OP op[2];
  memset(op, 0, sizeof op);
  for (int i = 0; i < 2; i++) {
    op[i].src.type = op[i].dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op[i].src.op.ptr.ptr = (CUdeviceptr)host;
    op[i].dst.op.ptr.ptr = b;
    op[i].dst.op.ptr.rowLength = 1024;
    op[i].extent.width = 1000;
    op[i].extent.height = 3;
    op[i].extent.depth = 1;
    op[i].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  }
  op[1].dst.op.ptr.ptr = a; /* 4000 bytes: the first 3 rows of 1024 end at 3048 */
  printf("3D batch of boxes that fit: %d\n", Batch3D(2, op, 0, NULL));
  op[0].extent.height = 4;
  printf("3D batch, 4 rows into 3: %d\n", Batch3D(2, op, 0, NULL));
  op[0].extent.height = 2;
  op[0].extent.depth = 2;
  op[0].dst.op.ptr.layerHeight = 2;
  printf("3D batch, 2 layers of 2 rows into 3: %d\n", Batch3D(1, op, 0, NULL));
  /* from a CUDA array of float4 (16-byte elements): 250 elements a row */
  op[1].src.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
  op[1].src.op.array.array = (CUarray)(uintptr_t)16;
  op[1].extent.width = 250;
  op[1].extent.height = 1;
  op[1].dst.op.ptr.rowLength = 0;
  printf("3D batch from a float4 array, 4000 bytes: %d\n", Batch3D(1, &op[1], 0, NULL));
  op[1].extent.width = 251;
  printf("3D batch from a float4 array, 4016 bytes: %d\n", Batch3D(1, &op[1], 0, NULL));
  CUresult (*Batch3D12)(size_t, CUDA_MEMCPY3D_BATCH_OP *, size_t *, unsigned long long, CUstream) =
      get_version("cuMemcpy3DBatchAsync", 0, 12080);
  fail = 9;
  printf("12.8 3D batch, 4016 bytes: %d\n", Batch3D12(1, &op[1], &fail, 0, NULL));
  op[1].extent.width = 250;
  r = Batch3D12(1, &op[1], &fail, 0, NULL);
  printf("12.8 3D batch, 4000 bytes: %d, its own signature: %s\n", r, fail == 0 ? "yes" : "NO");
  /* CUDA 12.8's exported symbols, as a -lcuda program built against 12.8 calls them */
  CUresult (*Batch12sym)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t,
                         size_t *, CUstream) =
      (CUresult(*)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t,
                   size_t *, CUstream))dlsym(RTLD_DEFAULT, "cuMemcpyBatchAsync");
  sizes[1] = 3073;
  fail = 9;
  printf("symbol cuMemcpyBatchAsync (12.8), one copy too long: %d\n",
         Batch12sym ? (int)Batch12sym(dsts, srcs, sizes, 2, NULL, NULL, 0, &fail, NULL) : -1);
  sizes[1] = 3072;
  r = Batch12sym ? Batch12sym(dsts, srcs, sizes, 2, NULL, NULL, 0, &fail, NULL) : CUDA_ERROR_NOT_FOUND;
  printf("symbol cuMemcpyBatchAsync (12.8), exact: %d, failIdx passed on: %s\n", r, fail == 0 ? "yes" : "NO");
  printf("calls that reached the driver: %d\n", *calls - n0);
  /* the per-thread symbol of a copy, taken by name: gsan's, checked */
  CUresult (*HtoDptds)(CUdeviceptr, const void *, size_t) =
      (CUresult(*)(CUdeviceptr, const void *, size_t))dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD),
                                                            "cuMemcpyHtoD_v2_ptds");
  printf("cuMemcpyHtoD_v2_ptds of 4001: %d\n", HtoDptds ? (int)HtoDptds(a, host, 4001) : -1);
}

/* memory pools: the default pool's allocations are the arena's, an
 * exportable pool's stay the driver's; a free of host memory is invalid */
static void pools(void) {
  CUresult (*DefaultPool)(CUmemoryPool *, CUdevice) = get("cuDeviceGetDefaultMemPool", 0);
  CUresult (*PoolCreate)(CUmemoryPool *, const CUmemPoolProps *) = get("cuMemPoolCreate", 0);
  CUresult (*FromPool)(CUdeviceptr *, size_t, CUmemoryPool, CUstream) = get("cuMemAllocFromPoolAsync", 0);
  CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync", 0);
  CUresult (*Free)(CUdeviceptr) = get("cuMemFree", 0);
  CUresult (*HtoD)(CUdeviceptr, const void *, size_t) = get("cuMemcpyHtoD", 0);
  static char host[64];
  CUmemoryPool def, mine, shared;
  CUdeviceptr p = 0, q = 0, r = 0;
  DefaultPool(&def, 0);
  CUresult st = FromPool(&p, 300, def, NULL);
  printf("default pool: %d, in the arena: %s\n", st, in_arena(p) ? "yes" : "no");
  CUmemPoolProps props = {0};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  PoolCreate(&mine, &props);
  st = FromPool(&q, 300, mine, NULL);
  printf("created pool: %d, in the arena: %s\n", st, in_arena(q) ? "yes" : "no");
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  PoolCreate(&shared, &props);
  st = FromPool(&r, 300, shared, NULL);
  printf("exportable pool: %d, in the arena: %s\n", st, in_arena(r) ? "yes" : "no");
  printf("copy past a pool allocation: %d\n", HtoD(q, host, 301));
  printf("free of the three: %d %d %d\n", FreeAsync(p, NULL), FreeAsync(q, NULL), FreeAsync(r, NULL));
  printf("free of host memory: %d\n", Free((CUdeviceptr)host));
}

/* host stacks: an allocation and its free, each three calls deep, the line
 * of each call kept so that a report's frames can be held to them (a capture
 * that skipped the caller, or gave wrong addresses, would not match) */
static CUresult (*stack_alloc_fn)(CUdeviceptr *, size_t);
static CUresult (*stack_free_fn)(CUdeviceptr);
static int alloc_lines[3], free_lines[3];
#define AT(line, call) ((line) = __LINE__, (call))
static __attribute__((noinline)) CUresult stack_alloc_inner(CUdeviceptr *p) {
  CUresult r = AT(alloc_lines[0], stack_alloc_fn(p, 700));
  return r;
}
static __attribute__((noinline)) CUresult stack_alloc_outer(CUdeviceptr *p) {
  CUresult r = AT(alloc_lines[1], stack_alloc_inner(p));
  return r;
}
static __attribute__((noinline)) CUresult stack_free_inner(CUdeviceptr p) {
  CUresult r = AT(free_lines[0], stack_free_fn(p));
  return r;
}
static __attribute__((noinline)) CUresult stack_free_outer(CUdeviceptr p) {
  CUresult r = AT(free_lines[1], stack_free_inner(p));
  return r;
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
  /* a driver function taken by its symbol name, as PyTorch and Triton do */
  CUresult (*AllocByName)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))dlsym(h, "cuMemAlloc_v2");
  CUdeviceptr c = 0;
  r = AllocByName ? AllocByName(&c, 100) : CUDA_ERROR_NOT_FOUND;
  printf("cuMemAlloc_v2 by dlsym: %d, in the arena: %s\n", r, in_arena(c) ? "yes" : "no");
  Free(c);
  /* CUDA 13's cuCtxSynchronize takes the context: asked for at 13000, the
   * wrapper handed out passes it on */
  CUresult (*Sync13)(CUcontext) = get_version("cuCtxSynchronize", 0, 13000);
  uint64_t *synced_ctx = dlsym(h, "fake_synced_ctx");
  r = Sync13((CUcontext)(uintptr_t)0x77);
  printf("cuCtxSynchronize at 13000: %d, with its context: %s\n", r, *synced_ctx == 0x77 ? "yes" : "NO");
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
    uint64_t *written = dlsym(h, "fake_written_stream"), *recorded = dlsym(h, "fake_recorded_stream");
    int n0 = *syncs;
    r = FreeAsync(b, s);
    printf("cuMemFreeAsync: %d, without a wait, its entry written and an event recorded on its stream: %s\n", r,
           *syncs == n0 && *written == 0x77 && *recorded == 0x77 ? "yes" : "NO");
    (void)synced;
    printf("copy into memory freed by cuMemFreeAsync: %d\n", HtoD(b, buf, 16));
    r = AllocAsync(&b, 64, NULL);
    r = FreeAsync_ptsz(b, NULL);
    printf("per-thread variant writes on the per-thread stream: %s\n",
           r == CUDA_SUCCESS && *syncs == n0 && *written == (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD &&
                   *recorded == (uint64_t)(uintptr_t)CU_STREAM_PER_THREAD
               ? "yes"
               : "NO");
    printf("cuMemFreeAsync again: %d\n", FreeAsync(b, s));
    size_t pitch = 0;
    r = AllocPitch(&b, &pitch, 1000, 3, 4);
    Range(&rb, &rn, b);
    printf("cuMemAllocPitch(1000 x 3): %d, pitch %zu, %zu bytes\n", r, pitch, rn);
    printf("copy past the last row: %d\n", HtoD(b + 2 * pitch, buf, pitch + 1));
    CUstream graph = (CUstream)(uintptr_t)0x99; /* being captured */
    CUdeviceptr g = 0;
    r = AllocAsync(&g, 256, graph);
    printf("cuMemAllocAsync under capture: %d, a slot for the graph: %s\n", r, in_arena(g) ? "yes" : "NO");
    printf("copy past it: %d\n", HtoD(g, buf, 257));
    printf("cuMemFreeAsync of it under capture: %d\n", FreeAsync(g, graph));
    n0 = *syncs;
    r = FreeAsync(b, graph);
    Range(&rb, &rn, b);
    printf("cuMemFreeAsync of a slot under capture: %d, no wait: %s, still live: %s\n", r,
           *syncs == n0 ? "yes" : "NO", rn == 3072 ? "yes" : "NO");
    Free(a);
    Free(b);
  } else if (!strcmp(sc, "launch")) {
    /* slot-table writes are queued; a launch waits for them only while they
     * are in flight */
    CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                       void **, void **) = get("cuLaunchKernel", 0);
    int *writes = dlsym(h, "fake_value_writes"), *waits = dlsym(h, "fake_stream_waits");
    int *launches = dlsym(h, "fake_launches"), *done = dlsym(h, "fake_event_done"), *batches = dlsym(h, "fake_batches");
    uint64_t *waiting = dlsym(h, "fake_waiting_stream");
    CUstream s = (CUstream)(uintptr_t)0x42;
    /* the free above gathered an entry, not sent yet */
    int w_before = *writes, b_before = *batches;
    Launch(NULL, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
    printf("launch: the gathered entries sent in one batch: %s\n",
           *writes > w_before && *batches == b_before + 1 && *launches == 1 ? "yes" : "NO");
    printf("launch waits so far: %d, on stream 0x%llx\n", *waits, (unsigned long long)*waiting);
    *done = 1;
    Launch(NULL, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
    Launch(NULL, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
    printf("launches after the writes finished: no wait: %s\n", *waits == 1 && *launches == 3 ? "yes" : "NO");
    int w0 = *writes, b0 = *batches;
    CUdeviceptr many[300];
    for (int i = 0; i < 300; i++) Alloc(&many[i], 64);
    printf("300 allocations: %d entries sent in %d batches before a launch\n", *writes - w0, *batches - b0);
    Launch(NULL, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
    printf("the next launch sends the rest and waits: %s\n", *writes == w0 + 300 && *waits == 2 ? "yes" : "NO");
    for (int i = 0; i < 300; i++) Free(many[i]);
    Free(a);
  } else if (!strcmp(sc, "copies")) {
    copies(a, dlsym(h, "fake_copies"));
    Free(a);
  } else if (!strcmp(sc, "pools")) {
    pools();
    Free(a);
  } else if (!strcmp(sc, "graph")) {
    /* a graph's memory nodes: arena slots and empty nodes; a slot the graph
     * frees, or one it owns, is no leak at exit */
    CUresult (*AddAlloc)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUDA_MEM_ALLOC_NODE_PARAMS *) =
        get("cuGraphAddMemAllocNode", 0);
    CUresult (*AddFree)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUdeviceptr) =
        get("cuGraphAddMemFreeNode", 0);
    int *empty = dlsym(h, "fake_empty_nodes"), *mem = dlsym(h, "fake_mem_nodes");
    CUDA_MEM_ALLOC_NODE_PARAMS p = {0};
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.bytesize = 1000;
    CUgraphNode n1, n2, n3;
    CUgraph graph = (CUgraph)(uintptr_t)0x1234;
    r = AddAlloc(&n1, graph, NULL, 0, &p);
    printf("alloc node: %d, a slot: %s, an empty node: %s\n", r, in_arena(p.dptr) ? "yes" : "NO",
           *empty == 1 && *mem == 0 ? "yes" : "NO");
    printf("copy past the graph's allocation: %d\n", HtoD(p.dptr, buf, 1001));
    r = AddFree(&n2, graph, &n1, 1, p.dptr);
    printf("free node: %d, an empty node: %s\n", r, *empty == 2 && *mem == 0 ? "yes" : "NO");
    CUDA_MEM_ALLOC_NODE_PARAMS host = p;
    host.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST;
    r = AddAlloc(&n3, graph, NULL, 0, &host);
    printf("host alloc node: %d, the driver's: %s\n", r, !in_arena(host.dptr) && *mem == 1 ? "yes" : "NO");
    /* as CUDA's guide shows: the program frees a graph's allocation between
     * launches; the graph's next launch uses it again */
    r = Free(p.dptr);
    printf("the graph's allocation freed between launches: %d, still usable: %d\n", r, HtoD(p.dptr, buf, 1000));
    Free(a);
  } else if (!strcmp(sc, "graph-node")) {
    /* the same memory nodes through the generic cuGraphAddNode: CUDA 12.3's
     * with edge data (kept for the stand-in), 12.2's, and the exported
     * symbols; any other node type passes through as it is */
    typedef CUresult (*add_node_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, const CUgraphEdgeData *, size_t,
                                    CUgraphNodeParams *);
    typedef CUresult (*add_node12_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUgraphNodeParams *);
    add_node_fn AddNode = (add_node_fn)get("cuGraphAddNode", 0);
    add_node12_fn AddNode12 = (add_node12_fn)get_version("cuGraphAddNode", 0, 12020);
    int *empty = dlsym(h, "fake_empty_nodes"), *mem = dlsym(h, "fake_mem_nodes");
    int *type = dlsym(h, "fake_last_node_type");
    void **params = dlsym(h, "fake_last_node_params");
    const void **edges = dlsym(h, "fake_last_node_edges");
    CUgraph graph = (CUgraph)(uintptr_t)0x1234;
    CUgraphNode n1, n2, n3, dep = (CUgraphNode)(uintptr_t)0x42;
    CUgraphEdgeData edge = {0};
    CUgraphNodeParams p;
    memset(&p, 0, sizeof p);
    p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.alloc.bytesize = 1000;
    r = AddNode(&n1, graph, &dep, &edge, 1, &p);
    printf("alloc node: %d, a slot: %s, an empty node with its edges: %s\n", r, in_arena(p.alloc.dptr) ? "yes" : "NO",
           *empty == 1 && *mem == 0 && *type == CU_GRAPH_NODE_TYPE_EMPTY && *edges == &edge ? "yes" : "NO");
    printf("copy past the graph's allocation: %d\n", HtoD(p.alloc.dptr, buf, 1001));
    CUgraphNodeParams f;
    memset(&f, 0, sizeof f);
    f.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    f.free.dptr = p.alloc.dptr;
    r = AddNode(&n2, graph, &n1, NULL, 1, &f);
    printf("free node: %d, an empty node: %s\n", r, *empty == 2 && *mem == 0 ? "yes" : "NO");
    CUgraphNodeParams k;
    memset(&k, 0, sizeof k);
    k.type = CU_GRAPH_NODE_TYPE_KERNEL;
    r = AddNode(&n3, graph, &n2, &edge, 1, &k);
    printf("kernel node: %d, passed on as it was: %s\n", r,
           *params == &k && *type == CU_GRAPH_NODE_TYPE_KERNEL && *edges == &edge && *empty == 2 ? "yes" : "NO");
    CUgraphNodeParams host = p;
    host.alloc.dptr = 0;
    host.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST;
    r = AddNode(&n3, graph, NULL, NULL, 0, &host);
    printf("host alloc node: %d, the driver's: %s\n", r,
           !in_arena(host.alloc.dptr) && *mem == 1 && *params == &host ? "yes" : "NO");
    CUgraphNodeParams p12 = p;
    p12.alloc.dptr = 0;
    r = AddNode12(&n3, graph, NULL, 0, &p12);
    printf("12.2's cuGraphAddNode, alloc node: %d, a slot: %s, an empty node: %s\n", r,
           in_arena(p12.alloc.dptr) ? "yes" : "NO", *empty == 3 && *type == CU_GRAPH_NODE_TYPE_EMPTY ? "yes" : "NO");
    /* the exported symbols, as a program linked with -lcuda calls them */
    add_node_fn AddNodeSym = (add_node_fn)dlsym(RTLD_DEFAULT, "cuGraphAddNode_v2");
    add_node12_fn AddNode12Sym = (add_node12_fn)dlsym(RTLD_DEFAULT, "cuGraphAddNode");
    CUgraphNodeParams s1 = p, s2 = p;
    s1.alloc.dptr = s2.alloc.dptr = 0;
    CUresult r1 = AddNodeSym ? AddNodeSym(&n3, graph, NULL, NULL, 0, &s1) : CUDA_ERROR_NOT_FOUND;
    CUresult r2 = AddNode12Sym ? AddNode12Sym(&n3, graph, NULL, 0, &s2) : CUDA_ERROR_NOT_FOUND;
    printf("symbols cuGraphAddNode_v2 and cuGraphAddNode: %d %d, slots: %s\n", r1, r2,
           in_arena(s1.alloc.dptr) && in_arena(s2.alloc.dptr) && *empty == 5 ? "yes" : "NO");
    Free(a);
  } else if (!strcmp(sc, "fork")) {
    /* a child forked after gsan is set up exits at once, quietly; the
     * parent's run goes on */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) exit(0);
    int status = -1;
    waitpid(pid, &status, 0);
    printf("child exited: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "0" : "NOT CLEANLY");
    printf("free in the parent: %d\n", Free(a));
  } else if (!strcmp(sc, "devices")) {
    /* a context on device 1: its allocations come from device 1's arena,
     * at its own addresses, and are checked like device 0's */
    int *dev = dlsym(h, "fake_current_device");
    *dev = 1;
    CUdeviceptr d1 = 0;
    r = Alloc(&d1, 3000);
    printf("device 1: cuMemAlloc(3000): %d, in its own arena: %s\n", r,
           d1 >= 0x200000000000ull && d1 < 0x300000000000ull ? "yes" : "NO");
    Range(&rb, &rn, d1 + 10);
    printf("device 1: address range: the allocation's own: %s\n", rb == d1 && rn == 3000 ? "yes" : "NO");
    printf("device 1: cuMemcpyHtoD of 3001: %d\n", HtoD(d1, buf, 3001));
    printf("device 1: cuMemcpyHtoD of 3000 into device 0's 4000: %d\n", HtoD(a, buf, 3000));
    /* a free needs no context on the pointer's device */
    *dev = 0;
    r = Free(d1);
    printf("device 0: free of device 1's allocation: %d, again: %d\n", r, Free(d1));
    *dev = 1;
    Alloc(&d1, 100); /* left for the leak check, beside device 0's */
    *dev = 0;
    CUdeviceptr d7 = 0;
    int *driver_allocs = dlsym(h, "fake_mem_allocs"), n0 = *driver_allocs;
    *dev = RT_FAKE_DEVICES;
    r = Alloc(&d7, 64);
    printf("device %d, beyond gsan's: cuMemAlloc: %d, the driver's: %s\n", RT_FAKE_DEVICES, r,
           r == CUDA_SUCCESS && *driver_allocs == n0 + 1 && !in_any_arena(d7) ? "yes" : "NO");
    printf("device %d: copy of 65 into its 64: %d\n", RT_FAKE_DEVICES, HtoD(d7, buf, 65));
    Free(d7);
    *dev = 0;
  } else if (!strcmp(sc, "stacks")) {
    stack_alloc_fn = Alloc;
    stack_free_fn = Free;
    CUdeviceptr p = 0;
    r = AT(alloc_lines[2], stack_alloc_outer(&p));
    CUresult f = AT(free_lines[2], stack_free_outer(p));
    /* to stderr, before the report it is checked against */
    fprintf(stderr, "alloc %d, free %d; lines: alloc %d %d %d, free %d %d %d\n", r, f, alloc_lines[0],
            alloc_lines[1], alloc_lines[2], free_lines[0], free_lines[1], free_lines[2]);
    printf("double free: %d\n", Free(p));
    Free(a);
  } else if (!strcmp(sc, "managed")) {
    /* managed memory stays the driver's; gsan checks the host calls on it */
    CUresult (*AllocManaged)(CUdeviceptr *, size_t, unsigned) = get("cuMemAllocManaged", 0);
    CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync", 0);
    CUresult (*Attrs)(unsigned, CUpointer_attribute *, void **, CUdeviceptr) = get("cuPointerGetAttributes", 0);
    int *managed = dlsym(h, "fake_managed_allocs");
    CUdeviceptr m = 0;
    r = AllocManaged(&m, 4000, CU_MEM_ATTACH_GLOBAL);
    printf("cuMemAllocManaged(4000): %d, the driver's: %s\n", r, *managed == 1 && m && !in_any_arena(m) ? "yes" : "NO");
    printf("copy of 4000: %d, of 4001: %d\n", HtoD(m, buf, 4000), HtoD(m, buf, 4001));
    printf("set of 3900 at 100: %d, of 3901: %d\n", SetD8(m + 100, 0, 3900), SetD8(m + 100, 0, 3901));
    rb = 0, rn = 0, an = 0;
    r = Range(&rb, &rn, m + 10);
    CUdeviceptr as = 0;
    CUpointer_attribute which[2] = {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE};
    void *out[2] = {&as, &an};
    CUresult ra = Attrs ? Attrs(2, which, out, m + 10) : CUDA_ERROR_NOT_FOUND;
    printf("address range and attributes of an interior pointer, the driver's: %s\n",
           r == CUDA_SUCCESS && rb == m && rn == 4000 && ra == CUDA_SUCCESS && as == m && an == 4000 ? "yes" : "NO");
    printf("free of an interior pointer: %d\n", Free(m + 16));
    printf("free: %d\n", Free(m));
    printf("copy after the free: %d\n", HtoD(m + 8, buf, 8));
    printf("second free: %d\n", FreeAsync(m, NULL));
    Free(a);
  } else if (!strcmp(sc, "managed-leak")) {
    /* the driver's allocations that gsan tracks are checked for leaks too:
     * managed memory, and memory of a device without an arena */
    CUresult (*AllocManaged)(CUdeviceptr *, size_t, unsigned) = get("cuMemAllocManaged", 0);
    CUdeviceptr m = 0, freed = 0, d16 = 0;
    AllocManaged(&freed, 100, CU_MEM_ATTACH_HOST);
    r = AllocManaged(&m, 3000, CU_MEM_ATTACH_GLOBAL);
    int *dev = dlsym(h, "fake_current_device");
    *dev = RT_FAKE_DEVICES;
    CUresult r16 = Alloc(&d16, 64);
    *dev = 0;
    printf("managed: %d, device %d: %d, freed: %d\n", r, RT_FAKE_DEVICES, r16, Free(freed));
    Free(a);
  } else if (!strcmp(sc, "sticky")) {
    *(int *)dlsym(h, "fake_sticky_fault") = 1;
    printf("free after a kernel fault: %d (the driver's CUDA_ERROR_LAUNCH_FAILED is 719)\n", Free(a));
  } else if (!strcmp(sc, "reset") || !strcmp(sc, "reset-unseen")) {
    /* a is live when device 0's context is reset: through gsan's hook on
     * cuDevicePrimaryCtxReset, or unseen (cudart's way), found by the
     * context's new id at the next allocation */
    fflush(stdout); /* gsan's lines (stderr) and these in the order made */
    if (!strcmp(sc, "reset")) {
      CUresult (*Reset)(CUdevice) = get("cuDevicePrimaryCtxReset", 0);
      r = Reset(0);
      printf("reset: %d, by the driver: %d\n", r, *(int *)dlsym(h, "fake_resets"));
    } else {
      ((int *)dlsym(h, "fake_ctx_gen"))[0]++;
      printf("reset unseen\n");
    }
    fflush(stdout);
    CUdeviceptr c2 = 0;
    r = Alloc(&c2, 100);
    printf("after the reset: cuMemAlloc(100): %d, in the arena: %s\n", r, in_arena(c2) ? "yes" : "no");
    printf("its free: %d\n", Free(c2));
    fflush(stdout);
  } else if (!strcmp(sc, "_exit") || !strcmp(sc, "SIGTERM")) {
    /* a reported error, then a way out that skips atexit */
    Free(a);
    printf("second free: %d\n", Free(a));
    fflush(stdout);
    if (!strcmp(sc, "_exit")) _exit(0);
    raise(SIGTERM);
  } else if (!strcmp(sc, "leak")) {
    Alloc(&b, 1024); /* a and b stay allocated */
    printf("leaving two allocations\n");
  } else {
    printf("free: %d\n", Free(a));
  }
  return 0;
}
