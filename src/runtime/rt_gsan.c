/* libgsan's one context and its life: set up lazily (the driver table when
 * the program first asks for cuGetProcAddress; a device's arena and ring at
 * the first allocation or module load in a context on it), the monitor
 * thread that turns device records into reports, and the last words at
 * exit. Nothing here aborts the program: if gsan cannot set itself up it says
 * so once and the program runs on the driver's own allocator. The hooks are
 * in rt_hooks_*.c. */
#include "rt_gsan.h"

#include "rt_binary.h"
#include "rt_canary.h"
#include "rt_depot.h"
#include "rt_foreign.h"
#include "rt_heap.h"
#include "rt_launch.h"
#include "rt_trust.h"
#include "rt_unwind.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

rt_gsan_ctx rt_gsan = {.lock = PTHREAD_MUTEX_INITIALIZER};

void rt_gsan_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "==%ld==gsan: ", (long)getpid());
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void rt_gsan_region_stacks(uint64_t base, int freed, rt_region *reg, rt_stacks *s) {
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

const rt_stack *rt_gsan_call_stack(rt_stacks *s) {
  rt_trace t;
  rt_trace_capture(&t, RT_STACK_DEPTH);
  rt_trace_symbolize(&t, &s->call, s->buf[2], sizeof s->buf[2]);
  return &s->call;
}

uint32_t rt_gsan_stack_here(void) {
  if (!rt_gsan.flags.malloc_context_size) return 0;
  rt_trace t;
  rt_trace_capture(&t, rt_gsan.flags.malloc_context_size);
  return rt_depot_put(&t);
}

int rt_gsan_suppressed(const char *kind, const char *const *names, int n, const rt_stack *stack) {
  if (!rt_gsan.suppress.n) return 0;
  const char *all[8 + 32];
  int k = 0;
  for (int i = 0; i < n && k < 8; i++) all[k++] = names[i];
  for (int i = 0; stack && i < stack->n && i < 32; i++) all[k++] = stack->frame[i];
  return rt_suppress_match(&rt_gsan.suppress, kind, all, k) != NULL;
}

static int still_ready(rt_dev *d);

/* A kernel may be handed any device's pointers (peer access), so a launch
 * waits for the table writes of every device that has some in flight; with
 * one device in use that is the one. */
int rt_gsan_order_launch(CUstream s) {
  rt_heap_before_launch();
  if (!rt_gsan_is_ready()) return 0;
  int r = 0, capturing = -1;
  for (int i = 0; i < RT_MAX_DEVICES && !r; i++) {
    rt_dev *d = &rt_gsan.dev[i];
    if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) || !rt_vmm_cuda_pending(&d->vmm) || !still_ready(d)) continue;
    if (capturing < 0) capturing = rt_gsan_capturing(s);
    if (!capturing) {
      r = rt_vmm_cuda_order(&d->vmm, s, 0);
      continue;
    }
    /* a captured stream cannot wait on work outside the capture: this
     * thread waits, in relaxed mode so that the wait does not end it */
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    rt_gsan_capture_swap(&mode);
    r = rt_vmm_cuda_order(&d->vmm, s, 1);
    rt_gsan_capture_swap(&mode);
  }
  return r;
}

void rt_gsan_capture_swap(CUstreamCaptureMode *mode) {
  if (rt_gsan.cu.ThreadExchangeStreamCaptureMode) rt_gsan.cu.ThreadExchangeStreamCaptureMode(mode);
}

rt_dev *rt_gsan_dev_of(uint64_t ptr) {
  if (!rt_gsan_is_ready()) return NULL;
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = &rt_gsan.dev[i];
    if (__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) && rt_arena_holds(d->arena, ptr)) return d;
  }
  return NULL;
}

rt_status rt_gsan_find(uint64_t ptr, rt_alloc_info *info) {
  rt_dev *d = rt_gsan_dev_of(ptr);
  return d ? rt_arena_find(d->arena, ptr, info) : RT_NOT_OURS;
}

rt_status rt_gsan_find_tracked(uint64_t ptr, rt_alloc_info *info) {
  rt_status st = rt_gsan_find(ptr, info);
  if (st != RT_NOT_OURS || rt_foreign_find(ptr, info) != RT_OK) return st;
  CUdeviceptr start;
  if (info->state == RT_SLOT_FREED && rt_gsan.cu.PointerGetAttribute &&
      rt_gsan.cu.PointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr) == CUDA_SUCCESS) {
    rt_foreign_forget(ptr);
    return RT_NOT_OURS;
  }
  return RT_OK;
}

int rt_gsan_capturing(CUstream s) {
  CUstreamCaptureStatus c = CU_STREAM_CAPTURE_STATUS_NONE;
  return rt_gsan.cu.StreamIsCapturing && rt_gsan.cu.StreamIsCapturing(s, &c) == CUDA_SUCCESS &&
         c != CU_STREAM_CAPTURE_STATUS_NONE;
}

void *rt_gsan_real_v(const char *name, int version, int per_thread) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : 0;
  if (!rt_gsan.get_proc || rt_gsan.get_proc(name, &p, version, flags, &st) != CUDA_SUCCESS) return NULL;
  return p;
}

void *rt_gsan_real(const char *name) { return rt_gsan_real_v(name, RT_OWN_VERSION, 0); }

void rt_gsan_init_driver(void *get_proc) {
  int first = 0;
  pthread_mutex_lock(&rt_gsan.lock);
  if (!rt_gsan.get_proc) {
    first = 1;
    rt_gsan.get_proc = (rt_get_proc_fn)get_proc;
    rt_flags_defaults(&rt_gsan.flags);
    char err[256];
    if (rt_flags_parse(&rt_gsan.flags, getenv("GSAN_OPTIONS"), err, sizeof err) < 0) rt_gsan_say("%s", err);
    rt_gsan.log.out = stderr;
    char path[600];
    rt_flags_log_path(&rt_gsan.flags, (long)getpid(), path, sizeof path);
    const char *why;
    if (path[0] && !(rt_gsan.log.out = rt_trust_open_log(path, &why))) {
      rt_gsan_say("cannot open log_path '%s' (%s); reports go to stderr", path, why);
      rt_gsan.log.out = stderr;
    }
    rt_gsan.log.json = rt_gsan.flags.log_format == RT_LOG_JSON;
    if (rt_suppress_load(&rt_gsan.suppress, rt_gsan.flags.default_suppressions, rt_gsan.flags.suppressions, err,
                         sizeof err) < 0)
      rt_gsan_say("%s", err);
    rt_gsan.log.pid = (long)getpid();
#define GET(field, name) *(void **)&rt_gsan.cu.field = rt_gsan_real(name)
    GET(MemAlloc, "cuMemAlloc");
    GET(MemFree, "cuMemFree");
    GET(LibraryGetGlobal, "cuLibraryGetGlobal");
    GET(ModuleGetGlobal, "cuModuleGetGlobal");
    GET(CtxSynchronize, "cuCtxSynchronize");
    GET(CtxGetDevice, "cuCtxGetDevice");
    GET(DeviceGetAttribute, "cuDeviceGetAttribute");
    GET(MemHostRegister, "cuMemHostRegister");
    GET(MemHostGetDevicePointer, "cuMemHostGetDevicePointer");
    GET(MemsetD8, "cuMemsetD8");
    GET(MemcpyHtoD, "cuMemcpyHtoD");
    GET(MemcpyDtoH, "cuMemcpyDtoH");
    GET(MemHostUnregister, "cuMemHostUnregister");
    GET(CtxGetId, "cuCtxGetId");
    GET(StreamSynchronize, "cuStreamSynchronize");
    GET(StreamIsCapturing, "cuStreamIsCapturing");
    GET(StreamCreate, "cuStreamCreate");
    GET(MemcpyHtoDAsync, "cuMemcpyHtoDAsync");
    GET(MemcpyDtoHAsync, "cuMemcpyDtoHAsync");
    GET(ThreadExchangeStreamCaptureMode, "cuThreadExchangeStreamCaptureMode");
    GET(CtxGetCurrent, "cuCtxGetCurrent");
    GET(CtxPushCurrent, "cuCtxPushCurrent");
    GET(CtxPopCurrent, "cuCtxPopCurrent");
    GET(PointerGetAttribute, "cuPointerGetAttribute");
    GET(ModuleLoadData, "cuModuleLoadData");
    GET(LibraryLoadData, "cuLibraryLoadData");
    GET(LinkAddData, "cuLinkAddData");
    *(void **)&rt_gsan.vmm_api.MemAddressReserve = rt_gsan_real("cuMemAddressReserve");
    *(void **)&rt_gsan.vmm_api.MemAddressFree = rt_gsan_real("cuMemAddressFree");
    *(void **)&rt_gsan.vmm_api.MemCreate = rt_gsan_real("cuMemCreate");
    *(void **)&rt_gsan.vmm_api.MemRelease = rt_gsan_real("cuMemRelease");
    *(void **)&rt_gsan.vmm_api.MemMap = rt_gsan_real("cuMemMap");
    *(void **)&rt_gsan.vmm_api.MemUnmap = rt_gsan_real("cuMemUnmap");
    *(void **)&rt_gsan.vmm_api.MemSetAccess = rt_gsan_real("cuMemSetAccess");
    *(void **)&rt_gsan.vmm_api.MemcpyHtoD = rt_gsan_real("cuMemcpyHtoD");
    *(void **)&rt_gsan.vmm_api.MemGetAllocationGranularity = rt_gsan_real("cuMemGetAllocationGranularity");
    *(void **)&rt_gsan.vmm_api.CtxSynchronize = rt_gsan_real("cuCtxSynchronize");
    *(void **)&rt_gsan.vmm_api.StreamWriteValue64 = rt_gsan_real("cuStreamWriteValue64");
    *(void **)&rt_gsan.vmm_api.StreamWriteValue32 = rt_gsan_real("cuStreamWriteValue32");
    *(void **)&rt_gsan.vmm_api.StreamBatchMemOp = rt_gsan_real("cuStreamBatchMemOp");
    *(void **)&rt_gsan.vmm_api.MemsetD8Async = rt_gsan_real("cuMemsetD8Async");
    *(void **)&rt_gsan.vmm_api.StreamSynchronize = rt_gsan_real("cuStreamSynchronize");
    *(void **)&rt_gsan.vmm_api.EventCreate = rt_gsan_real("cuEventCreate");
    *(void **)&rt_gsan.vmm_api.EventRecord = rt_gsan_real("cuEventRecord");
    *(void **)&rt_gsan.vmm_api.EventQuery = rt_gsan_real("cuEventQuery");
    *(void **)&rt_gsan.vmm_api.EventSynchronize = rt_gsan_real("cuEventSynchronize");
    *(void **)&rt_gsan.vmm_api.StreamWaitEvent = rt_gsan_real("cuStreamWaitEvent");
#undef GET
    if (rt_gsan.flags.verbosity) rt_gsan_say("interposed cuGetProcAddress");
  }
  pthread_mutex_unlock(&rt_gsan.lock);
  /* outside the lock: loading the Sanitizer API may call the driver */
  if (first && rt_gsan.flags.binary) rt_binary_start();
}

/* ---- reports from the device ---- */
static const rt_site_table *table_for(uint64_t module) {
  for (int i = 0; i < rt_gsan.ntables; i++)
    if (rt_sites_module(rt_gsan.tables[i]) == module) return rt_gsan.tables[i];
  return NULL;
}

const rt_site_table *rt_gsan_table(uint64_t module) { return table_for(module); }

void rt_gsan_add_tables(rt_site_table **found, int n) {
  rt_heap_note_tables(found, n);
  pthread_mutex_lock(&rt_gsan.lock);
  for (int i = 0; i < n; i++) {
    if (rt_gsan.ntables < RT_MAX_TABLES && !table_for(rt_sites_module(found[i])))
      rt_gsan.tables[rt_gsan.ntables++] = found[i];
    else
      rt_sites_free(found[i]);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* the end of a run that reported: the program's own output first (_exit
 * skips stdio), then exitcode */
static void die(void) {
  /* not fflush(NULL): it would wait for every stream's lock, stdin's too,
   * which a thread blocked in a read holds */
  fflush(stdout);
  fflush(rt_gsan.log.out);
  rt_exit_now(rt_gsan.flags.exitcode);
}

/* One device record: printed the first time its site fails (until
 * report_limit), counted after that. In halt mode the first report ends the
 * run: after a trap the context is dead and nothing the program does next
 * can succeed. Runs under rt_gsan.lock. */
static void sink(void *arg, const gsan_record *rec) {
  (void)arg;
  /* a site already reported (or held back) is only counted: a million
   * threads failing one check must not cost a million symbolised reports */
  if (rt_seen_again(&rt_gsan.seen, rec->module_id, rec->site)) return;
  const rt_site_table *t = table_for(rec->module_id);
  rt_site s;
  memset(&s, 0, sizeof s);
  if ((!t || rt_sites_get(t, rec->site, &s) < 0) && !rt_binary_site(rec, &s)) {
    s.func = "?";
    s.kind = 0;
  }
  rt_region reg = {rec->base, rec->size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
  rt_alloc_info info;
  int state = RT_SLOT_LIVE;
  static rt_dev_origin origin;
  static rt_site osite;
  if (s.root != GSAN_ROOT_ARENA) { /* a variable, or a dead frame (use-after-scope) */
    reg.name = s.root_name;
    reg.space = s.root_space;
  } else if (rt_heap_explain(&s, rec, &reg, &origin, &osite, &state)) {
    /* a device-heap block, or a failed in-kernel free */
  } else if (rt_gsan_find(rec->base, &info) == RT_OK) {
    state = info.state;
    reg.base = info.base;
    reg.size = info.size;
  }
  const char *kind = rt_classify_device(&s, rec, state);
  char fbuf[1024];
  const char *names[] = {rt_demangle(s.func, fbuf, sizeof fbuf), s.file, s.call_file};
  if (rt_gsan_suppressed(kind, names, 3, NULL)) return;
  if (rt_seen_hit(&rt_gsan.seen, rec->module_id, rec->site, kind, t || s.binary ? &s : NULL) > 1) return;
  if (rt_gsan.flags.report_limit && rt_gsan.log.reports >= (unsigned)rt_gsan.flags.report_limit) {
    if (rt_gsan.flags.halt_on_error) die(); /* not printed, but it still ends the run */
    return;
  }
  static rt_stacks st;
  if (s.root == GSAN_ROOT_ARENA && state != RT_SLOT_NEVER && state != RT_SLOT_DEVHEAP)
    rt_gsan_region_stacks(reg.base, state == RT_SLOT_FREED, &reg, &st);
  rt_err_device e = {kind, *rec, s, reg};
  rt_report_device(&rt_gsan.log, &e);
  rt_seen_printed(&rt_gsan.seen, rec->module_id, rec->site);
  if (rt_gsan.flags.halt_on_error) die();
}

void rt_gsan_drain(int final) {
  if (!rt_gsan_is_ready()) return;
  pthread_mutex_lock(&rt_gsan.lock);
  for (int i = 0; i < RT_MAX_DEVICES; i++)
    if (rt_gsan.dev[i].ready) rt_ring_drain(&rt_gsan.dev[i].ring, final, sink, NULL);
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* errors that leave the context dead: a trap among them, whose writer may
 * have died mid-record */
int rt_gsan_context_lost(CUresult r) {
  switch (r) {
  case CUDA_ERROR_LAUNCH_FAILED: case CUDA_ERROR_ILLEGAL_ADDRESS: case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS: case CUDA_ERROR_INVALID_ADDRESS_SPACE: case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR: case CUDA_ERROR_ASSERT: case CUDA_ERROR_LAUNCH_TIMEOUT:
    return 1;
  default:
    return 0;
  }
}

CUresult rt_gsan_drain_after(CUresult r) {
  rt_gsan_drain(rt_gsan_context_lost(r));
  return r;
}

static void note_repeat(void *arg, const rt_seen_site *site);

static void *monitor(void *arg) {
  (void)arg;
  rt_exit_monitor_signals();
  /* The canary check's copies run while the program may be capturing a
   * graph in global mode, which forbids every other thread in the same
   * mode "potentially unsafe" calls and invalidates the capture when one
   * is made (clean_graph_capture failed now and then this way). The
   * monitor's calls touch only gsan's own non-blocking stream: relaxed
   * (the thread starts once the first device is set up: the driver is). */
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_gsan_capture_swap(&mode);
  while (!rt_gsan.stop) {
    if (!rt_exit_wait((unsigned)rt_gsan.flags.monitor_ms)) {
      rt_gsan_drain(0);
      rt_canary_tick();
    }
  }
  return NULL;
}

/* What d's ring control block counted (docs/abi.md): the records a full
 * ring dropped, and each site's failures, most of which only the count
 * holds. With d's context current; it must still be the one the block
 * lives in. Under rt_gsan.lock. */
static void read_ctl(rt_dev *d) {
  static unsigned char ctl[GSAN_RING_CTL_BYTES];
  if (!rt_gsan.cu.MemcpyDtoH || !d->ring_ctl || rt_gsan.cu.MemcpyDtoH(ctl, d->ring_ctl, sizeof ctl) != CUDA_SUCCESS)
    return;
  uint32_t dropped;
  memcpy(&dropped, ctl + GSAN_RING_CTL_DROPPED, 4);
  d->unrecorded += dropped;
  rt_seen_add_counts(&rt_gsan.seen, (const gsan_site_count *)(ctl + GSAN_RING_CTL_SITES));
}

/* the counts of each device whose context is there to ask, then the records
 * full rings could not keep */
static void read_counts(void) {
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = &rt_gsan.dev[i];
    if (d->ready && d->cuctx && rt_gsan.cu.CtxPushCurrent(d->cuctx) == CUDA_SUCCESS) {
      read_ctl(d);
      CUcontext prev;
      rt_gsan.cu.CtxPopCurrent(&prev);
    }
    if (!d->unrecorded) continue;
    rt_err_unrecorded e = {d->device, d->unrecorded, d->ring.capacity};
    rt_report_unrecorded(&rt_gsan.log, &e);
  }
}

void rt_gsan_last_words(void) {
  static int said;
  if (__atomic_exchange_n(&said, 1, __ATOMIC_ACQ_REL)) return;
  fflush(stdout); /* the program's own output before gsan's last words */
  rt_gsan_drain(1);
  pthread_mutex_lock(&rt_gsan.lock);
  read_counts();
  rt_seen_foreach_repeat(&rt_gsan.seen, note_repeat, NULL);
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* at exit: stop the monitor, take what the device wrote (a trapped kernel
 * may have left holes), and exit with exitcode if anything was reported */
#define LEAKS_LISTED 32
typedef struct leak_list { rt_leak l[LEAKS_LISTED]; unsigned n; uint64_t count, bytes; } leak_list;

/* allocations: those live in a context about to be reset (to forget), and
 * those a reset took before the program freed them (leaks, at exit) */
static rt_live_list gone;
void rt_gsan_note_live(void *arg, const rt_alloc_info *info) {
  rt_live_list *l = arg;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    rt_alloc_info *p = realloc(l->p, cap * sizeof *p);
    if (!p) return;
    l->p = p, l->cap = cap;
  }
  l->p[l->n++] = *info;
}

/* The files of the libraries (and the program) a trace passes through, at
 * most max: a leak suppression may name one, as LeakSanitizer's may. PyTorch's
 * allocator is in libc10_cuda.so, but its functions may be hidden symbols
 * that no frame is named after. */
static int trace_modules(const rt_trace *t, const char **mods, int max) {
  int n = 0;
  for (int i = 0; i < t->n && n < max; i++) {
    Dl_info di;
    /* a return address: the call is just before it */
    if (!dladdr((const char *)t->pc[i] - 1, &di) || !di.dli_fname || !*di.dli_fname) continue;
    int seen = 0;
    for (int j = 0; j < n && !seen; j++) seen = !strcmp(mods[j], di.dli_fname);
    if (!seen) mods[n++] = di.dli_fname;
  }
  return n;
}

/* whether the leaks allocated from one stack are suppressed, decided once
 * per stack: a program can leave many allocations from a few places */
static int leak_suppressed(uint32_t stack_id, const rt_trace *t) {
  static struct { uint32_t id; int verdict; } memo[256];
  static unsigned n;
  if (!t || !rt_gsan.suppress.n) return 0;
  for (unsigned i = 0; i < n; i++)
    if (memo[i].id == stack_id) return memo[i].verdict;
  static rt_stack st;
  static char buf[8192];
  rt_trace_symbolize(t, &st, buf, sizeof buf);
  const char *mods[8];
  int v = rt_gsan_suppressed("leak", mods, trace_modules(t, mods, 8), &st);
  if (n < 256) memo[n++].id = stack_id, memo[n - 1].verdict = v;
  return v;
}

static void note_leak(void *arg, const rt_alloc_info *info) {
  leak_list *ll = arg;
  static rt_stack st[LEAKS_LISTED];
  static char buf[LEAKS_LISTED][2048];
  uint32_t a, f;
  rt_depot_lookup(info->base, &a, &f);
  const rt_trace *t = rt_depot_get(a);
  /* kept slots are a graph's memory (rt_hooks_alloc.c), not leaks */
  if (info->kept || leak_suppressed(a, t)) return;
  if (ll->n < LEAKS_LISTED) {
    if (t) rt_trace_symbolize(t, &st[ll->n], buf[ll->n], sizeof buf[ll->n]);
    ll->l[ll->n] = (rt_leak){info->base, info->size, t ? &st[ll->n] : NULL, NULL};
    ll->n++;
  }
  ll->count++;
  ll->bytes += info->size;
}

/* a device-heap block live at exit: its origin copied for the report */
static void note_heap_leak(void *arg, const rt_leak *l) {
  leak_list *ll = arg;
  static rt_dev_origin o[LEAKS_LISTED];
  static rt_site site[LEAKS_LISTED];
  if (ll->n < LEAKS_LISTED) {
    o[ll->n] = *l->dev_allocated;
    if (o[ll->n].site) site[ll->n] = *o[ll->n].site, o[ll->n].site = &site[ll->n];
    ll->l[ll->n] = (rt_leak){l->addr, l->size, NULL, &o[ll->n]};
    ll->n++;
  }
  ll->count++;
  ll->bytes += l->size;
}

static void note_repeat(void *arg, const rt_seen_site *site) {
  (void)arg;
  rt_err_repeats e = {site->kind, &site->where, site->hits, site->printed};
  rt_report_repeats(&rt_gsan.log, &e);
}

/* A child forked after set-up has no monitor thread and may not use CUDA
 * (the driver does not survive fork): its exit must not wait for the one or
 * drain through the other, and the parent's allocations are not its leaks. */
static void after_fork_in_child(void) { rt_gsan.forked = 1; }

/* print_stats: what gsan's memory costs, per device. Fixed: slot tables,
 * spare granules and the ring; per allocation: the physical memory behind
 * the peak of live allocations beyond the bytes they asked for. */
static void print_stats(void) {
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = &rt_gsan.dev[i];
    if (!d->ready) continue;
    rt_arena_stats s;
    rt_arena_get_stats(d->arena, &s);
    rt_gsan_say("stats: device %d: %llu allocations, %llu frees, %llu live at exit", d->device,
                (unsigned long long)s.allocs, (unsigned long long)s.frees, (unsigned long long)s.live_allocs);
    rt_gsan_say("stats: device %d: peak live: %llu allocations, %llu bytes asked for, %llu bytes mapped behind them",
                d->device, (unsigned long long)s.peak_live_allocs, (unsigned long long)s.peak_live_bytes,
                (unsigned long long)s.peak_mapped_data_bytes);
    rt_gsan_say("stats: device %d: fixed: %llu bytes of slot tables, %llu bytes of spare granules, %llu bytes of "
                "report ring (host)",
                d->device, (unsigned long long)s.mapped_table_bytes, (unsigned long long)s.spare_data_bytes,
                (unsigned long long)rt_ring_bytes(d->ring.capacity));
  }
  unsigned long long all, copies, proofs;
  rt_launch_counts(&all, &copies, &proofs);
  rt_gsan_say("stats: %llu kernel launches, %llu of them through launch-bounds copies, %llu of those proven at launch",
              all, copies, proofs);
}

static const char *unwinder; /* the host stack capture at start, for verbosity */

static void at_exit(void) {
  if (!rt_gsan_is_ready() || rt_gsan.forked) return;
  rt_gsan.stop = 1;
  rt_exit_wake();
  pthread_join(rt_gsan.monitor, NULL);
  rt_gsan_last_words();
  rt_canary_exit();
  /* like LeakSanitizer: leaks matter only in a run with no other error (a
   * program stopped by one rarely gets to free its memory) */
  if (rt_gsan.flags.leak_check && !rt_gsan.log.reports) {
    static leak_list ll;
    for (int i = 0; i < RT_MAX_DEVICES; i++)
      if (rt_gsan.dev[i].ready) rt_arena_foreach_live(rt_gsan.dev[i].arena, note_leak, &ll);
    rt_foreign_foreach_live(note_leak, &ll);
    rt_heap_foreach_live(note_heap_leak, &ll);
    for (size_t i = 0; i < gone.n; i++) note_leak(&ll, &gone.p[i]);
    rt_err_leaks e = {ll.l, ll.n, ll.count, ll.bytes};
    rt_report_leaks(&rt_gsan.log, &e);
  }
  if (rt_gsan.flags.print_stats) print_stats();
  if (rt_gsan.flags.verbosity && rt_unwind_method() != unwinder) rt_gsan_say("host stacks: %s", rt_unwind_method());
  if (rt_gsan.flags.verbosity)
    for (int i = 0; i < rt_gsan.suppress.n; i++)
      if (rt_gsan.suppress.s[i].hits)
        rt_gsan_say("suppressed %lu report(s) with %s:%s", rt_gsan.suppress.s[i].hits, rt_gsan.suppress.s[i].kind,
                    rt_gsan.suppress.s[i].pattern);
  if (rt_gsan.log.reports) die();
}

/* the ring's control word zeroed on gsan's own stream: setting up can
 * happen while the program captures a graph (its first allocation or module
 * load inside the capture), where work on the legacy stream would end the
 * capture */
static int zero_on_own_stream(rt_dev *d, CUdeviceptr p, size_t n) {
  if (!d->own_stream || !rt_gsan.vmm_api.MemsetD8Async) return rt_gsan.cu.MemsetD8(p, 0, n);
  CUresult r = rt_gsan.vmm_api.MemsetD8Async(p, 0, n, d->own_stream);
  return r != CUDA_SUCCESS ? r : rt_gsan.cu.StreamSynchronize(d->own_stream);
}

/* what runs once per process, when the first device is set up */
static void start(void) {
  if (rt_gsan.flags.verbosity) rt_gsan_say("host stacks: %s", unwinder = rt_unwind_method());
  atexit(at_exit);
  pthread_atfork(NULL, NULL, after_fork_in_child);
  rt_exit_start();
  pthread_create(&rt_gsan.monitor, NULL, monitor, NULL);
}

/* Under rt_gsan.lock, with a context on dev current; d->ready or d->failed
 * when it succeeds or gives up. Each device's arena has its own addresses
 * (rt_arena_default_params), so the device of any pointer is known. */
static void set_up(rt_dev *d, CUdevice dev) {
  int major = 0, minor = 0;
  rt_gsan.cu.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  rt_gsan.cu.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  d->arch = major * 10 + minor;
  d->device = (int)dev;
  if (!rt_gsan.cu.CtxGetCurrent || rt_gsan.cu.CtxGetCurrent(&d->cuctx) != CUDA_SUCCESS) d->cuctx = NULL;
  if (!d->cuctx || !rt_gsan.cu.CtxGetId || rt_gsan.cu.CtxGetId(d->cuctx, &d->ctx_id) != CUDA_SUCCESS) d->ctx_id = 0;
  /* the arena (VMM memory, not the context's) outlives a device reset */
  if (!d->arena) {
    int err = rt_vmm_cuda(&d->vmm, &rt_gsan.vmm_api, (int)dev);
    rt_arena_params p = rt_arena_default_params((int)dev);
    rt_status st = err ? RT_VMM_ERROR : rt_arena_create(&d->vmm, &p, &d->arena);
    if (st != RT_OK) {
      rt_gsan_say("cannot set up the arena on device %d (%s); its memory is not checked", (int)dev,
                  rt_status_name(st));
      d->arena = NULL;
      d->failed = 1;
      return;
    }
  }
  /* gsan's own non-blocking stream: its copies and the slot-table writes */
  if (!rt_gsan.cu.StreamCreate || rt_gsan.cu.StreamCreate(&d->own_stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
    d->own_stream = 0;
  /* the ring in plain host memory registered with the driver: it outlives
   * the context, so the last records can be read at exit */
  uint32_t cap = (uint32_t)rt_gsan.flags.ring_capacity;
  size_t bytes = (rt_ring_bytes(cap) + 4095) & ~(size_t)4095;
  void *mem = d->ring.mem; /* kept from before a device reset */
  CUdeviceptr dring;
  if (!mem && posix_memalign(&mem, 4096, bytes) != 0) mem = NULL;
  if (mem) memset(mem, 0, bytes);
  if (!mem || rt_gsan.cu.MemHostRegister(mem, bytes, CU_MEMHOSTREGISTER_DEVICEMAP) != CUDA_SUCCESS ||
      rt_gsan.cu.MemHostGetDevicePointer(&dring, mem, 0) != CUDA_SUCCESS ||
      rt_gsan.cu.MemAlloc(&d->ring_ctl, GSAN_RING_CTL_BYTES) != CUDA_SUCCESS ||
      zero_on_own_stream(d, d->ring_ctl, GSAN_RING_CTL_BYTES)) {
    rt_gsan_say("cannot set up the report ring on device %d; its errors are not reported", (int)dev);
    d->failed = 1;
    return;
  }
  rt_ring_init(&d->ring, mem, cap);
  /* slot-table entries written on gsan's stream; launches wait for them */
  if (rt_vmm_cuda_stream(&d->vmm, d->own_stream, rt_gsan.flags.async_tables) != 0 && rt_gsan.flags.verbosity)
    rt_gsan_say("no stream for slot-table writes: each is a copy and a wait for the whole device");
  rt_arena_ctx(d->arena, d->ctx);
  memcpy(d->ctx + GSAN_CTX_RING, &dring, 8);
  memcpy(d->ctx + GSAN_CTX_RING_CTL, &d->ring_ctl, 8);
  __atomic_store_n(&d->ready, 1, __ATOMIC_RELEASE);
  /* libraries loaded while another device was current hold that device's
   * arena in this context's copy of their __gsan_ctx, or nothing */
  rt_gsan_fill_libraries(d);
  if (!rt_gsan.ready) {
    __atomic_store_n(&rt_gsan.ready, 1, __ATOMIC_RELEASE);
    start();
  }
  if (rt_gsan.flags.verbosity) rt_gsan_say("arena and ring ready on device %d (sm_%d)", (int)dev, d->arch);
}


/* Under rt_gsan.lock: d's context is about to be reset (alive: its stream
 * and the ring's control block are still there to use) or has been (found
 * by its new id: nothing of the old one is left). Its allocations are gone
 * with it; gsan's stream and ring there are made again at the next use. */
static void forget_context(rt_dev *d, int alive) {
  CUcontext cur = NULL;
  if (rt_gsan.cu.CtxGetCurrent) rt_gsan.cu.CtxGetCurrent(&cur);
  int pushed = alive && rt_gsan.cu.CtxPushCurrent(d->cuctx) == CUDA_SUCCESS;
  if (!pushed) rt_vmm_cuda_detach(&d->vmm, cur == d->cuctx); /* the old stream is no more */
  /* the allocations go with the context: freed without a report (a later
   * use of one is a use after free), and, as the program never freed them,
   * leaks at exit (as compute-sanitizer reports them at the reset) */
  rt_canary_forget_device(d);
  rt_live_list l = {NULL, 0, 0};
  rt_arena_foreach_live(d->arena, rt_gsan_note_live, &l);
  for (size_t i = 0; i < l.n; i++) {
    rt_arena_free(d->arena, l.p[i].base, NULL);
    if (!l.p[i].kept) rt_gsan_note_live(&gone, &l.p[i]);
  }
  free(l.p);
  rt_heap_forget(d);
  rt_launch_forget(); /* the context's modules went too */
  if (pushed) {
    /* the table writes land before the stream goes; what the control
     * block counted is kept */
    rt_vmm_cuda_order(&d->vmm, NULL, 1);
    read_ctl(d);
    if (d->ring.mem && rt_gsan.cu.MemHostUnregister) rt_gsan.cu.MemHostUnregister(d->ring.mem);
    CUcontext prev;
    rt_gsan.cu.CtxPopCurrent(&prev);
    rt_vmm_cuda_detach(&d->vmm, 0);
  }
  if (rt_gsan.flags.verbosity)
    rt_gsan_say("device %d reset: %zu live allocation(s) went with its context", d->device, l.n);
  __atomic_store_n(&d->ready, 0, __ATOMIC_RELEASE);
  d->own_stream = 0;
  d->ring_ctl = 0;
}

/* 1 when d's context is not the one gsan set up in any more */
static int context_replaced(const rt_dev *d) {
  unsigned long long id = 0;
  if (!d->ctx_id || !rt_gsan.cu.CtxGetId) return 0;
  return rt_gsan.cu.CtxGetId(d->cuctx, &id) != CUDA_SUCCESS || id != d->ctx_id;
}

/* forget_context under the lock, once: another thread may have forgotten
 * d while this one waited for the lock */
static void forget_once(rt_dev *d, int alive) {
  pthread_mutex_lock(&rt_gsan.lock);
  if (d->ready && (alive || context_replaced(d))) forget_context(d, alive);
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* d is ready, and still in the context it was set up in (forgotten if not) */
static int still_ready(rt_dev *d) {
  if (!context_replaced(d)) return 1;
  forget_once(d, 0);
  return 0;
}

void rt_gsan_device_reset(int device) {
  if ((unsigned)device >= RT_MAX_DEVICES || rt_gsan.forked) return;
  rt_dev *d = &rt_gsan.dev[device];
  if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE)) return;
  rt_gsan_drain(0);
  forget_once(d, 1);
}

rt_dev *rt_gsan_dev_here(void) {
  CUdevice dev;
  if (!rt_gsan.cu.CtxGetDevice || rt_gsan.cu.CtxGetDevice(&dev) != CUDA_SUCCESS) return NULL; /* no context */
  if ((unsigned)dev >= RT_MAX_DEVICES) return NULL;
  rt_dev *d = &rt_gsan.dev[dev];
  if (__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) && still_ready(d)) return d;
  if (d->failed || rt_gsan.forked) return NULL;
  pthread_mutex_lock(&rt_gsan.lock);
  if (!d->ready && !d->failed) {
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    rt_gsan_capture_swap(&mode);
    set_up(d, dev);
    rt_gsan_capture_swap(&mode);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
  return d->ready ? d : NULL;
}
