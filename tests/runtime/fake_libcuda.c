/* A stand-in for libcuda.so.1 for the CPU tests of libgsan's interposition:
 * it serves cuGetProcAddress_v2 the way the driver does, with the calls gsan
 * uses. Device memory is the fake VMM's (fake_vmm.c); cuMemAlloc hands out
 * host memory. The per-thread-stream variant of cuMemcpyHtoD is a separate
 * function that counts its calls, so a test can see which one gsan forwards
 * to. Module images it is handed are kept for the test to read (test_jit.c).
 * Built as build/lib/fake/libcuda.so.1. */
#include "fake_vmm.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fake_vmm *vmm;
static rt_vmm ops;
int fake_ptsz_calls, fake_legacy_calls; /* read by the test through dlsym */

static CUresult f_Init(unsigned flags) {
  (void)flags;
  if (!vmm) {
    vmm = fake_vmm_new(2u << 20);
    ops = fake_vmm_ops(vmm);
  }
  return CUDA_SUCCESS;
}
/* the current context's device: a test sets it through dlsym, as if it had
 * made a context on another device current */
int fake_current_device;
/* contexts: one per device (its primary), a stack of pushed ones, and no
 * current context at all when a test sets fake_no_context */
int fake_no_context, fake_primary_retains;
#define FAKE_DEVICES 17 /* gsan gives 0-15 an arena; 16 is beyond */
#define FAKE_CTX(d) ((CUcontext)(uintptr_t)(0xc000 + (d)))
static struct { int device, none; } ctx_stack[8];
static int ctx_depth;
static CUresult f_CtxGetDevice(CUdevice *d) {
  if (fake_no_context) return CUDA_ERROR_INVALID_CONTEXT;
  *d = fake_current_device;
  return CUDA_SUCCESS;
}
static CUresult f_CtxGetCurrent(CUcontext *c) {
  *c = fake_no_context ? NULL : FAKE_CTX(fake_current_device);
  return CUDA_SUCCESS;
}
static CUresult f_CtxPushCurrent(CUcontext c) {
  uintptr_t d = (uintptr_t)c - 0xc000;
  if (d >= FAKE_DEVICES || ctx_depth == 8) return CUDA_ERROR_INVALID_CONTEXT;
  ctx_stack[ctx_depth].device = fake_current_device;
  ctx_stack[ctx_depth++].none = fake_no_context;
  fake_current_device = (int)d;
  fake_no_context = 0;
  return CUDA_SUCCESS;
}
static CUresult f_CtxPopCurrent(CUcontext *c) {
  if (!ctx_depth) return CUDA_ERROR_INVALID_CONTEXT;
  if (c) *c = FAKE_CTX(fake_current_device);
  fake_current_device = ctx_stack[--ctx_depth].device;
  fake_no_context = ctx_stack[ctx_depth].none;
  return CUDA_SUCCESS;
}
static CUresult f_DevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
  if (d < 0 || d >= FAKE_DEVICES) return CUDA_ERROR_INVALID_DEVICE;
  fake_primary_retains++;
  *c = FAKE_CTX(d);
  return CUDA_SUCCESS;
}
/* a context's id changes when its device's primary context is reset: by
 * cuDevicePrimaryCtxReset, or by a test bumping fake_ctx_gen as cudart's
 * reset through the driver's internal table does unseen */
int fake_ctx_gen[FAKE_DEVICES], fake_resets;
static CUresult f_CtxGetId(CUcontext c, unsigned long long *id) {
  uintptr_t d = (uintptr_t)c - 0xc000;
  if (d >= FAKE_DEVICES) return CUDA_ERROR_INVALID_CONTEXT;
  *id = 1000ull * (unsigned long long)fake_ctx_gen[d] + d + 1;
  return CUDA_SUCCESS;
}
static CUresult f_DevicePrimaryCtxReset(CUdevice d) {
  if (d < 0 || d >= FAKE_DEVICES) return CUDA_ERROR_INVALID_DEVICE;
  fake_ctx_gen[d]++;
  fake_resets++;
  return CUDA_SUCCESS;
}
/* The streams and events the fake makes belong to the context current then:
 * their handles carry its device and generation (stream 0x55 and event 0x66
 * in device 0's first context, as before). A call given one after that
 * context was reset aborts, as the real driver may crash on a handle of a
 * context that is gone (gsan's monitor thread did, in cuEventRecord, after
 * a reset cudart makes unseen). Handles the program makes up (0x42, 0x77)
 * are not checked. */
static uintptr_t own_handle(unsigned kind);
static void live_handle(const char *api, const void *h);
static CUresult f_DeviceGetCount(int *n) {
  *n = FAKE_DEVICES;
  return CUDA_SUCCESS;
}
static CUresult f_DeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
  return CUDA_SUCCESS;
}
/* the driver's own allocations (managed memory too) are host memory here,
 * remembered so that a free of anything else fails as the driver's does */
static void *allocs[256];
static size_t alloc_sizes[256];
int fake_mem_allocs; /* cuMemAlloc calls that reached the driver */
static CUresult f_MemAlloc(CUdeviceptr *p, size_t n) {
  fake_mem_allocs++;
  if (!n) return CUDA_ERROR_INVALID_VALUE;
  for (int i = 0; i < 256; i++)
    if (!allocs[i]) {
      allocs[i] = calloc(1, n);
      alloc_sizes[i] = n;
      *p = (CUdeviceptr)allocs[i];
      return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    }
  return CUDA_ERROR_OUT_OF_MEMORY;
}
int fake_managed_allocs;
static CUresult f_MemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) return CUDA_ERROR_INVALID_VALUE;
  fake_managed_allocs++;
  return f_MemAlloc(p, n);
}
static CUresult f_MemFree(CUdeviceptr p) {
  for (int i = 0; i < 256; i++)
    if (allocs[i] && allocs[i] == (void *)p) {
      free(allocs[i]);
      allocs[i] = NULL;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
/* the driver's allocation p falls in: 1 and its range */
static int driver_alloc(CUdeviceptr p, uint64_t *base, uint64_t *size) {
  for (int i = 0; i < 256; i++)
    if (allocs[i] && p >= (CUdeviceptr)allocs[i] && p - (CUdeviceptr)allocs[i] < alloc_sizes[i]) {
      *base = (CUdeviceptr)allocs[i];
      *size = alloc_sizes[i];
      return 1;
    }
  return 0;
}
static CUresult f_MemAddressReserve(CUdeviceptr *p, size_t n, size_t al, CUdeviceptr hint, unsigned long long fl) {
  (void)fl;
  uint64_t out;
  int r = ops.reserve(ops.ctx, n, al, hint, &out);
  *p = out;
  return (CUresult)r;
}
static CUresult f_MemAddressFree(CUdeviceptr p, size_t n) { return (CUresult)ops.unreserve(ops.ctx, p, n); }
static CUresult f_MemCreate(CUmemGenericAllocationHandle *h, size_t n, const CUmemAllocationProp *pr, unsigned long long f) {
  (void)f;
  uint64_t out;
  int r = ops.create(ops.ctx, n, pr->location.id, &out);
  *h = out;
  return (CUresult)r;
}
static CUresult f_MemRelease(CUmemGenericAllocationHandle h) { return (CUresult)ops.release(ops.ctx, h); }
static CUresult f_MemMap(CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h, unsigned long long f) {
  (void)off;
  (void)f;
  return (CUresult)ops.map(ops.ctx, p, n, h, 0);
}
static CUresult f_MemUnmap(CUdeviceptr p, size_t n) { return (CUresult)ops.unmap(ops.ctx, p, n); }
static CUresult f_MemSetAccess(CUdeviceptr p, size_t n, const CUmemAccessDesc *d, size_t c) {
  (void)p; (void)n; (void)d; (void)c;
  return CUDA_SUCCESS;
}
static CUresult f_MemGetAllocationGranularity(size_t *g, const CUmemAllocationProp *p, CUmemAllocationGranularity_flags f) {
  (void)p; (void)f;
  *g = 2u << 20;
  return CUDA_SUCCESS;
}
/* copies into fake device memory land in the fake VMM; anything else is host memory */
static CUresult copy_in(CUdeviceptr d, const void *h, size_t n) {
  if (fake_vmm_is_mapped(vmm, d)) return (CUresult)fake_vmm_write(vmm, d, h, n);
  memcpy((void *)d, h, n);
  return CUDA_SUCCESS;
}
/* set by the test: a kernel faulted, and the context now refuses copies */
int fake_sticky_fault;
static CUresult f_MemcpyHtoD(CUdeviceptr d, const void *h, size_t n) {
  fake_legacy_calls++;
  if (fake_sticky_fault) return CUDA_ERROR_LAUNCH_FAILED;
  return copy_in(d, h, n);
}
static CUresult f_MemcpyHtoD_ptsz(CUdeviceptr d, const void *h, size_t n) {
  fake_ptsz_calls++;
  return copy_in(d, h, n);
}
static void count_global_read(CUdeviceptr d);
static CUresult f_MemcpyDtoH(void *h, CUdeviceptr d, size_t n) {
  count_global_read(d);
  if (!fake_vmm_is_mapped(vmm, d)) memcpy(h, (void *)d, n);
  return CUDA_SUCCESS;
}
/* an asynchronous read lands at once; reads of mapped fake device memory are
 * counted (gsan's canary checks), and a read of unmapped device memory
 * fails as the driver's does */
int fake_dtoh_reads;
static CUresult f_MemcpyDtoHAsync(void *h, CUdeviceptr d, size_t n, CUstream s) {
  live_handle("cuMemcpyDtoHAsync", s);
  if (fake_sticky_fault) return CUDA_ERROR_LAUNCH_FAILED;
  count_global_read(d);
  if (!fake_vmm_is_mapped(vmm, d)) {
    memcpy(h, (void *)d, n);
    return CUDA_SUCCESS;
  }
  fake_dtoh_reads++;
  return fake_vmm_read(vmm, d, h, n) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
/* what an uninstrumented kernel writes (a test calls it through dlsym):
 * any mapped bytes, past an allocation's end included */
int fake_kernel_write(uint64_t addr, const void *src, size_t n) { return fake_vmm_write(vmm, addr, src, n); }
int fake_kernel_read(uint64_t addr, void *dst, size_t n) { return fake_vmm_read(vmm, addr, dst, n); }
int fake_mapped(uint64_t addr) { return fake_vmm_is_mapped(vmm, addr); }
/* Functions a test declares (fake_add_function): a module's CUfunctions
 * and a library's CUkernels, each with its parameters. A handle points at
 * its entry, which starts with its name; the slot of an unloaded one is
 * the next to be given out, as a driver may hand a handle out again. Any
 * other CUfunction is its kernel's name, taking a pointer and an int. */
#define FAKE_FUNCS 64
#define FAKE_PARAMS 16
static struct fake_fn {
  char name[128];
  uintptr_t owner; /* module or library handle; 0: a free slot */
  int kernel;      /* a library's CUkernel */
  size_t nparams, off[FAKE_PARAMS], size[FAKE_PARAMS];
  int regs;        /* registers per thread (fake_set_registers); 0: the driver does not say */
} funcs[FAKE_FUNCS];

/* the declared function h is, or NULL; *known: h points into the table */
static struct fake_fn *fn_of(const void *h, int *known) {
  uintptr_t p = (uintptr_t)h, lo = (uintptr_t)funcs;
  *known = p >= lo && p < lo + sizeof funcs;
  if (!*known || (p - lo) % sizeof funcs[0]) return NULL;
  struct fake_fn *e = &funcs[(p - lo) / sizeof funcs[0]];
  return e->owner ? e : NULL;
}

void *fake_add_function(uintptr_t owner, int kernel, const char *name, size_t n, const size_t *off, const size_t *size) {
  for (int i = 0; i < FAKE_FUNCS && n <= FAKE_PARAMS; i++)
    if (!funcs[i].owner) {
      snprintf(funcs[i].name, sizeof funcs[i].name, "%s", name);
      funcs[i].owner = owner;
      funcs[i].kernel = kernel;
      funcs[i].nparams = n;
      funcs[i].regs = 0;
      memcpy(funcs[i].off, off, n * sizeof *off);
      memcpy(funcs[i].size, size, n * sizeof *size);
      return &funcs[i];
    }
  return NULL;
}

/* a declared function's registers per thread, for cuFuncGetAttribute and
 * cuKernelGetAttribute (CU_FUNC_ATTRIBUTE_NUM_REGS); 0: unknown, which
 * they then answer with an error; -1 for a handle not declared */
int fake_set_registers(const void *h, int regs) {
  int known;
  struct fake_fn *e = fn_of(h, &known);
  if (!e) return -1;
  e->regs = regs;
  return 0;
}
static CUresult func_attribute(int *v, CUfunction_attribute a, const void *h, int kernel) {
  int known;
  struct fake_fn *e = fn_of(h, &known);
  if (!e || e->kernel != kernel) return CUDA_ERROR_INVALID_HANDLE;
  if (a != CU_FUNC_ATTRIBUTE_NUM_REGS || !e->regs) return CUDA_ERROR_NOT_SUPPORTED;
  *v = e->regs;
  return CUDA_SUCCESS;
}
static CUresult f_FuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) { return func_attribute(v, a, f, 0); }
static CUresult f_KernelGetAttribute(int *v, CUfunction_attribute a, CUkernel k, CUdevice d) {
  (void)d;
  return func_attribute(v, a, k, 1);
}

/* for a test's output: a handle's name, "(invalid)" for an unloaded one */
const char *fake_function_name(const void *h) {
  int known;
  struct fake_fn *e = fn_of(h, &known);
  return e ? e->name : known ? "(invalid)" : (const char *)h;
}

static CUresult f_FuncGetName(const char **name, CUfunction f) {
  int known;
  struct fake_fn *e = fn_of(f, &known);
  if (known && (!e || e->kernel)) return CUDA_ERROR_INVALID_HANDLE;
  *name = (const char *)f;
  return CUDA_SUCCESS;
}
static CUresult param_info(const void *h, int kernel, size_t i, size_t *off, size_t *size) {
  int known;
  struct fake_fn *e = fn_of(h, &known);
  if (!known) {
    if (kernel || i > 1) return kernel ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_INVALID_VALUE;
    *off = i * 8;
    *size = i ? 4 : 8;
    return CUDA_SUCCESS;
  }
  if (!e || e->kernel != kernel) return CUDA_ERROR_INVALID_HANDLE;
  if (i >= e->nparams) return CUDA_ERROR_INVALID_VALUE;
  *off = e->off[i];
  *size = e->size[i];
  return CUDA_SUCCESS;
}
static CUresult f_FuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size) {
  return param_info(f, 0, i, off, size);
}
static CUresult f_KernelGetParamInfo(CUkernel k, size_t i, size_t *off, size_t *size) {
  return param_info(k, 1, i, off, size);
}
static CUresult f_KernelGetName(const char **name, CUkernel k) {
  int known;
  struct fake_fn *e = fn_of(k, &known);
  if (!e || !e->kernel) return CUDA_ERROR_INVALID_HANDLE;
  *name = e->name;
  return CUDA_SUCCESS;
}
/* a declared function's module or library */
static CUresult owner_of(const void *h, int kernel, uintptr_t *owner) {
  int known;
  struct fake_fn *e = fn_of(h, &known);
  if (!e || e->kernel != kernel) return CUDA_ERROR_INVALID_HANDLE;
  *owner = e->owner;
  return CUDA_SUCCESS;
}
static CUresult f_FuncGetModule(CUmodule *m, CUfunction f) { return owner_of(f, 0, (uintptr_t *)m); }
static CUresult f_KernelGetLibrary(CUlibrary *l, CUkernel k) { return owner_of(k, 1, (uintptr_t *)l); }
static CUresult find_fn(void **out, uintptr_t owner, int kernel, const char *name) {
  for (int i = 0; i < FAKE_FUNCS; i++)
    if (funcs[i].owner == owner && funcs[i].kernel == kernel && !strcmp(funcs[i].name, name)) {
      *out = &funcs[i];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
static CUresult f_ModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  return find_fn((void **)f, (uintptr_t)m, 0, name);
}
static CUresult f_LibraryGetKernel(CUkernel *k, CUlibrary l, const char *name) {
  return find_fn((void **)k, (uintptr_t)l, 1, name);
}
static void drop_globals(uintptr_t owner);
static CUresult unload(uintptr_t owner, int kernel) {
  for (int i = 0; i < FAKE_FUNCS; i++)
    if (funcs[i].owner == owner && funcs[i].kernel == kernel) funcs[i].owner = 0;
  drop_globals(owner);
  return CUDA_SUCCESS;
}
static CUresult f_ModuleUnload(CUmodule m) { return unload((uintptr_t)m, 0); }
static CUresult f_LibraryUnload(CUlibrary l) { return unload((uintptr_t)l, 1); }

/* the latest launch, for the test to read: the function it got and its
 * parameter bytes as the driver lays them out (from kernelParams by the
 * function's parameter offsets, or the extra buffer as given) */
const void *fake_launched;
unsigned char fake_launch_params[4096];
size_t fake_launch_bytes;
static CUresult record_launch(CUfunction f, void **args, void **extra) {
  int known, kernel;
  struct fake_fn *e = fn_of(f, &known);
  fake_launched = f;
  fake_launch_bytes = 0;
  memset(fake_launch_params, 0, sizeof fake_launch_params);
  if (known && !e) return CUDA_ERROR_INVALID_HANDLE;
  if (args && extra) return CUDA_ERROR_INVALID_VALUE;
  kernel = e && e->kernel;
  size_t off, size;
  for (size_t i = 0; args && param_info(f, kernel, i, &off, &size) == CUDA_SUCCESS; i++) {
    if (off + size > sizeof fake_launch_params) return CUDA_ERROR_INVALID_VALUE;
    memcpy(fake_launch_params + off, args[i], size);
    if (off + size > fake_launch_bytes) fake_launch_bytes = off + size;
  }
  const void *buf = NULL;
  size_t n = 0;
  for (int i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
    else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) n = *(size_t *)extra[i + 1];
    else return CUDA_ERROR_INVALID_VALUE;
  }
  if (extra && (!buf || n > sizeof fake_launch_params)) return CUDA_ERROR_INVALID_VALUE;
  if (extra) memcpy(fake_launch_params, buf, fake_launch_bytes = n);
  return CUDA_SUCCESS;
}
static CUresult f_MemsetD8(CUdeviceptr d, unsigned char v, size_t n) {
  if (!fake_vmm_is_mapped(vmm, d)) memset((void *)d, v, n);
  return CUDA_SUCCESS;
}
static CUresult f_MemHostRegister(void *p, size_t n, unsigned f) { (void)p; (void)n; (void)f; return CUDA_SUCCESS; }
static CUresult f_MemHostGetDevicePointer(CUdeviceptr *d, void *h, unsigned f) {
  (void)f;
  *d = (CUdeviceptr)h;
  return CUDA_SUCCESS;
}
/* like the driver on VMM memory: the whole reservation; on its own
 * allocations, the allocation */
static CUresult f_MemGetAddressRange(CUdeviceptr *b, size_t *n, CUdeviceptr p) {
  uint64_t base, size;
  if (!fake_vmm_reservation(vmm, p, &base, &size) && !driver_alloc(p, &base, &size)) return CUDA_ERROR_INVALID_VALUE;
  if (b) *b = base;
  if (n) *n = size;
  return CUDA_SUCCESS;
}
static CUresult f_PointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr p) {
  CUdeviceptr b;
  size_t n;
  if (f_MemGetAddressRange(&b, &n, p) != CUDA_SUCCESS) return CUDA_ERROR_INVALID_VALUE;
  if (a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) *(CUdeviceptr *)data = b;
  else if (a == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *(size_t *)data = n;
  else return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
static CUresult f_PointerGetAttributes(unsigned count, CUpointer_attribute *a, void **data, CUdeviceptr p) {
  for (unsigned i = 0; i < count; i++) {
    CUresult r = f_PointerGetAttribute(data[i], a[i], p);
    if (r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

/* the stream-ordered calls: the last stream waited on, for the test to read */
uint64_t fake_synced_stream = 0xdead;
int fake_sync_calls;
static CUresult f_StreamSynchronize(CUstream s) {
  live_handle("cuStreamSynchronize", s);
  fake_synced_stream = (uint64_t)(uintptr_t)s;
  fake_sync_calls++;
  return CUDA_SUCCESS;
}
/* stream 0x99 is being captured into a graph; with fake_capturing_error
 * set by a test, every stream's status is that error instead (as the
 * legacy stream's is while another stream captures) */
CUresult fake_capturing_error;
static CUresult f_StreamIsCapturing(CUstream s, CUstreamCaptureStatus *c) {
  if (fake_capturing_error) return fake_capturing_error;
  *c = (uintptr_t)s == 0x99 ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
static CUresult f_MemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) {
  (void)s;
  return f_MemAlloc(p, n);
}
static CUresult f_MemFreeAsync(CUdeviceptr p, CUstream s) {
  (void)s;
  return f_MemFree(p);
}
static CUresult f_MemAllocPitch(CUdeviceptr *p, size_t *pitch, size_t w, size_t h, unsigned e) {
  (void)e;
  *pitch = w;
  return f_MemAlloc(p, w * h);
}
/* copies and sets whose ranges gsan checks: the fake only counts the calls
 * that reach it */
int fake_copies;
static CUresult f_Copy2D(const CUDA_MEMCPY2D *c) { (void)c; fake_copies++; return CUDA_SUCCESS; }
static CUresult f_Copy3D(const CUDA_MEMCPY3D *c) { (void)c; fake_copies++; return CUDA_SUCCESS; }
static CUresult f_SetD2D8(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) {
  (void)d; (void)p; (void)v; (void)w; (void)h;
  fake_copies++;
  return CUDA_SUCCESS;
}
static CUresult f_Peer(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) {
  (void)d; (void)dc; (void)s; (void)sc; (void)n;
  fake_copies++;
  return CUDA_SUCCESS;
}
/* CUDA 13's signature, and 12.8's with failIdx: the version asked for picks */
static CUresult f_Batch(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t c, CUmemcpyAttributes *a, size_t *ai,
                        size_t na, CUstream st) {
  (void)d; (void)s; (void)n; (void)c; (void)a; (void)ai; (void)na; (void)st;
  fake_copies++;
  return CUDA_SUCCESS;
}
static CUresult f_Batch12(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t c, CUmemcpyAttributes *a, size_t *ai,
                          size_t na, size_t *fail, CUstream st) {
  (void)d; (void)s; (void)n; (void)c; (void)a; (void)ai; (void)na; (void)st;
  *fail = 0;
  fake_copies++;
  return CUDA_SUCCESS;
}
static CUresult f_Batch3D(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, unsigned long long f, CUstream st) {
  (void)n; (void)o; (void)f; (void)st;
  fake_copies++;
  return CUDA_SUCCESS;
}
static CUresult f_Batch3D12(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, size_t *fail, unsigned long long f, CUstream st) {
  (void)n; (void)o; (void)f; (void)st;
  *fail = 0;
  fake_copies++;
  return CUDA_SUCCESS;
}
/* a CUDA array's handle is its element size in bytes: float with that many
 * bytes / 4 channels; any other handle is no array */
static CUresult f_Array3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray a) {
  uintptr_t bytes = (uintptr_t)a;
  if (bytes != 4 && bytes != 8 && bytes != 16) return CUDA_ERROR_INVALID_HANDLE;
  memset(d, 0, sizeof *d);
  d->Format = CU_AD_FORMAT_FLOAT;
  d->NumChannels = (unsigned)(bytes / 4);
  d->Width = 1024;
  return CUDA_SUCCESS;
}

/* memory pools: the default pool is 0x5001; created pools count up from 0x6000 */
static CUresult f_DefaultPool(CUmemoryPool *p, CUdevice d) {
  (void)d;
  *p = (CUmemoryPool)(uintptr_t)0x5001;
  return CUDA_SUCCESS;
}
static CUresult f_PoolCreate(CUmemoryPool *p, const CUmemPoolProps *props) {
  static uintptr_t next = 0x6000;
  (void)props;
  *p = (CUmemoryPool)next++;
  return CUDA_SUCCESS;
}
static CUresult f_PoolDestroy(CUmemoryPool p) { (void)p; return CUDA_SUCCESS; }
static CUresult f_AllocFromPool(CUdeviceptr *p, size_t n, CUmemoryPool pool, CUstream s) {
  (void)pool; (void)s;
  return f_MemAlloc(p, n);
}

/* gsan's queued slot-table writes: a stream of its own, a value write that
 * lands at once, and an event that stays in flight until the test says */
int fake_value_writes, fake_stream_waits, fake_launches, fake_event_done;
uint64_t fake_waiting_stream;
static uintptr_t own_handle(unsigned kind) {
  return kind | (uintptr_t)fake_current_device << 8 | (uintptr_t)fake_ctx_gen[fake_current_device] << 12;
}
static void live_handle(const char *api, const void *h) {
  uintptr_t v = (uintptr_t)h;
  unsigned dev = (unsigned)(v >> 8 & 0xf);
  if (((v & 0xff) != 0x55 && (v & 0xff) != 0x66) || v >> 32 || dev >= FAKE_DEVICES) return;
  if ((int)(v >> 12) == fake_ctx_gen[dev]) return;
  fprintf(stderr, "fake driver: %s given %s 0x%llx of device %u's context before its reset\n", api,
          (v & 0xff) == 0x55 ? "stream" : "event", (unsigned long long)v, dev);
  abort();
}
static CUresult f_StreamCreate(CUstream *s, unsigned f) {
  (void)f;
  *s = (CUstream)own_handle(0x55);
  return CUDA_SUCCESS;
}
uint64_t fake_written_stream = 0xdead; /* the stream of the latest single value write */
static CUresult f_StreamWriteValue64(CUstream s, CUdeviceptr a, cuuint64_t v, unsigned f) {
  live_handle("cuStreamWriteValue64", s);
  (void)f;
  if (fake_sticky_fault) return CUDA_ERROR_LAUNCH_FAILED;
  fake_written_stream = (uint64_t)(uintptr_t)s;
  fake_value_writes++;
  return (CUresult)ops.set64(ops.ctx, a, v);
}
int fake_batches;
static CUresult f_StreamBatchMemOp(CUstream s, unsigned n, CUstreamBatchMemOpParams *ops_, unsigned f) {
  (void)f;
  live_handle("cuStreamBatchMemOp", s);
  if (fake_sticky_fault) return CUDA_ERROR_LAUNCH_FAILED;
  if (n == 0 || n >= 256) return CUDA_ERROR_INVALID_VALUE;
  fake_batches++;
  for (unsigned i = 0; i < n; i++) {
    int wide = ops_[i].operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
    if (!wide && ops_[i].operation != CU_STREAM_MEM_OP_WRITE_VALUE_32) return CUDA_ERROR_INVALID_VALUE;
    if (wide) fake_value_writes++;
    int r = wide ? ops.set64(ops.ctx, ops_[i].writeValue.address, ops_[i].writeValue.value64)
                 : ops.set32(ops.ctx, ops_[i].writeValue.address, ops_[i].writeValue.value);
    if (r) return (CUresult)r;
  }
  return CUDA_SUCCESS;
}
static CUresult f_MemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  live_handle("cuMemsetD8Async", s);
  if (fake_sticky_fault) return CUDA_ERROR_LAUNCH_FAILED;
  if (fake_vmm_is_mapped(vmm, d)) {
    if (v) return CUDA_ERROR_NOT_SUPPORTED; /* gsan only zeroes */
    return (CUresult)ops.zero(ops.ctx, d, n);
  }
  memset((void *)d, v, n);
  return CUDA_SUCCESS;
}
static CUresult f_EventCreate(CUevent *e, unsigned f) {
  (void)f;
  *e = (CUevent)own_handle(0x66);
  return CUDA_SUCCESS;
}
uint64_t fake_recorded_stream = 0xdead; /* the stream of the latest event record */
static CUresult f_EventRecord(CUevent e, CUstream s) {
  live_handle("cuEventRecord", e);
  live_handle("cuEventRecord", s);
  fake_recorded_stream = (uint64_t)(uintptr_t)s;
  fake_event_done = 0;
  return CUDA_SUCCESS;
}
static CUresult f_EventQuery(CUevent e) { live_handle("cuEventQuery", e); return fake_event_done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY; }
static CUresult f_EventSynchronize(CUevent e) { live_handle("cuEventSynchronize", e); fake_event_done = 1; return CUDA_SUCCESS; }
static CUresult f_StreamWaitEvent(CUstream s, CUevent e, unsigned f) {
  (void)f;
  live_handle("cuStreamWaitEvent", e);
  fake_stream_waits++;
  fake_waiting_stream = (uint64_t)(uintptr_t)s;
  return CUDA_SUCCESS;
}
/* the context limits: only the malloc heap size is kept (the driver's
 * default, 8 MiB, until a test sets it) */
static size_t heap_limit = 8u << 20;
static CUresult f_CtxSetLimit(CUlimit l, size_t v) {
  if (l == CU_LIMIT_MALLOC_HEAP_SIZE) heap_limit = v;
  return CUDA_SUCCESS;
}
static CUresult f_CtxGetLimit(size_t *v, CUlimit l) {
  *v = l == CU_LIMIT_MALLOC_HEAP_SIZE ? heap_limit : 0;
  return CUDA_SUCCESS;
}
/* like the device: a block whose threads need more than the 64K registers
 * of a multiprocessor (8 a thread at a time) is refused, for a function
 * whose registers a test set */
static int too_big(CUfunction f, unsigned threads) {
  int known;
  struct fake_fn *e = fn_of(f, &known);
  return e && e->regs && (unsigned long)(e->regs + 7) / 8 * 8 * threads > 65536ul;
}
static CUresult f_LaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned sh, CUstream s, void **args, void **extra) {
  (void)gx; (void)gy; (void)gz; (void)sh; (void)s;
  if (too_big(f, bx * by * bz)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  fake_launches++;
  return record_launch(f, args, extra);
}
static CUresult f_LaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **extra) {
  if (c && too_big(f, c->blockDimX * c->blockDimY * c->blockDimZ)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  fake_launches++;
  return record_launch(f, args, extra);
}
static CUresult f_LaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz, unsigned sh, CUstream s, void **args) {
  (void)gx; (void)gy; (void)gz; (void)sh; (void)s;
  if (too_big(f, bx * by * bz)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  fake_launches++;
  return record_launch(f, args, NULL);
}

/* graphs: memory nodes come from the fake's allocator; empty nodes are counted */
int fake_empty_nodes, fake_mem_nodes;
static CUresult f_GraphAddEmptyNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd) {
  (void)g; (void)d; (void)nd;
  *n = (CUgraphNode)(uintptr_t)0x700;
  fake_empty_nodes++;
  return CUDA_SUCCESS;
}
static CUresult f_GraphAddMemAllocNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd,
                                       CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  (void)g; (void)d; (void)nd;
  *n = (CUgraphNode)(uintptr_t)0x800;
  fake_mem_nodes++;
  return f_MemAlloc(&p->dptr, p->bytesize);
}
static CUresult f_GraphAddMemFreeNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd, CUdeviceptr p) {
  (void)g; (void)d; (void)nd; (void)p;
  *n = (CUgraphNode)(uintptr_t)0x900;
  fake_mem_nodes++;
  return CUDA_SUCCESS;
}

/* the generic cuGraphAddNode (CUDA 12.2's, 12.3's with edge data): memory
 * nodes as the calls above make them, empty nodes counted; what it was
 * given last, for the test to see what gsan passed on */
int fake_add_node_calls, fake_last_node_type;
void *fake_last_node_params;
const void *fake_last_node_edges;
static CUresult add_node(CUgraphNode *n, CUgraphNodeParams *p) {
  fake_add_node_calls++;
  fake_last_node_params = p;
  fake_last_node_type = p->type;
  *n = (CUgraphNode)(uintptr_t)0xa00;
  if (p->type == CU_GRAPH_NODE_TYPE_EMPTY) fake_empty_nodes++;
  if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC || p->type == CU_GRAPH_NODE_TYPE_MEM_FREE) fake_mem_nodes++;
  if (p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) return f_MemAlloc(&p->alloc.dptr, p->alloc.bytesize);
  return CUDA_SUCCESS;
}
static CUresult f_GraphAddNode12(CUgraphNode *n, CUgraph g, const CUgraphNode *d, size_t nd, CUgraphNodeParams *p) {
  (void)g; (void)d; (void)nd;
  fake_last_node_edges = NULL;
  return add_node(n, p);
}
static CUresult f_GraphAddNode(CUgraphNode *n, CUgraph g, const CUgraphNode *d, const CUgraphEdgeData *e, size_t nd,
                               CUgraphNodeParams *p) {
  (void)g; (void)d; (void)nd;
  fake_last_node_edges = e;
  return add_node(n, p);
}

/* Module loading: every image the driver is handed (modules, libraries,
 * link inputs) is kept, with a __gsan_ctx of its own when it declares one,
 * for the test to read through fake_image and fake_image_ctx. Like the
 * driver, it refuses what is neither PTX text nor a fatbin nor a cubin; with
 * FAKE_REFUSE_GSAN set, also gsan's instrumented PTX (a driver whose JIT
 * rejects it), so that gsan's fallback to the original shows. */
#define FAKE_IMAGES 64
static struct {
  unsigned char *bytes;
  size_t len;
  int type; /* CUjitInputType for link inputs, -1 for modules and libraries */
  unsigned char ctx[64];
} images[FAKE_IMAGES];
int fake_images;

/* an image's length when the caller gives none: text to its NUL (with it),
 * a fatbin by its header, a cubin to its section headers */
static size_t image_len(const unsigned char *p) {
  uint32_t magic;
  memcpy(&magic, p, 4);
  if (magic == 0xBA55ED50u) {
    uint64_t n;
    memcpy(&n, p + 8, 8);
    return (size_t)(p[6] | p[7] << 8) + n;
  }
  if (!memcmp(p, "\177ELF", 4)) {
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, p + 0x28, 8);
    memcpy(&shentsize, p + 0x3a, 2);
    memcpy(&shnum, p + 0x3c, 2);
    return shoff + (size_t)shentsize * shnum;
  }
  return strlen((const char *)p) + 1;
}

static CUresult keep_image(const void *image, size_t len, int type, uintptr_t *handle) {
  if (!image) return CUDA_ERROR_INVALID_VALUE;
  if (fake_images == FAKE_IMAGES) return CUDA_ERROR_OUT_OF_MEMORY;
  if (!len) len = image_len(image);
  int i = fake_images++;
  images[i].bytes = malloc(len + 1);
  memcpy(images[i].bytes, image, len);
  images[i].bytes[len] = 0;
  images[i].len = len;
  images[i].type = type;
  if (handle) *handle = (uintptr_t)i + 1;
  const unsigned char *p = image;
  int known = (len > 4 && (!memcmp(p, "\x50\xed\x55\xba", 4) || !memcmp(p, "\177ELF", 4))) ||
              memmem(p, len, ".version", 8);
  if (!known) return CUDA_ERROR_INVALID_IMAGE;
  if (getenv("FAKE_REFUSE_GSAN") && memmem(p, len, "__gsan_report", 13)) return CUDA_ERROR_INVALID_PTX;
  return CUDA_SUCCESS;
}

static CUresult keep_file(const char *path, int type, uintptr_t *handle) {
  FILE *f = fopen(path, "rb");
  if (!f) return CUDA_ERROR_FILE_NOT_FOUND;
  static unsigned char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return keep_image(buf, n, type, handle);
}

/* what the driver was handed the i-th time, and the __gsan_ctx of that module */
const void *fake_image(int i, size_t *len, int *type) {
  if (i < 0 || i >= fake_images) return NULL;
  *len = images[i].len;
  *type = images[i].type;
  return images[i].bytes;
}
const unsigned char *fake_image_ctx(int i) { return i >= 0 && i < fake_images ? images[i].ctx : NULL; }

static CUresult f_ModuleLoadData(CUmodule *m, const void *image) { return keep_image(image, 0, -1, (uintptr_t *)m); }
static CUresult f_ModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v) {
  (void)n; (void)o; (void)v;
  return keep_image(image, 0, -1, (uintptr_t *)m);
}
static CUresult f_ModuleLoad(CUmodule *m, const char *path) { return keep_file(path, -1, (uintptr_t *)m); }
static CUresult f_LibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo, void **jv, unsigned nj,
                                  CUlibraryOption *lo, void **lv, unsigned nl) {
  (void)jo; (void)jv; (void)nj; (void)lo; (void)lv; (void)nl;
  return keep_image(code, 0, -1, (uintptr_t *)l);
}
static CUresult f_LibraryLoadFromFile(CUlibrary *l, const char *path, CUjit_option *jo, void **jv, unsigned nj,
                                      CUlibraryOption *lo, void **lv, unsigned nl) {
  (void)jo; (void)jv; (void)nj; (void)lo; (void)lv; (void)nl;
  return keep_file(path, -1, (uintptr_t *)l);
}
/* Globals a test declares (fake_add_global): a name and its bytes in a
 * module or library, host memory that stands in for device memory as
 * __gsan_ctx does (cuMemcpyDtoH and cuMemcpyDtoHAsync read it so), found
 * by cuModuleGetGlobal and cuLibraryGetGlobal before any image's. */
#define FAKE_GLOBALS 32
static struct {
  uintptr_t owner; /* module or library handle; 0: a free slot */
  char name[128];
  unsigned char *bytes;
  size_t n;
} globals[FAKE_GLOBALS];

/* an unloaded module's or library's globals are gone */
static void drop_globals(uintptr_t owner) {
  for (int i = 0; i < FAKE_GLOBALS; i++)
    if (owner && globals[i].owner == owner) {
      free(globals[i].bytes);
      globals[i].bytes = NULL;
      globals[i].owner = 0;
    }
}

/* copies out of declared globals (cuMemcpyDtoH and cuMemcpyDtoHAsync),
 * for the test to read */
int fake_global_reads;
static void count_global_read(CUdeviceptr d) {
  for (int i = 0; i < FAKE_GLOBALS; i++) {
    CUdeviceptr g = (CUdeviceptr)globals[i].bytes;
    if (globals[i].owner && d >= g && d - g < (globals[i].n ? globals[i].n : 1)) {
      fake_global_reads++;
      return;
    }
  }
}

/* 0, or -1 when the table is full or the arguments are not usable */
int fake_add_global(uintptr_t owner, const char *name, const void *bytes, size_t n) {
  if (!owner || !name || strlen(name) >= sizeof globals[0].name || (n && !bytes)) return -1;
  for (int i = 0; i < FAKE_GLOBALS; i++)
    if (!globals[i].owner) {
      globals[i].bytes = malloc(n ? n : 1);
      if (!globals[i].bytes) return -1;
      if (n) memcpy(globals[i].bytes, bytes, n);
      globals[i].owner = owner;
      snprintf(globals[i].name, sizeof globals[i].name, "%s", name);
      globals[i].n = n;
      return 0;
    }
  return -1;
}

/* a declared global, else a module's or library's __gsan_ctx: host memory
 * here, as device memory is */
static CUresult get_global(CUdeviceptr *g, size_t *bytes, uintptr_t handle, const char *name) {
  for (int i = 0; handle && i < FAKE_GLOBALS; i++)
    if (globals[i].owner == handle && !strcmp(globals[i].name, name)) {
      *g = (CUdeviceptr)globals[i].bytes;
      *bytes = globals[i].n;
      return CUDA_SUCCESS;
    }
  if (!handle || handle > (uintptr_t)fake_images) return CUDA_ERROR_INVALID_HANDLE;
  int i = (int)handle - 1;
  if (strcmp(name, "__gsan_ctx") || !memmem(images[i].bytes, images[i].len, "__gsan_ctx", 10)) return CUDA_ERROR_NOT_FOUND;
  *g = (CUdeviceptr)images[i].ctx;
  *bytes = sizeof images[i].ctx;
  return CUDA_SUCCESS;
}
static CUresult f_ModuleGetGlobal(CUdeviceptr *g, size_t *bytes, CUmodule m, const char *name) {
  return get_global(g, bytes, (uintptr_t)m, name);
}
static CUresult f_LibraryGetGlobal(CUdeviceptr *g, size_t *bytes, CUlibrary l, const char *name) {
  return get_global(g, bytes, (uintptr_t)l, name);
}
static CUresult f_LinkCreate(unsigned n, CUjit_option *o, void **v, CUlinkState *st) {
  (void)n; (void)o; (void)v;
  *st = (CUlinkState)(uintptr_t)0x11;
  return CUDA_SUCCESS;
}
static CUresult f_LinkAddData(CUlinkState st, CUjitInputType type, void *data, size_t size, const char *name,
                              unsigned n, CUjit_option *o, void **v) {
  (void)st; (void)name; (void)n; (void)o; (void)v;
  return keep_image(data, size, (int)type, NULL);
}
static CUresult f_LinkAddFile(CUlinkState st, CUjitInputType type, const char *path, unsigned n, CUjit_option *o,
                              void **v) {
  (void)st; (void)n; (void)o; (void)v;
  return keep_file(path, (int)type, NULL);
}

/* set by a test: the next waits return a kernel's fault (an access to an
 * unmapped address: cudaErrorIllegalAddress) */
int fake_illegal_address;
static CUresult f_CtxSynchronize(void) {
  if (fake_illegal_address) return CUDA_ERROR_ILLEGAL_ADDRESS;
  return fake_sticky_fault ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
}

/* CUDA 13 gave cuCtxSynchronize a context argument under the same name */
uint64_t fake_synced_ctx;
static CUresult f_CtxSynchronize13(CUcontext c) {
  fake_synced_ctx = (uint64_t)(uintptr_t)c;
  return fake_illegal_address ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status) {
  static const struct { const char *name; void *fn; } table[] = {
      {"cuGetProcAddress", (void *)cuGetProcAddress_v2},
      {"cuInit", (void *)f_Init},
      {"cuCtxGetDevice", (void *)f_CtxGetDevice},
      {"cuCtxGetCurrent", (void *)f_CtxGetCurrent},
      {"cuCtxSetLimit", (void *)f_CtxSetLimit},
      {"cuCtxGetLimit", (void *)f_CtxGetLimit},
      {"cuCtxPushCurrent", (void *)f_CtxPushCurrent},
      {"cuCtxPopCurrent", (void *)f_CtxPopCurrent},
      {"cuDevicePrimaryCtxRetain", (void *)f_DevicePrimaryCtxRetain},
      {"cuDevicePrimaryCtxReset", (void *)f_DevicePrimaryCtxReset},
      {"cuCtxGetId", (void *)f_CtxGetId},
      {"cuDeviceGetCount", (void *)f_DeviceGetCount},
      {"cuDeviceGetAttribute", (void *)f_DeviceGetAttribute},
      {"cuCtxSynchronize", (void *)f_CtxSynchronize},
      {"cuMemAlloc", (void *)f_MemAlloc},
      {"cuMemAllocManaged", (void *)f_MemAllocManaged},
      {"cuMemFree", (void *)f_MemFree},
      {"cuMemAllocAsync", (void *)f_MemAllocAsync},
      {"cuMemFreeAsync", (void *)f_MemFreeAsync},
      {"cuMemAllocPitch", (void *)f_MemAllocPitch},
      {"cuStreamSynchronize", (void *)f_StreamSynchronize},
      {"cuStreamIsCapturing", (void *)f_StreamIsCapturing},
      {"cuMemAddressReserve", (void *)f_MemAddressReserve},
      {"cuMemAddressFree", (void *)f_MemAddressFree},
      {"cuMemCreate", (void *)f_MemCreate},
      {"cuMemRelease", (void *)f_MemRelease},
      {"cuMemMap", (void *)f_MemMap},
      {"cuMemUnmap", (void *)f_MemUnmap},
      {"cuMemSetAccess", (void *)f_MemSetAccess},
      {"cuMemGetAllocationGranularity", (void *)f_MemGetAllocationGranularity},
      {"cuMemcpyHtoD", (void *)f_MemcpyHtoD},
      {"cuMemcpyDtoH", (void *)f_MemcpyDtoH},
      {"cuMemsetD8", (void *)f_MemsetD8},
      {"cuMemHostRegister", (void *)f_MemHostRegister},
      {"cuMemHostGetDevicePointer", (void *)f_MemHostGetDevicePointer},
      {"cuLibraryLoadData", (void *)f_LibraryLoadData},
      {"cuLibraryLoadFromFile", (void *)f_LibraryLoadFromFile},
      {"cuLibraryGetGlobal", (void *)f_LibraryGetGlobal},
      {"cuModuleLoadData", (void *)f_ModuleLoadData},
      {"cuModuleLoadDataEx", (void *)f_ModuleLoadDataEx},
      {"cuModuleLoadFatBinary", (void *)f_ModuleLoadData},
      {"cuModuleLoad", (void *)f_ModuleLoad},
      {"cuModuleGetGlobal", (void *)f_ModuleGetGlobal},
      {"cuLinkCreate", (void *)f_LinkCreate},
      {"cuLinkAddData", (void *)f_LinkAddData},
      {"cuLinkAddFile", (void *)f_LinkAddFile},
      {"cuMemGetAddressRange", (void *)f_MemGetAddressRange},
      {"cuPointerGetAttribute", (void *)f_PointerGetAttribute},
      {"cuPointerGetAttributes", (void *)f_PointerGetAttributes},
      {"cuMemcpy2D", (void *)f_Copy2D},
      {"cuMemcpy3D", (void *)f_Copy3D},
      {"cuMemsetD2D8", (void *)f_SetD2D8},
      {"cuMemcpyPeer", (void *)f_Peer},
      {"cuMemcpyBatchAsync", (void *)f_Batch},
      {"cuMemcpy3DBatchAsync", (void *)f_Batch3D},
      {"cuArray3DGetDescriptor", (void *)f_Array3DGetDescriptor},
      {"cuDeviceGetDefaultMemPool", (void *)f_DefaultPool},
      {"cuMemPoolCreate", (void *)f_PoolCreate},
      {"cuMemPoolDestroy", (void *)f_PoolDestroy},
      {"cuMemAllocFromPoolAsync", (void *)f_AllocFromPool},
      {"cuStreamCreate", (void *)f_StreamCreate},
      {"cuStreamWriteValue64", (void *)f_StreamWriteValue64},
      {"cuMemsetD8Async", (void *)f_MemsetD8Async},
      {"cuStreamBatchMemOp", (void *)f_StreamBatchMemOp},
      {"cuEventCreate", (void *)f_EventCreate},
      {"cuEventRecord", (void *)f_EventRecord},
      {"cuEventQuery", (void *)f_EventQuery},
      {"cuEventSynchronize", (void *)f_EventSynchronize},
      {"cuStreamWaitEvent", (void *)f_StreamWaitEvent},
      {"cuLaunchKernel", (void *)f_LaunchKernel},
      {"cuMemcpyDtoHAsync", (void *)f_MemcpyDtoHAsync},
      {"cuFuncGetName", (void *)f_FuncGetName},
      {"cuFuncGetParamInfo", (void *)f_FuncGetParamInfo},
      {"cuFuncGetAttribute", (void *)f_FuncGetAttribute},
      {"cuKernelGetAttribute", (void *)f_KernelGetAttribute},
      {"cuFuncGetModule", (void *)f_FuncGetModule},
      {"cuModuleGetFunction", (void *)f_ModuleGetFunction},
      {"cuModuleUnload", (void *)f_ModuleUnload},
      {"cuKernelGetName", (void *)f_KernelGetName},
      {"cuKernelGetParamInfo", (void *)f_KernelGetParamInfo},
      {"cuKernelGetLibrary", (void *)f_KernelGetLibrary},
      {"cuLibraryGetKernel", (void *)f_LibraryGetKernel},
      {"cuLibraryUnload", (void *)f_LibraryUnload},
      {"cuLaunchKernelEx", (void *)f_LaunchKernelEx},
      {"cuLaunchCooperativeKernel", (void *)f_LaunchCooperativeKernel},
      {"cuGraphAddEmptyNode", (void *)f_GraphAddEmptyNode},
      {"cuGraphAddMemAllocNode", (void *)f_GraphAddMemAllocNode},
      {"cuGraphAddMemFreeNode", (void *)f_GraphAddMemFreeNode},
  };
  if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
  if (version >= 13000 && !strcmp(symbol, "cuCtxSynchronize")) {
    *pfn = (void *)f_CtxSynchronize13;
    return CUDA_SUCCESS;
  }
  if (!strcmp(symbol, "cuGraphAddNode")) {
    *pfn = version < 12030 ? (void *)f_GraphAddNode12 : (void *)f_GraphAddNode;
    return CUDA_SUCCESS;
  }
  if (version < 13000 && !strcmp(symbol, "cuMemcpyBatchAsync")) {
    *pfn = (void *)f_Batch12;
    return CUDA_SUCCESS;
  }
  if (version < 13000 && !strcmp(symbol, "cuMemcpy3DBatchAsync")) {
    *pfn = (void *)f_Batch3D12;
    return CUDA_SUCCESS;
  }
  /* calls newer than the version asked for are not found, as the driver
   * does (cuFuncGetName and its kin are CUDA 12.3-12.4) */
  static const struct { const char *name; int since; } newer[] = {
      {"cuFuncGetName", 12030}, {"cuKernelGetName", 12030},
      {"cuFuncGetParamInfo", 12040}, {"cuKernelGetParamInfo", 12040}, {"cuKernelGetLibrary", 12050},
      {"cuFuncGetModule", 11000}, {"cuLibraryGetKernel", 12000}};
  for (size_t i = 0; i < sizeof newer / sizeof newer[0]; i++)
    if (version < newer[i].since && !strcmp(symbol, newer[i].name)) {
      *pfn = NULL;
      if (status) *status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
      return CUDA_ERROR_NOT_FOUND;
    }
  if ((flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && !strcmp(symbol, "cuMemcpyHtoD")) {
    *pfn = (void *)f_MemcpyHtoD_ptsz;
    return CUDA_SUCCESS;
  }
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(symbol, table[i].name)) {
      *pfn = table[i].fn;
      return CUDA_SUCCESS;
    }
  *pfn = NULL;
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

/* the names a program linked with -lcuda calls directly (cuda.h maps most to _v2) */
CUresult cuInit(unsigned flags) { return f_Init(flags); }
CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { return f_MemAlloc(p, n); }
CUresult cuMemFree(CUdeviceptr p) { return f_MemFree(p); }
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n) { return f_MemcpyHtoD(d, h, n); }
CUresult cuMemAllocPitch(CUdeviceptr *p, size_t *pitch, size_t w, size_t h, unsigned e) {
  return f_MemAllocPitch(p, pitch, w, h, e);
}
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) { return f_MemAllocAsync(p, n, s); }
CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s) { return f_MemFreeAsync(p, s); }

/* a program built for the per-thread default stream links these names */
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void *h, size_t n) { return f_MemcpyHtoD_ptsz(d, h, n); }
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned sh, CUstream s, void **args, void **extra) {
  return f_LaunchKernel(f, gx, gy, gz, bx, by, bz, sh, s, args, extra);
}

/* the fake's own cuGetProcAddress (bound inside the library: -Bsymbolic), for
 * a test to tell it from what dlsym handed out */
void *fake_own_get_proc_address(void) { return (void *)cuGetProcAddress_v2; }
