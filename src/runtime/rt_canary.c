/* Canaries and guard gaps (rt_canary.h). The words are written through the
 * arena's VMM table (d->vmm.set64): gathered with the slot-table entries,
 * sent as one batch of stream writes on gsan's own stream, and every launch
 * is ordered after them, so writing them costs no driver call of its own.
 * Checks read them back with copies on that same non-blocking stream (after
 * the queued writes; never waiting for the program's streams). One lock
 * covers the lists and the reads, and a free holds it across the arena's
 * free, so no check reads memory that has gone. Reports are made after
 * the lock is dropped, each in a report scope (rt_report.h): a broken
 * canary is an error in device memory (RT_REPORT_HALTS), a fault is the
 * driver's error the program is given (RT_REPORT_GOES_ON). */
#include "rt_canary.h"

#include "rt_depot.h"
#include "rt_device.h"
#include "rt_driver.h"
#include "rt_exit.h"
#include "rt_gsan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* allocations checked at synchronising calls and by the monitor */
#define RECENT 64
/* kernels named in a report, and the functions whose names are kept */
#define LOGGED 8
#define NAMES 4096 /* a power of two: the table is open addressing on the handle */
#define NAME_LEN 192
#define MAX_PARAMS 32

typedef struct fn_entry {
  CUfunction f;
  char name[NAME_LEN];
  unsigned nptr;                /* parameters of 8 bytes: where a pointer may be */
  unsigned char ptr[MAX_PARAMS];
} fn_entry;

static struct {
  pthread_mutex_t lock;
  pthread_once_t once;
  uint64_t secret;
  /* each with the launch count when its canary was last known intact: one
   * no kernel has run since is not read again (an allocation and free with
   * no launch between them cost no read) */
  struct { uint64_t base, stamp; } recent[RECENT];
  unsigned nrecent;
  uint64_t launch_seq;
  /* per device, the allocation number its arena had reached at the latest
   * launch: an allocation made after it no kernel has seen */
  uint64_t seq_at_launch[RT_MAX_DEVICES];
  const char *log[LOGGED]; /* names (in fns, which only grows) */
  unsigned nlog;
  uint64_t launches;       /* since the last clean check */
  uint64_t synced_launches; /* launches since the last successful synchronisation */
  const char *synced_log[LOGGED];
  unsigned nsynced;
  fn_entry fns[NAMES];
  unsigned nfns;
  uint64_t last_check_ns;
  int fault_reported;
  CUresult (*DtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*FuncGetName)(const char **, CUfunction);
  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);
  /* cudart may launch a CUkernel cast to a CUfunction: asked of these then */
  CUresult (*KernelGetName)(const char **, CUkernel);
  CUresult (*KernelGetParamInfo)(CUkernel, size_t, size_t *, size_t *);
} cs = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static uint64_t mix(uint64_t x) { /* splitmix64 */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t rt_canary_word(uint64_t secret, uint64_t base, uint64_t size, uint64_t off) {
  return mix(secret ^ mix(base ^ mix(size + off)));
}

void rt_canary_window(uint64_t base, uint64_t size, uint64_t slot_size, uint64_t granule, uint64_t window,
                      uint64_t *start, uint64_t *len) {
  uint64_t mapped_end = base + (slot_size < granule ? slot_size : (size + granule - 1) / granule * granule);
  uint64_t end = base + size, aligned = (end + 7) & ~7ull;
  uint64_t stop = aligned + (window & ~7ull);
  if (stop > mapped_end) stop = mapped_end;
  /* an end 1 to 4 bytes past an 8-byte boundary: a 4-byte word first */
  *start = (end & 7) && (end & 7) <= 4 ? (end & ~7ull) + 4 : aligned;
  *len = *start < stop ? stop - *start : 0;
}

/* the canary byte at address x of the allocation at base of size bytes:
 * its 8-byte word is numbered from the word the end falls in */
static unsigned char canary_byte(uint64_t base, uint64_t size, uint64_t x) {
  uint64_t w = rt_canary_word(cs.secret, base, size, (x & ~7ull) - ((base + size) & ~7ull));
  return (unsigned char)(w >> (8 * (x & 7)));
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void init(void) {
  if (getrandom(&cs.secret, sizeof cs.secret, 0) != (ssize_t)sizeof cs.secret)
    cs.secret = mix((uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&cs);
  cs.last_check_ns = now_ns(); /* the monitor's first check after a period */
  *(void **)&cs.DtoHAsync = rt_driver_real("cuMemcpyDtoHAsync");
  /* CUDA 12.3-12.4 calls: asked for at 12.4, since the driver finds no
   * entry point at a version older than the call's (seen on the H100: every
   * name came back unknown when these were asked for at RT_OWN_VERSION) */
  *(void **)&cs.FuncGetName = rt_driver_real_v("cuFuncGetName", 12040, 0);
  *(void **)&cs.FuncGetParamInfo = rt_driver_real_v("cuFuncGetParamInfo", 12040, 0);
  *(void **)&cs.KernelGetName = rt_driver_real_v("cuKernelGetName", 12040, 0);
  *(void **)&cs.KernelGetParamInfo = rt_driver_real_v("cuKernelGetParamInfo", 12040, 0);
}

static int on(void) {
  if (!rt_gsan.flags.canaries || rt_gsan.forked) return 0;
  pthread_once(&cs.once, init);
  return 1;
}


/* ---- the recently used allocations (under cs.lock) ---- */
static int find_recent(uint64_t base) {
  for (unsigned i = 0; i < cs.nrecent; i++)
    if (cs.recent[i].base == base) return (int)i;
  return -1;
}

/* stamp: the launch count its canary is known intact at; a kernel that
 * takes it as a parameter leaves that as it was */
static void note_recent(uint64_t base, uint64_t stamp) {
  if (find_recent(base) >= 0) return;
  if (cs.nrecent == RECENT) memmove(cs.recent, cs.recent + 1, --cs.nrecent * sizeof cs.recent[0]);
  cs.recent[cs.nrecent].base = base;
  cs.recent[cs.nrecent++].stamp = stamp;
}

static void drop_recent(uint64_t base) {
  int i = find_recent(base);
  if (i >= 0) memmove(cs.recent + i, cs.recent + i + 1, (--cs.nrecent - (unsigned)i) * sizeof cs.recent[0]);
}

/* 1 when no kernel ran since the canary of the allocation at base (info,
 * of d's arena) was last known intact: made after the latest launch, or
 * found intact since */
static int unchanged(const rt_dev *d, const rt_alloc_info *info) {
  if (info->seq > cs.seq_at_launch[d->device]) return 1;
  int i = find_recent(info->base);
  return i >= 0 && cs.recent[i].stamp == cs.launch_seq;
}

/* ---- reading canaries back ---- */
typedef struct broken {
  uint64_t addr;
  rt_alloc_info info;
} broken;

/* The window of a live allocation in d: 0 when it has none. */
static int window_of(const rt_dev *d, const rt_alloc_info *i, uint64_t *start, uint64_t *len) {
  rt_canary_window(i->base, i->size, i->slot_size, d->vmm.granule, (uint64_t)rt_gsan.flags.canary_bytes, start, len);
  return *len != 0;
}

/* 1 and *out when the bytes got, read from [start, start + len) of i's
 * window, are not its canary */
static int compare(const rt_alloc_info *i, const unsigned char *got, uint64_t start, uint64_t len, broken *out) {
  for (uint64_t off = 0; off < len; off++)
    if (got[off] != canary_byte(i->base, i->size, start + off)) {
      out->addr = start + off;
      out->info = *i;
      return 1;
    }
  return 0;
}

/* Checks the allocation at base, in state (live, or freed while its memory
 * is still mapped: a retired slot), under cs.lock: 1 and *out when a canary
 * word differs. A read the driver refuses (a context lost after a fault)
 * says nothing, nor does a context reset unseen (the monitor may check
 * before the program's next call forgets it: its stream is gone). */
static int check_slot(uint64_t base, int state, broken *out) {
  rt_dev *d = rt_device_of(base);
  rt_alloc_info i;
  uint64_t start, len;
  if (!d || !d->own_stream || !d->cuctx || !cs.DtoHAsync || rt_arena_find(d->arena, base, &i) != RT_OK ||
      i.state != state || i.base != base || !window_of(d, &i, &start, &len) || rt_device_replaced(d))
    return 0;
  uint64_t buf[RT_CANARY_MAX_WINDOW / 8];
  if (rt_driver.cu.CtxPushCurrent(d->cuctx) != CUDA_SUCCESS) return 0;
  /* the words still gathered go out first; the copy follows them on the stream */
  CUresult r = (CUresult)rt_vmm_cuda_order(&d->vmm, d->own_stream, 0);
  if (r == CUDA_SUCCESS) r = cs.DtoHAsync(buf, start, len, d->own_stream);
  if (r == CUDA_SUCCESS) r = rt_driver.cu.StreamSynchronize(d->own_stream);
  CUcontext prev;
  rt_driver.cu.CtxPopCurrent(&prev);
  if (r != CUDA_SUCCESS) return 0;
  return compare(&i, (const unsigned char *)buf, start, len, out);
}

static int check_one(uint64_t base, broken *out) { return check_slot(base, RT_SLOT_LIVE, out); }

/* Checks the recently used allocations (under cs.lock); a broken one is
 * dropped from the list (reported once). Returns how many are broken. An
 * intact one is marked as checked since the latest launch only when the
 * caller knows those launches are done (settled: after a wait for the whole
 * context, not one stream's). The monitor's check runs beside kernels that
 * may still write past an end, and marked, the free after them would skip
 * its check (tests/runtime/canary.test's "free" missed its overflow that
 * way, now and then, under load). */
static unsigned check_recent(broken *out, int settled) {
  unsigned n = 0;
  for (unsigned i = 0; i < cs.nrecent;) {
    if (cs.recent[i].stamp == cs.launch_seq) {
      i++;
    } else if (check_one(cs.recent[i].base, &out[n])) {
      drop_recent(cs.recent[i].base);
      n++;
    } else {
      if (settled) cs.recent[i].stamp = cs.launch_seq;
      i++;
    }
  }
  cs.last_check_ns = now_ns();
  return n;
}

/* after a check that found nothing: the kernels named from now on are new */
static void clean(void) {
  cs.nlog = 0;
  cs.launches = 0;
}

/* one report per broken canary: a suppression may name a kernel or a frame
 * of the allocation's stack; in halt mode the first one made ends the run */
static void report(const broken *b, unsigned n, const char *found_at, const char *const *kernels, unsigned nk,
                   uint64_t launches) {
  for (unsigned i = 0; i < n; i++) {
    rt_report_scope *sc = rt_report_begin(&rt_gsan.log, RT_KIND_GLOBAL_CANARY_OVERFLOW, RT_REPORT_HALTS);
    rt_region *reg = rt_report_region(sc, b[i].info.base, b[i].info.size);
    rt_report_stacks(sc, 0);
    if (!rt_report_suppressed(sc, kernels, (int)nk, reg->allocated) && rt_report_admit(sc)) {
      rt_err_canary e = {found_at, b[i].addr, *reg, kernels, nk, launches};
      rt_report_canary(&rt_gsan.log, &e);
    }
    rt_report_end(sc);
  }
}

/* A check's findings reported, with the kernel log as it was (copied under
 * the lock, which is dropped here). whole: the check covered every recent
 * allocation after a wait for every kernel, so a clean one starts the log
 * again; one allocation's check at its free, or a check after one stream's
 * wait, leaves it (the kernels it names may yet break another canary). */
static void finish(const broken *b, unsigned n, const char *found_at, int whole) {
  const char *k[LOGGED];
  unsigned nk = cs.nlog;
  uint64_t launches = cs.launches;
  memcpy(k, cs.log, nk * sizeof k[0]);
  if (!n && whole) clean();
  pthread_mutex_unlock(&cs.lock);
  report(b, n, found_at, k, nk, launches);
}

/* ---- the entry points ---- */
void rt_canary_put(rt_dev *d, uint64_t base) {
  rt_alloc_info i;
  uint64_t start, len;
  if (!on() || rt_arena_find(d->arena, base, &i) != RT_OK || !window_of(d, &i, &start, &len)) return;
  uint64_t x = start, stop = start + len;
  if (x & 7) {
    uint64_t w = rt_canary_word(cs.secret, i.base, i.size, 0); /* the end's own word: its upper half */
    if (d->vmm.set32(d->vmm.ctx, x, (uint32_t)(w >> 32)) != 0) return;
  }
  x = (x + 7) & ~7ull;
  for (; x < stop; x += 8)
    if (d->vmm.set64(d->vmm.ctx, x, rt_canary_word(cs.secret, i.base, i.size, x - ((i.base + i.size) & ~7ull))) != 0)
      return;
  pthread_mutex_lock(&cs.lock);
  note_recent(base, cs.launch_seq);
  pthread_mutex_unlock(&cs.lock);
}

rt_status rt_canary_free(rt_dev *d, uint64_t ptr, rt_alloc_info *info, const char *api) {
  if (!on()) return rt_arena_free(d->arena, ptr, info);
  broken b;
  rt_alloc_info i;
  pthread_mutex_lock(&cs.lock);
  unsigned n = rt_arena_find(d->arena, ptr, &i) == RT_OK && i.state == RT_SLOT_LIVE && i.base == ptr &&
               !unchanged(d, &i) && check_one(ptr, &b);
  rt_status st = rt_arena_free(d->arena, ptr, info);
  if (st == RT_OK) drop_recent(ptr);
  /* a kept slot stays live: reported now, and not again */
  if (n && st == RT_KEPT) drop_recent(ptr);
  finish(&b, n, api, 0);
  return st;
}

void rt_canary_retired(rt_dev *d, uint64_t ptr, const char *api) {
  if (!on()) return;
  broken b;
  rt_alloc_info i;
  pthread_mutex_lock(&cs.lock);
  unsigned n = rt_arena_find(d->arena, ptr, &i) == RT_OK && i.base == ptr && !unchanged(d, &i) &&
               check_slot(ptr, RT_SLOT_FREED, &b);
  drop_recent(ptr);
  finish(&b, n, api, 0);
}

int rt_canary_retired_window(rt_dev *d, uint64_t ptr, uint64_t *start, uint64_t *len, uint64_t *size) {
  if (!on()) return 0;
  rt_alloc_info i;
  pthread_mutex_lock(&cs.lock);
  int n = rt_arena_find(d->arena, ptr, &i) == RT_OK && i.base == ptr && i.state == RT_SLOT_FREED &&
          !unchanged(d, &i) && window_of(d, &i, start, len);
  drop_recent(ptr);
  pthread_mutex_unlock(&cs.lock);
  *size = n ? i.size : 0;
  return n;
}

void rt_canary_retired_read(rt_dev *d, uint64_t ptr, const unsigned char *got, uint64_t start, uint64_t len,
                            const char *api) {
  if (!on()) return;
  broken b;
  rt_alloc_info i;
  pthread_mutex_lock(&cs.lock);
  unsigned n = rt_arena_find(d->arena, ptr, &i) == RT_OK && i.base == ptr && i.state == RT_SLOT_FREED &&
               compare(&i, got, start, len, &b);
  finish(&b, n, api, 0);
}

/* the function's name and the parameters that may hold a pointer, asked of
 * the driver once (under cs.lock) */
static fn_entry *function(CUfunction f) {
  /* found by its handle in a table that never moves an entry (the log points
   * at names in it); a framework's programs launch hundreds of kernels, and
   * asking the driver again at every launch cost more than the launch */
  size_t h = ((uintptr_t)f >> 4) * 0x9e3779b97f4a7c15ull >> 52 & (NAMES - 1);
  fn_entry *e = NULL;
  for (unsigned probe = 0; probe < NAMES; probe++, h = (h + 1) & (NAMES - 1)) {
    if (cs.fns[h].f == f) return &cs.fns[h];
    if (!cs.fns[h].f) {
      /* kept three quarters full at most, so that a miss ends soon */
      if (cs.nfns < NAMES / 4 * 3) e = &cs.fns[h];
      break;
    }
  }
  /* past that, one entry is asked again at each launch, and a name the log
   * may still point to must not change under it */
  static fn_entry spare;
  if (e) cs.nfns++;
  else e = &spare;
  memset(e, 0, sizeof *e);
  e->f = f;
  const char *name = NULL;
  if (e == &spare)
    name = "(one of the kernels beyond the first 3072, whose names gsan does not keep)";
  else if ((!cs.FuncGetName || cs.FuncGetName(&name, f) != CUDA_SUCCESS || !name) &&
      (!cs.KernelGetName || cs.KernelGetName(&name, (CUkernel)f) != CUDA_SUCCESS || !name))
    name = "(a kernel whose name the driver did not give)";
  char buf[1024];
  snprintf(e->name, sizeof e->name, "%s", rt_demangle(name, buf, sizeof buf));
  size_t off, size;
  int as_kernel = !cs.FuncGetParamInfo || cs.FuncGetParamInfo(f, 0, &off, &size) != CUDA_SUCCESS;
  for (size_t p = 0; p < MAX_PARAMS; p++) {
    CUresult r = !as_kernel ? cs.FuncGetParamInfo(f, p, &off, &size)
                 : cs.KernelGetParamInfo ? cs.KernelGetParamInfo((CUkernel)f, p, &off, &size)
                                         : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS) break;
    if (size == 8) e->ptr[e->nptr++] = (unsigned char)p;
  }
  return e;
}

static void log_name(const char **log, unsigned *n, const char *name) {
  for (unsigned i = 0; i < *n; i++)
    if (log[i] == name) {
      memmove(log + i, log + i + 1, (*n - i - 1) * sizeof log[0]);
      log[*n - 1] = name;
      return;
    }
  if (*n == LOGGED) memmove(log, log + 1, --*n * sizeof log[0]);
  log[(*n)++] = name;
}

void rt_canary_launch(CUfunction f, void **params) {
  if (!rt_gsan_is_ready() || rt_gsan.forked) return;
  int canaries = on();
  pthread_mutex_lock(&cs.lock);
  static const char graph[] = "(the kernels of a CUDA graph)";
  const char *name = graph;
  if (f) {
    fn_entry *e = function(f);
    name = e->name;
    for (unsigned i = 0; canaries && params && i < e->nptr; i++) {
      uint64_t v;
      memcpy(&v, params[e->ptr[i]], 8);
      rt_alloc_info info;
      if (rt_gsan_find(v, &info) == RT_OK && info.state == RT_SLOT_LIVE) note_recent(info.base, cs.launch_seq);
    }
  }
  log_name(cs.log, &cs.nlog, name);
  log_name(cs.synced_log, &cs.nsynced, name);
  cs.launches++;
  cs.synced_launches++;
  cs.launch_seq++;
  for (int i = 0; i < RT_MAX_DEVICES; i++)
    if (__atomic_load_n(&rt_device_at(i)->ready, __ATOMIC_ACQUIRE))
      cs.seq_at_launch[i] = rt_arena_seq(rt_device_at(i)->arena);
  pthread_mutex_unlock(&cs.lock);
}

/* the allocations of the recent list that end at a guard gap (under cs.lock) */
static unsigned guard_gaps(rt_region *out, rt_stacks *st) {
  unsigned n = 0;
  for (unsigned i = 0; i < cs.nrecent && n < LOGGED; i++) {
    rt_dev *d = rt_device_of(cs.recent[i].base);
    rt_alloc_info info;
    uint64_t start, len;
    if (!d || rt_arena_find(d->arena, cs.recent[i].base, &info) != RT_OK || info.state != RT_SLOT_LIVE) continue;
    rt_canary_window(info.base, info.size, info.slot_size, d->vmm.granule, 8, &start, &len);
    if (len) continue;
    out[n] = (rt_region){info.base, info.size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
    rt_gsan_region_stacks(info.base, 0, &out[n], &st[n]);
    n++;
  }
  return n;
}

static void report_fault(CUresult r, const char *api) {
  static rt_region gaps[LOGGED];
  static rt_stacks st[LOGGED];
  const char *k[LOGGED];
  pthread_mutex_lock(&cs.lock);
  int first = !cs.fault_reported;
  cs.fault_reported = 1;
  unsigned nk = cs.nsynced, ng = first ? guard_gaps(gaps, st) : 0;
  uint64_t launches = cs.synced_launches;
  memcpy(k, cs.synced_log, nk * sizeof k[0]);
  pthread_mutex_unlock(&cs.lock);
  if (!first) return; /* the context is lost: every later call says so again */
  rt_report_scope *sc = rt_report_begin(&rt_gsan.log, RT_KIND_ILLEGAL_ADDRESS, RT_REPORT_GOES_ON);
  if (!rt_report_suppressed(sc, k, (int)nk, NULL) && rt_report_admit(sc)) {
    rt_err_fault e = {api, (int)r, k, nk, launches, gaps, ng};
    rt_report_fault(&rt_gsan.log, &e);
  }
  rt_report_end(sc);
}

void rt_canary_synced(CUresult r, const char *api, int whole) {
  if (!rt_gsan_is_ready() || rt_gsan.forked) return;
  if (r == CUDA_ERROR_ILLEGAL_ADDRESS) {
    report_fault(r, api);
    return;
  }
  if (r != CUDA_SUCCESS) return;
  int canaries = on();
  pthread_mutex_lock(&cs.lock);
  if (!canaries) {
    cs.nsynced = 0;
    cs.synced_launches = 0;
    pthread_mutex_unlock(&cs.lock);
    return;
  }
  uint64_t every = (uint64_t)rt_gsan.flags.canary_check_ms * 1000000ull;
  if (every && now_ns() - cs.last_check_ns < every) {
    pthread_mutex_unlock(&cs.lock);
    return;
  }
  static broken b[RECENT];
  unsigned n = check_recent(b, whole);
  /* a successful synchronisation: the fault report's list starts again */
  cs.nsynced = 0;
  cs.synced_launches = 0;
  finish(b, n, api, whole);
}

void rt_canary_tick(void) {
  /* canary_check_ms=0: synchronising calls check each time, the monitor never */
  if (!rt_gsan_is_ready() || !on() || !rt_gsan.flags.canary_check_ms) return;
  pthread_mutex_lock(&cs.lock);
  uint64_t every = (uint64_t)rt_gsan.flags.canary_check_ms * 1000000ull;
  /* nothing launched since the last clean check: nothing to read */
  if (!cs.launches || now_ns() - cs.last_check_ns < every) {
    pthread_mutex_unlock(&cs.lock);
    return;
  }
  static broken b[RECENT];
  unsigned n = check_recent(b, 0);
  /* kernels may still be running: the log stays until a synchronisation */
  const char *k[LOGGED];
  unsigned nk = cs.nlog;
  uint64_t launches = cs.launches;
  memcpy(k, cs.log, nk * sizeof k[0]);
  pthread_mutex_unlock(&cs.lock);
  report(b, n, "a check by the monitor thread", k, nk, launches);
}

/* at exit, every live allocation of every device: gathered first (the
 * arena's walk holds a class lock, which a check takes too) */
void rt_canary_exit(void) {
  if (!rt_gsan_is_ready() || !on()) return;
  static broken b[RECENT];
  unsigned n = 0;
  pthread_mutex_lock(&cs.lock);
  for (int k = 0; k < RT_MAX_DEVICES; k++) {
    rt_dev *d = rt_device_at(k);
    rt_live_list all = {NULL, 0, 0};
    if (d->ready) rt_arena_foreach_live(d->arena, rt_gsan_note_live, &all);
    for (size_t i = 0; i < all.n && n < RECENT; i++)
      n += (unsigned)(!unchanged(d, &all.p[i]) && check_one(all.p[i].base, &b[n]));
    free(all.p);
  }
  finish(b, n, "exit", 1);
}

void rt_canary_forget_device(const rt_dev *d) {
  pthread_mutex_lock(&cs.lock);
  for (unsigned i = 0; i < cs.nrecent;) {
    if (rt_arena_holds(d->arena, cs.recent[i].base)) drop_recent(cs.recent[i].base);
    else i++;
  }
  pthread_mutex_unlock(&cs.lock);
}

const rt_listener rt_canary_listener = {
    .name = "canary", .tick = rt_canary_tick, .exit = rt_canary_exit, .forget = rt_canary_forget_device};
