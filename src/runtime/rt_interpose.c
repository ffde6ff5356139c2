/* How libgsan gets between the program and the driver (DESIGN.md §3): cudart
 * (static or shared) dlopens libcuda and dlsyms only cuGetProcAddress, then
 * fetches every entry point through it, so exporting cu* names sees nothing.
 * libgsan overrides dlsym and dlvsym (rt_dlsym_entry.c) and answers the
 * driver names it hooks here; a request for cuGetProcAddress gets gsan's,
 * which hands out gsan's wrappers for the calls it hooks and the driver's
 * own functions for everything else. Programs linked with -lcuda call the
 * driver's names directly: libgsan exports the hooked ones too. */
#include "rt_dlsym.h"
#include "rt_elf_dyn.h"
#include "rt_driver.h"
#include "rt_hooks.h"
#include "rt_life.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static get_proc_fn real_get_proc;

static CUresult gsan_cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status) {
  CUresult r = real_get_proc(symbol, pfn, version, flags, status);
  if (r != CUDA_SUCCESS || !pfn || !*pfn) return r;
  /* cudart fetches cuGetProcAddress through cuGetProcAddress: hand out this
   * wrapper again, or every later lookup would bypass gsan */
  if (!strncmp(symbol, "cuGetProcAddress", 16)) {
    *pfn = (void *)gsan_cuGetProcAddress;
    return r;
  }
  void *mine = rt_hook_for(symbol, flags, version, *pfn);
  if (mine) *pfn = mine;
  return r;
}

static void ensure_driver(void);

/* libgsan's own dynamic symbols: the driver names it exports */
static rt_dynobj self;
static int self_found;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

static void find_self(void) { self_found = rt_dynobj_at((const void *)find_self, &self) == 0; }

/* libgsan's export of name, or NULL */
static void *own_symbol(const char *name) {
  pthread_once(&self_once, find_self);
  const ElfW(Sym) *s = self_found ? rt_dynobj_find(&self, name, NULL) : NULL;
  return s ? rt_dynobj_addr(&self, s) : NULL;
}

/* A driver entry point that a program dlsyms from libcuda by its symbol name,
 * not through cuGetProcAddress (PyTorch and Triton do, for some): libgsan
 * exports the hooked ones under the same names (below), so it hands out its
 * own. Only for functions that really are libcuda's. */
static void *own_export(const char *name, void *real) {
  Dl_info d;
  if (strncmp(name, "cu", 2) || !dladdr(real, &d) || !d.dli_fname || !strstr(d.dli_fname, "libcuda.so")) return real;
  void *mine = own_symbol(name);
  if (!mine || mine == real) return real;
  ensure_driver();
  return real_get_proc ? mine : real; /* gsan's export needs the driver found */
}

/* What to hand out for name, given the real function. */
static void *intercept(const char *name, void *real) {
  if (!real || !name) return real;
  if (strncmp(name, "cuGetProcAddress", 16)) return own_export(name, real);
  if (real == (void *)cuGetProcAddress) {
    /* a lookup in the global scope (RTLD_DEFAULT) found gsan's own export,
     * which must not become "the driver's" */
    ensure_driver();
    return real_get_proc ? (void *)gsan_cuGetProcAddress : NULL;
  }
  if (!strcmp(name, "cuGetProcAddress") || !strcmp(name, "cuGetProcAddress_v2")) {
    real_get_proc = (get_proc_fn)real;
    rt_life_init(real, rt_listeners);
    return (void *)gsan_cuGetProcAddress;
  }
  return real;
}

/* The names whose lookups gsan must see: what intercept can change. Called
 * for every dlsym in the process, from other libraries' start-up too: no
 * allocation, no string function until the name starts with "cu". */
int rt_interpose_sees(const char *name) {
  if (!name || name[0] != 'c' || name[1] != 'u') return 0;
  return !strncmp(name, "cuGetProcAddress", 16) || own_symbol(name);
}

/* RTLD_NEXT is resolved for the caller, not for libgsan (rt_dlsym_next.c):
 * an interposer after libgsan that wraps a driver call gets the driver's
 * function (as gsan's hook), not its own */
void *rt_interpose_dlsym(void *handle, const char *name, const void *caller) {
  return intercept(name, handle == RTLD_NEXT ? rt_next_sym(caller, name, NULL) : rt_real_dlsym(handle, name));
}

void *rt_interpose_dlvsym(void *handle, const char *name, const char *version, const void *caller) {
  return intercept(name, handle == RTLD_NEXT ? rt_next_sym(caller, name, version) : rt_real_dlvsym(handle, name, version));
}

/* ---- exported driver names, for programs linked with -lcuda ---- */

/* Finds the driver without a dlsym from the program: such a program never
 * asks for cuGetProcAddress. */
static void ensure_driver(void) {
  if (real_get_proc) return;
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (h) intercept("cuGetProcAddress_v2", rt_real_dlsym(h, "cuGetProcAddress_v2"));
}

/* gsan's hook for name as the driver serves it at version (with the
 * per-thread-stream flag), or the driver's own function when not hooked */
static void *export_target(const char *name, int version, int per_thread) {
  ensure_driver();
  void *r = rt_driver_real_v(name, version, per_thread);
  cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : 0;
  void *mine = r ? rt_hook_for(name, flags, version, r) : NULL;
  return mine ? mine : r;
}

/* symbol: the exported name; name, version, per_thread: what it is in the
 * driver's cuGetProcAddress terms */
#define EXPORT_AS(symbol, name, version, per_thread, params, args)               \
  CUresult symbol params {                                                      \
    static CUresult(*real_) params;                                             \
    if (!real_) *(void **)&real_ = export_target(name, version, per_thread);   \
    return real_ ? real_ args : CUDA_ERROR_NOT_INITIALIZED;                     \
  }
/* cuda.h maps most names to their _v2 symbols (what -lcuda links); the
 * signatures are those of CUDA 12 unless a symbol says otherwise */
#define EXPORT(name, params, args) EXPORT_AS(name, #name, RT_OWN_VERSION, 0, params, args)
/* the names a program linked with -lcuda calls; cuda.h maps most to their
 * _v2 symbols, which is what -lcuda links. Calls with a stream (or the
 * default one) also have a per-thread-default-stream symbol (_ptds, _ptsz:
 * nvcc --default-stream per-thread), from the table below; names come as
 * strings since the symbols are cuda.h macros */
EXPORT(cuMemAlloc, (CUdeviceptr * p, size_t n), (p, n))
EXPORT(cuMemFree, (CUdeviceptr p), (p))
EXPORT(cuMemAllocPitch, (CUdeviceptr * p, size_t *pitch, size_t w, size_t h, unsigned e), (p, pitch, w, h, e))
EXPORT(cuMemAllocManaged, (CUdeviceptr * p, size_t n, unsigned flags), (p, n, flags))
EXPORT(cuModuleLoadData, (CUmodule * m, const void *image), (m, image))
EXPORT(cuModuleLoadDataEx, (CUmodule * m, const void *image, unsigned n, CUjit_option *o, void **v), (m, image, n, o, v))
EXPORT(cuLibraryLoadData, (CUlibrary * l, const void *c, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl), (l, c, jo, jv, nj, lo, lv, nl))
EXPORT(cuLibraryUnload, (CUlibrary l), (l))
EXPORT(cuModuleLoad, (CUmodule * m, const char *path), (m, path))
EXPORT(cuModuleLoadFatBinary, (CUmodule * m, const void *fatbin), (m, fatbin))
EXPORT(cuLibraryLoadFromFile, (CUlibrary * l, const char *path, CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl), (l, path, jo, jv, nj, lo, lv, nl))
EXPORT(cuLinkAddData, (CUlinkState s, CUjitInputType t, void *data, size_t n, const char *name, unsigned no, CUjit_option *o, void **v), (s, t, data, n, name, no, o, v))
EXPORT(cuLinkAddFile, (CUlinkState s, CUjitInputType t, const char *path, unsigned no, CUjit_option *o, void **v), (s, t, path, no, o, v))
EXPORT(cuMemPoolCreate, (CUmemoryPool * pool, const CUmemPoolProps *props), (pool, props))
EXPORT(cuMemPoolDestroy, (CUmemoryPool pool), (pool))
EXPORT(cuGraphAddMemAllocNode, (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUDA_MEM_ALLOC_NODE_PARAMS *p), (n, g, d, nd, p))
EXPORT(cuGraphAddMemFreeNode, (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUdeviceptr p), (n, g, d, nd, p))
EXPORT(cuCtxSynchronize, (void), ())
EXPORT(cuEventSynchronize, (CUevent e), (e))
EXPORT(cuDevicePrimaryCtxReset, (CUdevice d), (d))
EXPORT(cuDevicePrimaryCtxRelease, (CUdevice d), (d))
EXPORT(cuCtxDestroy, (CUcontext c), (c))
EXPORT(cuModuleUnload, (CUmodule m), (m))
EXPORT(cuCtxSetLimit, (CUlimit l, size_t v), (l, v))
/* The batch copies: CUDA 13's symbols (cuda.h maps the names to _v2), and
 * CUDA 12.8's under their own names, with the failIdx argument 13 dropped
 * (spelt as assembler names: cuda.h's macros would rename them). */
#define BATCH13_PARAMS (CUdeviceptr * d, CUdeviceptr *s, size_t *n, size_t c, CUmemcpyAttributes *a, size_t *ai, size_t na, CUstream st)
#define BATCH12_PARAMS (CUdeviceptr * d, CUdeviceptr *s, size_t *n, size_t c, CUmemcpyAttributes *a, size_t *ai, size_t na, size_t *f, CUstream st)
#define BATCH3D13_PARAMS (size_t n, CUDA_MEMCPY3D_BATCH_OP *o, unsigned long long fl, CUstream st)
#define BATCH3D12_PARAMS (size_t n, CUDA_MEMCPY3D_BATCH_OP *o, size_t *f, unsigned long long fl, CUstream st)
EXPORT_AS(cuMemcpyBatchAsync, "cuMemcpyBatchAsync", 13000, 0, BATCH13_PARAMS, (d, s, n, c, a, ai, na, st))
EXPORT_AS(cuMemcpyBatchAsync_v2_ptsz, "cuMemcpyBatchAsync", 13000, 1, BATCH13_PARAMS, (d, s, n, c, a, ai, na, st))
EXPORT_AS(cuMemcpy3DBatchAsync, "cuMemcpy3DBatchAsync", 13000, 0, BATCH3D13_PARAMS, (n, o, fl, st))
EXPORT_AS(cuMemcpy3DBatchAsync_v2_ptsz, "cuMemcpy3DBatchAsync", 13000, 1, BATCH3D13_PARAMS, (n, o, fl, st))
#define EXPORT_ASM(cname, symbol, name, version, per_thread, params, args) \
  CUresult cname params __asm__(symbol);                                    \
  EXPORT_AS(cname, name, version, per_thread, params, args)
EXPORT_ASM(gsan_batch_12080, "cuMemcpyBatchAsync", "cuMemcpyBatchAsync", 12080, 0, BATCH12_PARAMS,
           (d, s, n, c, a, ai, na, f, st))
EXPORT_ASM(gsan_batch_12080_ptsz, "cuMemcpyBatchAsync_ptsz", "cuMemcpyBatchAsync", 12080, 1, BATCH12_PARAMS,
           (d, s, n, c, a, ai, na, f, st))
EXPORT_ASM(gsan_batch3d_12080, "cuMemcpy3DBatchAsync", "cuMemcpy3DBatchAsync", 12080, 0, BATCH3D12_PARAMS,
           (n, o, f, fl, st))
EXPORT_ASM(gsan_batch3d_12080_ptsz, "cuMemcpy3DBatchAsync_ptsz", "cuMemcpy3DBatchAsync", 12080, 1, BATCH3D12_PARAMS,
           (n, o, f, fl, st))
/* cuGraphAddNode: CUDA 12.3's with edge data (cuda.h maps the name to _v2),
 * and 12.2's under its own name */
EXPORT_AS(cuGraphAddNode, "cuGraphAddNode", 12030, 0,
          (CUgraphNode * n, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t nd, CUgraphNodeParams *p),
          (n, g, d, e, nd, p))
EXPORT_ASM(gsan_add_node_12020, "cuGraphAddNode", "cuGraphAddNode", 12020, 0,
           (CUgraphNode * n, CUgraph g, const CUgraphNode *d, size_t nd, CUgraphNodeParams *p), (n, g, d, nd, p))
/* X(name, legacy symbol, per-thread symbol, parameters, arguments) */
#define STREAM_EXPORTS(X) \
  X("cuMemAllocAsync", cuMemAllocAsync, cuMemAllocAsync_ptsz, (CUdeviceptr * p, size_t n, CUstream s), (p, n, s)) \
  X("cuMemFreeAsync", cuMemFreeAsync, cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s), (p, s)) \
  X("cuMemcpy", cuMemcpy, cuMemcpy_ptds, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n)) \
  X("cuMemcpyAsync", cuMemcpyAsync, cuMemcpyAsync_ptsz, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) \
  X("cuMemcpyHtoD", cuMemcpyHtoD, cuMemcpyHtoD_v2_ptds, (CUdeviceptr d, const void *h, size_t n), (d, h, n)) \
  X("cuMemcpyHtoDAsync", cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2_ptsz, (CUdeviceptr d, const void *h, size_t n, CUstream st), (d, h, n, st)) \
  X("cuMemcpyDtoH", cuMemcpyDtoH, cuMemcpyDtoH_v2_ptds, (void *h, CUdeviceptr s, size_t n), (h, s, n)) \
  X("cuMemcpyDtoHAsync", cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2_ptsz, (void *h, CUdeviceptr s, size_t n, CUstream st), (h, s, n, st)) \
  X("cuMemcpyDtoD", cuMemcpyDtoD, cuMemcpyDtoD_v2_ptds, (CUdeviceptr d, CUdeviceptr s, size_t n), (d, s, n)) \
  X("cuMemcpyDtoDAsync", cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2_ptsz, (CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st), (d, s, n, st)) \
  X("cuMemsetD8", cuMemsetD8, cuMemsetD8_v2_ptds, (CUdeviceptr d, unsigned char v, size_t n), (d, v, n)) \
  X("cuMemsetD8Async", cuMemsetD8Async, cuMemsetD8Async_ptsz, (CUdeviceptr d, unsigned char v, size_t n, CUstream st), (d, v, n, st)) \
  X("cuMemsetD16", cuMemsetD16, cuMemsetD16_v2_ptds, (CUdeviceptr d, unsigned short v, size_t n), (d, v, n)) \
  X("cuMemsetD32", cuMemsetD32, cuMemsetD32_v2_ptds, (CUdeviceptr d, unsigned int v, size_t n), (d, v, n)) \
  X("cuMemAllocFromPoolAsync", cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz, (CUdeviceptr * p, size_t n, CUmemoryPool pool, CUstream s), (p, n, pool, s)) \
  X("cuMemcpyPeer", cuMemcpyPeer, cuMemcpyPeer_ptds, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n), (d, dc, s, sc, n)) \
  X("cuMemcpyPeerAsync", cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz, (CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st), (d, dc, s, sc, n, st)) \
  X("cuMemcpy2D", cuMemcpy2D, cuMemcpy2D_v2_ptds, (const CUDA_MEMCPY2D *c), (c)) \
  X("cuMemcpy2DUnaligned", cuMemcpy2DUnaligned, cuMemcpy2DUnaligned_v2_ptds, (const CUDA_MEMCPY2D *c), (c)) \
  X("cuMemcpy2DAsync", cuMemcpy2DAsync, cuMemcpy2DAsync_v2_ptsz, (const CUDA_MEMCPY2D *c, CUstream st), (c, st)) \
  X("cuMemcpy3D", cuMemcpy3D, cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *c), (c)) \
  X("cuMemcpy3DAsync", cuMemcpy3DAsync, cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *c, CUstream st), (c, st)) \
  X("cuMemcpy3DPeer", cuMemcpy3DPeer, cuMemcpy3DPeer_ptds, (const CUDA_MEMCPY3D_PEER *c), (c)) \
  X("cuMemcpy3DPeerAsync", cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync_ptsz, (const CUDA_MEMCPY3D_PEER *c, CUstream st), (c, st)) \
  X("cuMemsetD16Async", cuMemsetD16Async, cuMemsetD16Async_ptsz, (CUdeviceptr d, unsigned short v, size_t n, CUstream st), (d, v, n, st)) \
  X("cuMemsetD32Async", cuMemsetD32Async, cuMemsetD32Async_ptsz, (CUdeviceptr d, unsigned int v, size_t n, CUstream st), (d, v, n, st)) \
  X("cuMemsetD2D8", cuMemsetD2D8, cuMemsetD2D8_v2_ptds, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h), (d, p, v, w, h)) \
  X("cuMemsetD2D8Async", cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz, (CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) \
  X("cuMemsetD2D16", cuMemsetD2D16, cuMemsetD2D16_v2_ptds, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h), (d, p, v, w, h)) \
  X("cuMemsetD2D16Async", cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz, (CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) \
  X("cuMemsetD2D32", cuMemsetD2D32, cuMemsetD2D32_v2_ptds, (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h), (d, p, v, w, h)) \
  X("cuMemsetD2D32Async", cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz, (CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st), (d, p, v, w, h, st)) \
  X("cuStreamSynchronize", cuStreamSynchronize, cuStreamSynchronize_ptsz, (CUstream s), (s)) \
  X("cuStreamQuery", cuStreamQuery, cuStreamQuery_ptsz, (CUstream s), (s)) \
  X("cuLaunchKernel", cuLaunchKernel, cuLaunchKernel_ptsz, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **args, void **extra), (f, gx, gy, gz, bx, by, bz, sh, s, args, extra)) \
  X("cuLaunchKernelEx", cuLaunchKernelEx, cuLaunchKernelEx_ptsz, (const CUlaunchConfig *c, CUfunction f, void **args, void **extra), (c, f, args, extra)) \
  X("cuLaunchCooperativeKernel", cuLaunchCooperativeKernel, cuLaunchCooperativeKernel_ptsz, (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **args), (f, gx, gy, gz, bx, by, bz, sh, s, args)) \
  X("cuGraphLaunch", cuGraphLaunch, cuGraphLaunch_ptsz, (CUgraphExec g, CUstream s), (g, s))
#define LEGACY_EXPORT(name, sym, pt, params, args) EXPORT_AS(sym, name, RT_OWN_VERSION, 0, params, args)
#define PER_THREAD_EXPORT(name, sym, pt, params, args) EXPORT_AS(pt, name, RT_OWN_VERSION, 1, params, args)
STREAM_EXPORTS(LEGACY_EXPORT)
STREAM_EXPORTS(PER_THREAD_EXPORT)

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *status) {
  ensure_driver();
  if (!real_get_proc) return CUDA_ERROR_NOT_INITIALIZED;
  return gsan_cuGetProcAddress(symbol, pfn, version, flags, status);
}
