/* libgsan's state and hooks (rt_gsan.h). Set up lazily: the driver table
 * when cudart first asks for cuGetProcAddress, the arena and the ring at the
 * first allocation or module load (a context exists by then). Nothing here
 * aborts the program: if gsan cannot set itself up it says so once and the
 * program runs on the driver's own allocator. */
#include "rt_gsan.h"

#include "rt_arena.h"
#include "rt_depot.h"
#include "rt_fatbin.h"
#include "rt_flags.h"
#include "rt_report.h"
#include "rt_ring.h"
#include "rt_vmm_cuda.h"

#include <gsan/abi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

#define MAX_TABLES 1024

/* the one context: everything the hooks share */
static struct rt_gsan {
  pthread_mutex_t lock;
  get_proc_fn get_proc;
  rt_flags flags;
  int ready, failed;
  struct {
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*LibraryLoadData)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *,
                                void **, unsigned);
    CUresult (*LibraryGetGlobal)(CUdeviceptr *, size_t *, CUlibrary, const char *);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
    CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*CtxSynchronize)(void);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*ThreadExchangeStreamCaptureMode)(CUstreamCaptureMode *);
    CUresult (*CtxGetDevice)(CUdevice *);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*MemHostRegister)(void *, size_t, unsigned);
    CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  } cu;
  rt_cuda_api vmm_api;
  rt_vmm vmm;
  rt_arena *arena;
  int arch;                     /* e.g. 90 */
  rt_ring ring;
  CUdeviceptr ring_ctl;
  unsigned char ctx[GSAN_CTX_BYTES];
  rt_site_table *tables[MAX_TABLES];
  int ntables;
  rt_log log;
  pthread_t monitor;
  CUstream own_stream; /* non-blocking, for gsan's own copies; 0 when none */
  volatile int stop;
} rt_gsan = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "==%ld==gsan: ", (long)getpid());
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* the host stacks a report shows: where the region was allocated and freed,
 * and the call being reported (symbolised now: reports are rare) */
typedef struct stacks {
  rt_stack alloc, freed, call;
  char buf[3][4096];
} stacks;

static void region_stacks(uint64_t base, int freed, rt_region *reg, stacks *s) {
  uint32_t a, f;
  rt_depot_lookup(base, &a, &f);
  const rt_trace *ta = rt_depot_get(a), *tf = rt_depot_get(f);
  if (ta) {
    rt_trace_symbolize(ta, &s->alloc, s->buf[0], sizeof s->buf[0]);
    reg->allocated = &s->alloc;
  }
  if (tf && freed) {
    rt_trace_symbolize(tf, &s->freed, s->buf[1], sizeof s->buf[1]);
    reg->freed = &s->freed;
  }
}

static const rt_stack *call_stack(stacks *s) {
  rt_trace t;
  rt_trace_capture(&t);
  rt_trace_symbolize(&t, &s->call, s->buf[2], sizeof s->buf[2]);
  return &s->call;
}

void *rt_gsan_real(const char *name) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  if (!rt_gsan.get_proc || rt_gsan.get_proc(name, &p, 13000, 0, &st) != CUDA_SUCCESS) return NULL;
  return p;
}

void rt_gsan_init_driver(void *get_proc) {
  pthread_mutex_lock(&rt_gsan.lock);
  if (!rt_gsan.get_proc) {
    rt_gsan.get_proc = (get_proc_fn)get_proc;
    rt_flags_defaults(&rt_gsan.flags);
    char err[256];
    if (rt_flags_parse(&rt_gsan.flags, getenv("GSAN_OPTIONS"), err, sizeof err) < 0) say("%s", err);
    rt_gsan.log.out = stderr;
    char path[600];
    rt_flags_log_path(&rt_gsan.flags, (long)getpid(), path, sizeof path);
    if (path[0] && !(rt_gsan.log.out = fopen(path, "a"))) {
      say("cannot open log_path '%s'; reports go to stderr", path);
      rt_gsan.log.out = stderr;
    }
    rt_gsan.log.json = rt_gsan.flags.log_format == RT_LOG_JSON;
    rt_gsan.log.pid = (long)getpid();
#define GET(field, name) *(void **)&rt_gsan.cu.field = rt_gsan_real(name)
    GET(MemAlloc, "cuMemAlloc");
    GET(MemFree, "cuMemFree");
    GET(LibraryLoadData, "cuLibraryLoadData");
    GET(LibraryGetGlobal, "cuLibraryGetGlobal");
    GET(ModuleLoadData, "cuModuleLoadData");
    GET(ModuleLoadDataEx, "cuModuleLoadDataEx");
    GET(ModuleGetGlobal, "cuModuleGetGlobal");
    GET(CtxSynchronize, "cuCtxSynchronize");
    GET(CtxGetDevice, "cuCtxGetDevice");
    GET(DeviceGetAttribute, "cuDeviceGetAttribute");
    GET(MemHostRegister, "cuMemHostRegister");
    GET(MemHostGetDevicePointer, "cuMemHostGetDevicePointer");
    GET(MemsetD8, "cuMemsetD8");
    GET(MemcpyHtoD, "cuMemcpyHtoD");
    GET(StreamSynchronize, "cuStreamSynchronize");
    GET(StreamIsCapturing, "cuStreamIsCapturing");
    GET(StreamCreate, "cuStreamCreate");
    GET(MemcpyHtoDAsync, "cuMemcpyHtoDAsync");
    GET(ThreadExchangeStreamCaptureMode, "cuThreadExchangeStreamCaptureMode");
    *(void **)&rt_gsan.vmm_api.MemAddressReserve = rt_gsan_real("cuMemAddressReserve");
    *(void **)&rt_gsan.vmm_api.MemAddressFree = rt_gsan_real("cuMemAddressFree");
    *(void **)&rt_gsan.vmm_api.MemCreate = rt_gsan_real("cuMemCreate");
    *(void **)&rt_gsan.vmm_api.MemRelease = rt_gsan_real("cuMemRelease");
    *(void **)&rt_gsan.vmm_api.MemMap = rt_gsan_real("cuMemMap");
    *(void **)&rt_gsan.vmm_api.MemUnmap = rt_gsan_real("cuMemUnmap");
    *(void **)&rt_gsan.vmm_api.MemSetAccess = rt_gsan_real("cuMemSetAccess");
    *(void **)&rt_gsan.vmm_api.MemcpyHtoD = rt_gsan_real("cuMemcpyHtoD");
    *(void **)&rt_gsan.vmm_api.MemGetAllocationGranularity = rt_gsan_real("cuMemGetAllocationGranularity");
#undef GET
    if (rt_gsan.flags.verbosity) say("interposed cuGetProcAddress");
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* ---- reports from the device ---- */
static const rt_site_table *table_for(uint64_t module) {
  for (int i = 0; i < rt_gsan.ntables; i++)
    if (rt_sites_module(rt_gsan.tables[i]) == module) return rt_gsan.tables[i];
  return NULL;
}

static void sink(void *arg, const gsan_record *rec) {
  (void)arg;
  const rt_site_table *t = table_for(rec->module_id);
  rt_site s;
  memset(&s, 0, sizeof s);
  if (!t || rt_sites_get(t, rec->site, &s) < 0) {
    s.func = "?";
    s.kind = 0;
  }
  rt_region reg = {rec->base, rec->size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0};
  rt_alloc_info info;
  int state = RT_SLOT_LIVE;
  if (s.root == GSAN_ROOT_VARIABLE) {
    reg.name = s.root_name;
    reg.space = s.root_space;
  } else if (rt_gsan.arena && rt_arena_find(rt_gsan.arena, rec->base, &info) == RT_OK) {
    state = info.state;
    reg.base = info.base;
    reg.size = info.size;
  }
  if (rt_gsan.flags.report_limit && rt_gsan.log.reports >= (unsigned)rt_gsan.flags.report_limit) return;
  static stacks st; /* the sink runs under rt_gsan.lock */
  if (s.root != GSAN_ROOT_VARIABLE && state != RT_SLOT_NEVER) region_stacks(reg.base, state == RT_SLOT_FREED, &reg, &st);
  rt_err_device e = {rt_classify_device(&s, rec, state), *rec, s, reg};
  rt_report_device(&rt_gsan.log, &e);
}

static void drain(int final) {
  if (!rt_gsan.ring.mem) return;
  pthread_mutex_lock(&rt_gsan.lock);
  rt_ring_drain(&rt_gsan.ring, final, sink, NULL);
  pthread_mutex_unlock(&rt_gsan.lock);
}

static void *monitor(void *arg) {
  (void)arg;
  struct timespec ts = {0, (long)rt_gsan.flags.monitor_ms * 1000000L};
  while (!rt_gsan.stop) {
    nanosleep(&ts, NULL);
    drain(0);
  }
  return NULL;
}

/* at exit: stop the monitor, take what the device wrote (a trapped kernel
 * may have left holes), and exit with exitcode if anything was reported */
#define LEAKS_LISTED 32
typedef struct leak_list { rt_leak l[LEAKS_LISTED]; unsigned n; uint64_t count, bytes; } leak_list;

static void note_leak(void *arg, const rt_alloc_info *info) {
  leak_list *ll = arg;
  static rt_stack st[LEAKS_LISTED];
  static char buf[LEAKS_LISTED][2048];
  if (ll->n < LEAKS_LISTED) {
    uint32_t a, f;
    rt_depot_lookup(info->base, &a, &f);
    const rt_trace *t = rt_depot_get(a);
    if (t) rt_trace_symbolize(t, &st[ll->n], buf[ll->n], sizeof buf[ll->n]);
    ll->l[ll->n] = (rt_leak){info->base, info->size, t ? &st[ll->n] : NULL};
    ll->n++;
  }
  ll->count++;
  ll->bytes += info->size;
}

static void at_exit(void) {
  if (!rt_gsan.ready) return;
  rt_gsan.stop = 1;
  pthread_join(rt_gsan.monitor, NULL);
  fflush(stdout); /* the program's own output before gsan's last words */
  drain(1);
  /* like LeakSanitizer: leaks matter only in a run with no other error (a
   * program stopped by one rarely gets to free its memory) */
  if (rt_gsan.flags.leak_check && !rt_gsan.log.reports) {
    static leak_list ll;
    rt_arena_foreach_live(rt_gsan.arena, note_leak, &ll);
    rt_err_leaks e = {ll.l, ll.n, ll.count, ll.bytes};
    rt_report_leaks(&rt_gsan.log, &e);
  }
  if (rt_gsan.log.out != stderr) fclose(rt_gsan.log.out);
  if (rt_gsan.log.reports) {
    fflush(NULL); /* the program's own output first: _exit skips stdio */
    _exit(rt_gsan.flags.exitcode);
  }
}

/* The arena and the ring for the current context's device; 0 when usable. */
static int ensure_ready(void) {
  if (rt_gsan.ready) return 0;
  if (rt_gsan.failed) return -1;
  pthread_mutex_lock(&rt_gsan.lock);
  if (rt_gsan.ready || rt_gsan.failed) goto out;
  CUdevice dev;
  int major = 0, minor = 0;
  if (rt_gsan.cu.CtxGetDevice(&dev) != CUDA_SUCCESS) goto out; /* no context yet: try later */
  rt_gsan.cu.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  rt_gsan.cu.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  rt_gsan.arch = major * 10 + minor;
  int err = rt_vmm_cuda(&rt_gsan.vmm, &rt_gsan.vmm_api, (int)dev);
  rt_arena_params p = rt_arena_default_params((int)dev);
  rt_status st = err ? RT_VMM_ERROR : rt_arena_create(&rt_gsan.vmm, &p, &rt_gsan.arena);
  if (st != RT_OK) {
    say("cannot set up the arena (%s); device memory is not checked", rt_status_name(st));
    rt_gsan.failed = 1;
    goto out;
  }
  /* the ring in plain host memory registered with the driver: it outlives
   * the context, so the last records can be read at exit */
  uint32_t cap = (uint32_t)rt_gsan.flags.ring_capacity;
  size_t bytes = (rt_ring_bytes(cap) + 4095) & ~(size_t)4095;
  void *mem = NULL;
  CUdeviceptr dring;
  if (posix_memalign(&mem, 4096, bytes) == 0) memset(mem, 0, bytes);
  else mem = NULL;
  if (!mem || rt_gsan.cu.MemHostRegister(mem, bytes, CU_MEMHOSTREGISTER_DEVICEMAP) != CUDA_SUCCESS ||
      rt_gsan.cu.MemHostGetDevicePointer(&dring, mem, 0) != CUDA_SUCCESS ||
      rt_gsan.cu.MemAlloc(&rt_gsan.ring_ctl, 8) != CUDA_SUCCESS || rt_gsan.cu.MemsetD8(rt_gsan.ring_ctl, 0, 8)) {
    say("cannot set up the report ring; device errors are not reported");
    rt_gsan.failed = 1;
    goto out;
  }
  rt_ring_init(&rt_gsan.ring, mem, cap);
  if (!rt_gsan.cu.StreamCreate || rt_gsan.cu.StreamCreate(&rt_gsan.own_stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
    rt_gsan.own_stream = 0;
  rt_arena_ctx(rt_gsan.arena, rt_gsan.ctx);
  memcpy(rt_gsan.ctx + GSAN_CTX_RING, &dring, 8);
  memcpy(rt_gsan.ctx + GSAN_CTX_RING_CTL, &rt_gsan.ring_ctl, 8);
  rt_gsan.ready = 1;
  atexit(at_exit);
  pthread_create(&rt_gsan.monitor, NULL, monitor, NULL);
  if (rt_gsan.flags.verbosity) say("arena and ring ready for sm_%d", rt_gsan.arch);
out:
  pthread_mutex_unlock(&rt_gsan.lock);
  return rt_gsan.ready ? 0 : -1;
}

/* ---- modules: fill __gsan_ctx, keep the site tables ---- */
static void keep_tables(const void *image) {
  const void *fat;
  size_t len;
  int kind = rt_image_kind(image, &fat, &len);
  rt_site_table *found[16];
  int n = 0;
  const char *why;
  if (kind == RT_IMAGE_FATBIN) {
    rt_fatbin_entry e[64];
    int ne = rt_fatbin_entries(fat, len, e, 64, &why);
    for (int i = 0; i < ne && i < 64; i++) {
      if (e[i].kind != RT_ENTRY_ELF || (int)e[i].arch != rt_gsan.arch) continue;
      size_t elen;
      unsigned char *elf = rt_fatbin_payload(&e[i], &elen, &why);
      if (!elf) continue;
      int k = rt_elf_site_tables(elf, elen, found + n, 16 - n, &why);
      if (k > 0) n += k;
      free(elf);
    }
  }
  pthread_mutex_lock(&rt_gsan.lock);
  for (int i = 0; i < n; i++) {
    if (rt_gsan.ntables < MAX_TABLES && !table_for(rt_sites_module(found[i]))) rt_gsan.tables[rt_gsan.ntables++] = found[i];
    else rt_sites_free(found[i]);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* A lazily loaded module can arrive while a stream is being captured into a
 * graph (its first kernel launch is captured). A synchronous copy on the
 * legacy stream would end that capture; a copy on gsan's own non-blocking
 * stream, in relaxed capture mode for this thread, leaves it alone. */
static void fill_ctx(CUdeviceptr g, size_t bytes) {
  if (bytes != GSAN_CTX_BYTES) return;
  if (!rt_gsan.own_stream || !rt_gsan.cu.MemcpyHtoDAsync || !rt_gsan.cu.ThreadExchangeStreamCaptureMode) {
    rt_gsan.cu.MemcpyHtoD(g, rt_gsan.ctx, GSAN_CTX_BYTES);
    return;
  }
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_gsan.cu.ThreadExchangeStreamCaptureMode(&mode);
  if (rt_gsan.cu.MemcpyHtoDAsync(g, rt_gsan.ctx, GSAN_CTX_BYTES, rt_gsan.own_stream) == CUDA_SUCCESS)
    rt_gsan.cu.StreamSynchronize(rt_gsan.own_stream);
  rt_gsan.cu.ThreadExchangeStreamCaptureMode(&mode);
}

static CUresult w_LibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv, unsigned nj,
                                  CUlibraryOption *lo, void **lv, unsigned nl) {
  CUresult r = rt_gsan.cu.LibraryLoadData(lib, code, jo, jv, nj, lo, lv, nl);
  if (r != CUDA_SUCCESS || ensure_ready() < 0) return r;
  CUdeviceptr g;
  size_t bytes;
  if (rt_gsan.cu.LibraryGetGlobal(&g, &bytes, *lib, GSAN_CTX_SYMBOL) == CUDA_SUCCESS) {
    fill_ctx(g, bytes);
    keep_tables(code);
  }
  return r;
}

static void module_loaded(CUmodule m, const void *image) {
  if (ensure_ready() < 0) return;
  CUdeviceptr g;
  size_t bytes;
  if (rt_gsan.cu.ModuleGetGlobal(&g, &bytes, m, GSAN_CTX_SYMBOL) == CUDA_SUCCESS) {
    fill_ctx(g, bytes);
    keep_tables(image);
  }
}

static CUresult w_ModuleLoadData(CUmodule *m, const void *image) {
  CUresult r = rt_gsan.cu.ModuleLoadData(m, image);
  if (r == CUDA_SUCCESS) module_loaded(*m, image);
  return r;
}

static CUresult w_ModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v) {
  CUresult r = rt_gsan.cu.ModuleLoadDataEx(m, image, n, o, v);
  if (r == CUDA_SUCCESS) module_loaded(*m, image);
  return r;
}

/* ---- allocation ---- */
/* the driver's own allocation calls that the arena stands in for, there for
 * what gsan hands back (capture, bad arguments, foreign pointers); the
 * stream-ordered ones per variant: [0] legacy stream, [1] per-thread stream */
static struct {
  CUresult (*AllocAsync[2])(CUdeviceptr *, size_t, CUstream);
  CUresult (*FreeAsync[2])(CUdeviceptr, CUstream);
  CUresult (*AllocPitch)(CUdeviceptr *, size_t *, size_t, size_t, unsigned);
} alloc_real;

/* the host stack of the call being made, kept in the depot */
static uint32_t stack_here(void) {
  rt_trace t;
  rt_trace_capture(&t);
  return rt_depot_put(&t);
}

/* an arena slot for size bytes, its allocation stack kept; CUDA_SUCCESS or
 * the driver's error for the failure */
static CUresult arena_alloc(CUdeviceptr *dptr, size_t size) {
  uint64_t p;
  rt_status st = rt_arena_alloc(rt_gsan.arena, size, &p);
  if (st == RT_OK) {
    rt_depot_note_alloc(p, stack_here());
    *dptr = p;
    return CUDA_SUCCESS;
  }
  if (st == RT_VMM_ERROR) return (CUresult)rt_arena_last_error(rt_gsan.arena);
  return st == RT_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_UNKNOWN;
}

static CUresult w_MemAlloc(CUdeviceptr *dptr, size_t size) {
  if (!dptr || size == 0 || ensure_ready() < 0) return rt_gsan.cu.MemAlloc(dptr, size);
  return arena_alloc(dptr, size);
}

/* the slot of an arena pointer goes back, once whatever may still use it has
 * finished (the caller waited); a second free, or a pointer that is not an
 * allocation's start, is reported as api's error */
static CUresult arena_free(CUdeviceptr ptr, const char *api) {
  drain(0);
  rt_alloc_info info;
  rt_status st = rt_arena_free(rt_gsan.arena, ptr, &info);
  if (st == RT_OK) {
    rt_depot_note_free(ptr, stack_here());
    return CUDA_SUCCESS;
  }
  /* after a kernel fault the context refuses every call, the slot table's
   * update too: that is the driver's error to return, not the caller's bug */
  if (st == RT_VMM_ERROR) return (CUresult)rt_arena_last_error(rt_gsan.arena);
  rt_region reg = {info.base, info.state == RT_SLOT_NEVER ? 0 : info.size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0};
  pthread_mutex_lock(&rt_gsan.lock);
  static stacks sk;
  if (info.state != RT_SLOT_NEVER) region_stacks(info.base, info.state == RT_SLOT_FREED, &reg, &sk);
  rt_err_free e = {st == RT_DOUBLE_FREE ? "double-free" : "invalid-free", api, ptr, call_stack(&sk), reg};
  rt_report_free(&rt_gsan.log, &e);
  pthread_mutex_unlock(&rt_gsan.lock);
  return CUDA_ERROR_INVALID_VALUE;
}

static int ours(CUdeviceptr ptr) {
  rt_alloc_info info;
  return rt_gsan.ready && rt_arena_find(rt_gsan.arena, ptr, &info) != RT_NOT_OURS;
}

static CUresult w_MemFree(CUdeviceptr ptr) {
  if (!ours(ptr)) return rt_gsan.cu.MemFree(ptr);
  /* cudaFree waits for the device; so does this, before memory goes away */
  rt_gsan.cu.CtxSynchronize();
  return arena_free(ptr, "cuMemFree");
}

/* 1 when s is being captured into a graph: its calls then become graph
 * nodes that run later, and waiting on it would end the capture */
static int capturing(CUstream s) {
  CUstreamCaptureStatus c = CU_STREAM_CAPTURE_STATUS_NONE;
  return rt_gsan.cu.StreamIsCapturing && rt_gsan.cu.StreamIsCapturing(s, &c) == CUDA_SUCCESS &&
         c != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* Stream-ordered allocation: an arena slot is usable at once, which is
 * earlier than the stream needs it. The free waits for the stream, so work
 * queued before it finishes first and work after it finds a freed slot; that
 * costs the overlap cudaFreeAsync allows, and buys the use-after-free check.
 * Under graph capture the allocation is the driver's (a graph memory node),
 * and an arena slot freed inside a graph stays live: freeing it now would
 * fault the captured work that runs when the graph does. */
#define ORDERED_WRAPPERS(V)                                                                     \
  static CUresult w_AllocAsync##V(CUdeviceptr *dptr, size_t size, CUstream s) {               \
    /* stream 0 of the per-thread variant is this thread's stream */                           \
    CUstream real = V && !s ? CU_STREAM_PER_THREAD : s;                                         \
    if (!dptr || size == 0 || ensure_ready() < 0 || capturing(real))                            \
      return alloc_real.AllocAsync[V](dptr, size, s);                                              \
    return arena_alloc(dptr, size);                                                             \
  }                                                                                             \
  static CUresult w_FreeAsync##V(CUdeviceptr ptr, CUstream s) {                                \
    if (!ours(ptr)) return alloc_real.FreeAsync[V](ptr, s);                                        \
    CUstream real = V && !s ? CU_STREAM_PER_THREAD : s;                                         \
    if (capturing(real)) return CUDA_SUCCESS;                                                   \
    CUresult r = rt_gsan.cu.StreamSynchronize(real);                                            \
    if (r != CUDA_SUCCESS) return r;                                                            \
    return arena_free(ptr, "cuMemFreeAsync");                                                   \
  }
ORDERED_WRAPPERS(0)
ORDERED_WRAPPERS(1)

/* the driver rounds a pitched row up to an alignment of its choosing; 512
 * bytes satisfies every texture pitch alignment, and code that walks rows
 * by the returned pitch does not depend on the exact value */
#define RT_PITCH_ALIGN 512u
static CUresult w_MemAllocPitch(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned elem) {
  if (!dptr || !pitch || width == 0 || height == 0 || (elem != 4 && elem != 8 && elem != 16) ||
      ensure_ready() < 0)
    return alloc_real.AllocPitch(dptr, pitch, width, height, elem);
  size_t p = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
  if (p < width || height > SIZE_MAX / p) return CUDA_ERROR_OUT_OF_MEMORY;
  CUresult r = arena_alloc(dptr, p * height);
  if (r == CUDA_SUCCESS) *pitch = p;
  return r;
}

static CUresult w_CtxSynchronize(void) {
  CUresult r = rt_gsan.cu.CtxSynchronize();
  drain(r != CUDA_SUCCESS);
  return r;
}

/* ---- queries whose answers the arena changes: the driver would give the
 * whole reservation for an arena pointer; the allocation's own range is
 * what the caller means ---- */
static struct {
  CUresult (*GetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
  CUresult (*GetAttribute)(void *, CUpointer_attribute, CUdeviceptr);
  CUresult (*GetAttributes)(unsigned, CUpointer_attribute *, void **, CUdeviceptr);
} query;

/* 1 and the live allocation's range when ptr is in one */
static int live_range(CUdeviceptr ptr, uint64_t *base, uint64_t *size) {
  rt_alloc_info info;
  if (!rt_gsan.ready || rt_arena_find(rt_gsan.arena, ptr, &info) != RT_OK || info.state != RT_SLOT_LIVE ||
      ptr - info.base >= info.size)
    return 0;
  *base = info.base;
  *size = info.size;
  return 1;
}

static CUresult w_MemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr ptr) {
  uint64_t b, n;
  if (!live_range(ptr, &b, &n)) return query.GetAddressRange(pbase, psize, ptr);
  if (pbase) *pbase = b;
  if (psize) *psize = n;
  return CUDA_SUCCESS;
}

static void fix_attribute(CUpointer_attribute a, void *data, uint64_t b, uint64_t n) {
  if (a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) *(CUdeviceptr *)data = b;
  else if (a == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *(size_t *)data = n;
}

static CUresult w_PointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr ptr) {
  CUresult r = query.GetAttribute(data, a, ptr);
  uint64_t b, n;
  if (r == CUDA_SUCCESS && data && live_range(ptr, &b, &n)) fix_attribute(a, data, b, n);
  return r;
}

static CUresult w_PointerGetAttributes(unsigned count, CUpointer_attribute *a, void **data, CUdeviceptr ptr) {
  CUresult r = query.GetAttributes(count, a, data, ptr);
  uint64_t b, n;
  if (r == CUDA_SUCCESS && live_range(ptr, &b, &n))
    for (unsigned i = 0; i < count; i++)
      if (data[i]) fix_attribute(a[i], data[i], b, n);
  return r;
}

/* ---- host API checks: the ranges a copy or set touches, before it runs ---- */
static int range_bad(const char *api, const char *kind, uint64_t addr, uint64_t len) {
  if (!rt_gsan.ready || !rt_gsan.flags.check_host_api || len == 0) return 0;
  rt_alloc_info info;
  if (rt_arena_find(rt_gsan.arena, addr, &info) != RT_OK) return 0; /* not arena memory */
  const char *k = NULL;
  uint64_t off = addr - info.base;
  if (info.state == RT_SLOT_FREED) k = "use-after-free";
  else if (info.state != RT_SLOT_LIVE || off > info.size || len > info.size - off) k = kind;
  if (!k) return 0;
  rt_region reg = {info.base, info.state == RT_SLOT_NEVER ? 0 : info.size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0};
  pthread_mutex_lock(&rt_gsan.lock);
  static stacks sk;
  if (info.state != RT_SLOT_NEVER) region_stacks(info.base, info.state == RT_SLOT_FREED, &reg, &sk);
  rt_err_host_range e = {k, api, addr, len, call_stack(&sk), reg};
  rt_report_host_range(&rt_gsan.log, &e);
  pthread_mutex_unlock(&rt_gsan.lock);
  return 1;
}

#define CPY "memcpy-param-overflow"
#define SET "memset-param-overflow"
/* the driver's functions, per variant: [0] legacy stream, [1] per-thread stream */
static struct {
  CUresult (*Memcpy[2])(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*MemcpyAsync[2])(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*HtoD[2])(CUdeviceptr, const void *, size_t);
  CUresult (*HtoDAsync[2])(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*DtoH[2])(void *, CUdeviceptr, size_t);
  CUresult (*DtoHAsync[2])(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*DtoD[2])(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*DtoDAsync[2])(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*SetD8[2])(CUdeviceptr, unsigned char, size_t);
  CUresult (*SetD8Async[2])(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*SetD16[2])(CUdeviceptr, unsigned short, size_t);
  CUresult (*SetD32[2])(CUdeviceptr, unsigned int, size_t);
} copy;

/* a refused call returns what the driver returns for a bad pointer */
#define REFUSE(cond) \
  if (cond) return CUDA_ERROR_INVALID_VALUE
#define COPY_WRAPPERS(V)                                                                                          \
  static CUresult w_Memcpy##V(CUdeviceptr d, CUdeviceptr s, size_t n) {                                           \
    REFUSE(range_bad("cuMemcpy", CPY, d, n) || range_bad("cuMemcpy", CPY, s, n));                                 \
    return copy.Memcpy[V](d, s, n);                                                                               \
  }                                                                                                               \
  static CUresult w_MemcpyAsync##V(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {                         \
    REFUSE(range_bad("cuMemcpyAsync", CPY, d, n) || range_bad("cuMemcpyAsync", CPY, s, n));                       \
    return copy.MemcpyAsync[V](d, s, n, st);                                                                      \
  }                                                                                                               \
  static CUresult w_HtoD##V(CUdeviceptr d, const void *h, size_t n) {                                             \
    REFUSE(range_bad("cuMemcpyHtoD", CPY, d, n));                                                                 \
    return copy.HtoD[V](d, h, n);                                                                                 \
  }                                                                                                               \
  static CUresult w_HtoDAsync##V(CUdeviceptr d, const void *h, size_t n, CUstream st) {                           \
    REFUSE(range_bad("cuMemcpyHtoDAsync", CPY, d, n));                                                            \
    return copy.HtoDAsync[V](d, h, n, st);                                                                        \
  }                                                                                                               \
  static CUresult w_DtoH##V(void *h, CUdeviceptr s, size_t n) {                                                   \
    REFUSE(range_bad("cuMemcpyDtoH", CPY, s, n));                                                                 \
    return copy.DtoH[V](h, s, n);                                                                                 \
  }                                                                                                               \
  static CUresult w_DtoHAsync##V(void *h, CUdeviceptr s, size_t n, CUstream st) {                                 \
    REFUSE(range_bad("cuMemcpyDtoHAsync", CPY, s, n));                                                            \
    return copy.DtoHAsync[V](h, s, n, st);                                                                        \
  }                                                                                                               \
  static CUresult w_DtoD##V(CUdeviceptr d, CUdeviceptr s, size_t n) {                                             \
    REFUSE(range_bad("cuMemcpyDtoD", CPY, d, n) || range_bad("cuMemcpyDtoD", CPY, s, n));                         \
    return copy.DtoD[V](d, s, n);                                                                                 \
  }                                                                                                               \
  static CUresult w_DtoDAsync##V(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {                           \
    REFUSE(range_bad("cuMemcpyDtoDAsync", CPY, d, n) || range_bad("cuMemcpyDtoDAsync", CPY, s, n));               \
    return copy.DtoDAsync[V](d, s, n, st);                                                                        \
  }                                                                                                               \
  static CUresult w_SetD8##V(CUdeviceptr d, unsigned char v, size_t n) {                                          \
    REFUSE(range_bad("cuMemsetD8", SET, d, n));                                                                   \
    return copy.SetD8[V](d, v, n);                                                                                \
  }                                                                                                               \
  static CUresult w_SetD8Async##V(CUdeviceptr d, unsigned char v, size_t n, CUstream st) {                        \
    REFUSE(range_bad("cuMemsetD8Async", SET, d, n));                                                              \
    return copy.SetD8Async[V](d, v, n, st);                                                                       \
  }                                                                                                               \
  static CUresult w_SetD16##V(CUdeviceptr d, unsigned short v, size_t n) {                                        \
    REFUSE(range_bad("cuMemsetD16", SET, d, n * 2));                                                              \
    return copy.SetD16[V](d, v, n);                                                                               \
  }                                                                                                               \
  static CUresult w_SetD32##V(CUdeviceptr d, unsigned int v, size_t n) {                                          \
    REFUSE(range_bad("cuMemsetD32", SET, d, n * 4));                                                              \
    return copy.SetD32[V](d, v, n);                                                                               \
  }
COPY_WRAPPERS(0)
COPY_WRAPPERS(1)

void *rt_hook_for(const char *name, cuuint64_t flags, void *real_fn) {
  /* per-thread-default-stream variants are other driver functions: each
   * variant keeps its own, and gets its own wrapper */
  int v = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? 1 : 0;
  static const struct {
    const char *name;
    void *mine[2];
    void **real;  /* where the driver's function goes; NULL: fetched at start-up */
    int variants; /* 2: a per-thread-stream variant is its own function */
  } hooks[] = {
      {"cuMemAlloc", {(void *)w_MemAlloc, (void *)w_MemAlloc}, NULL, 1},
      {"cuMemFree", {(void *)w_MemFree, (void *)w_MemFree}, NULL, 1},
      {"cuMemAllocPitch", {(void *)w_MemAllocPitch, (void *)w_MemAllocPitch}, (void **)&alloc_real.AllocPitch, 1},
      {"cuMemAllocAsync", {(void *)w_AllocAsync0, (void *)w_AllocAsync1}, (void **)alloc_real.AllocAsync, 2},
      {"cuMemFreeAsync", {(void *)w_FreeAsync0, (void *)w_FreeAsync1}, (void **)alloc_real.FreeAsync, 2},
      {"cuLibraryLoadData", {(void *)w_LibraryLoadData, (void *)w_LibraryLoadData}, NULL, 1},
      {"cuModuleLoadData", {(void *)w_ModuleLoadData, (void *)w_ModuleLoadData}, NULL, 1},
      {"cuModuleLoadDataEx", {(void *)w_ModuleLoadDataEx, (void *)w_ModuleLoadDataEx}, NULL, 1},
      {"cuCtxSynchronize", {(void *)w_CtxSynchronize, (void *)w_CtxSynchronize}, NULL, 1},
#define Q(n, f, q) {n, {(void *)w_##f, (void *)w_##f}, (void **)&query.q, 1}
      Q("cuMemGetAddressRange", MemGetAddressRange, GetAddressRange),
      Q("cuPointerGetAttribute", PointerGetAttribute, GetAttribute),
      Q("cuPointerGetAttributes", PointerGetAttributes, GetAttributes),
#undef Q
#define H(n, f) {n, {(void *)w_##f##0, (void *)w_##f##1}, (void **)copy.f, 2}
      H("cuMemcpy", Memcpy), H("cuMemcpyAsync", MemcpyAsync), H("cuMemcpyHtoD", HtoD),
      H("cuMemcpyHtoDAsync", HtoDAsync), H("cuMemcpyDtoH", DtoH), H("cuMemcpyDtoHAsync", DtoHAsync),
      H("cuMemcpyDtoD", DtoD), H("cuMemcpyDtoDAsync", DtoDAsync), H("cuMemsetD8", SetD8),
      H("cuMemsetD8Async", SetD8Async), H("cuMemsetD16", SetD16), H("cuMemsetD32", SetD32),
#undef H
  };
  for (size_t i = 0; i < sizeof hooks / sizeof hooks[0]; i++)
    if (!strcmp(name, hooks[i].name)) {
      int slot = hooks[i].variants == 2 ? v : 0;
      if (hooks[i].real) hooks[i].real[slot] = real_fn;
      return hooks[i].mine[slot];
    }
  return NULL;
}
