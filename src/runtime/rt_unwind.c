/* Host stack capture (rt_unwind.h). glibc's backtrace() runs libgcc's
 * unwinder, which finds and interprets each frame's DWARF call-frame
 * information anew at every capture: most of an allocation's host time under
 * gsan. libunwind's unw_backtrace (its x86-64 fast trace) keeps, per thread
 * and per return address, how to step over that frame, so a stack it has seen
 * before costs a few loads a frame (docs/results/stack-capture.md). Both give
 * the same return addresses.
 *
 * Three things make it more than a call:
 * - libunwind.so.8 also defines the C++ unwinding ABI (_Unwind_RaiseException
 *   and the rest) and backtrace. Linked into libgsan (DT_NEEDED), it would
 *   join the global scope of every program gsan preloads into, ahead of
 *   libgcc_s, and take over the program's C++ exceptions. It is loaded with
 *   dlopen(RTLD_LOCAL) instead, so only gsan calls it; its functions are
 *   found with glibc's own dlsym (rt_real_dlsym), not through the dlsym
 *   libgsan exports to the program.
 * - Its per-thread cache is keyed by return address and never emptied. Once a
 *   library is unloaded and other code is loaded where its code was, a cached
 *   frame layout would be applied to that code: wrong frames, or a load
 *   through a wrong frame pointer. So every capture reads the loader's load
 *   and unload counts (the first step of a dl_iterate_phdr); when they have
 *   changed, the executable segments are listed again, and once new code lies
 *   where unloaded code was, captures go back to backtrace() for good.
 * - Its cache costs each thread about 0.1 ms on its first capture (a table of
 *   256 KiB, and a step through the unwind information of every new frame),
 *   some 30 of backtrace()'s captures: a thread's first RT_UNWIND_WARM are
 *   backtrace()'s, so that one that allocates a few times never pays it. */
#include "rt_unwind.h"

#include "rt_dlsym.h"

#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <execinfo.h>
#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the symbol libunwind.h maps a unw_ name to (_ULx86_64_... on x86-64) */
#define SYM_(x) #x
#define SYM(x) SYM_(x)

/* an executable segment, and a hash of the path of the object it is in: one
 * object unloaded and another loaded with the same layout at the same place
 * differ only by that */
typedef struct range { uintptr_t lo, hi; uint64_t object; } range;
typedef struct ranges { range *r; size_t n, cap; } ranges;

static struct {
  pthread_once_t once;
  pthread_mutex_t lock;
  int (*fast)(void **, int);      /* unw_backtrace; NULL without libunwind */
  unsigned long long adds, subs;  /* the loader's counts when text was listed */
  ranges text;                    /* executable segments loaded then, by start */
  ranges gone;                    /* those of objects unloaded since */
  const char *method;             /* set once fast captures stop */
} uw = {PTHREAD_ONCE_INIT, PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, {NULL, 0, 0}, {NULL, 0, 0}, NULL};

static int push(ranges *rs, range r) {
  if (rs->n == rs->cap) {
    size_t cap = rs->cap ? rs->cap * 2 : 256;
    range *n = realloc(rs->r, cap * sizeof *n);
    if (!n) return -1;
    rs->r = n;
    rs->cap = cap;
  }
  rs->r[rs->n++] = r;
  return 0;
}

typedef struct listing { ranges text; unsigned long long adds, subs; int failed; } listing;

static int list_text(struct dl_phdr_info *info, size_t size, void *arg) {
  listing *l = arg;
  (void)size;
  l->adds = info->dlpi_adds;
  l->subs = info->dlpi_subs;
  uint64_t object = 1469598103934665603ull; /* FNV-1a of the path */
  for (const char *c = info->dlpi_name ? info->dlpi_name : ""; *c; c++)
    object = (object ^ (unsigned char)*c) * 1099511628211ull;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && push(&l->text, (range){lo, lo + ph->p_memsz, object}) < 0)
      l->failed = 1;
  }
  return 0;
}

static int by_start(const void *a, const void *b) {
  uintptr_t x = ((const range *)a)->lo, y = ((const range *)b)->lo;
  return x < y ? -1 : x > y;
}

static int listed(const ranges *rs, range r) {
  if (!rs->n) return 0; /* bsearch wants an array, even of none */
  const range *f = bsearch(&r, rs->r, rs->n, sizeof r, by_start);
  return f && f->hi == r.hi && f->object == r.object;
}

static void stop_fast(const char *why) { __atomic_store_n(&uw.method, why, __ATOMIC_RELEASE); }

/* Under uw.lock: the executable segments now, against those of the last
 * listing. A segment gone is remembered; a new one over a gone one ends fast
 * captures. */
static void relist(void) {
  listing now = {{NULL, 0, 0}, 0, 0, 0};
  dl_iterate_phdr(list_text, &now);
  if (now.failed) {
    free(now.text.r);
    stop_fast("glibc backtrace(): out of memory to follow the loaded libraries");
    return;
  }
  qsort(now.text.r, now.text.n, sizeof now.text.r[0], by_start);
  for (size_t i = 0; i < uw.text.n; i++)
    if (!listed(&now.text, uw.text.r[i]) && push(&uw.gone, uw.text.r[i]) < 0)
      stop_fast("glibc backtrace(): out of memory to follow the loaded libraries");
  for (size_t i = 0; i < now.text.n; i++) {
    range r = now.text.r[i];
    if (listed(&uw.text, r)) continue;
    for (size_t j = 0; j < uw.gone.n; j++)
      if (r.lo < uw.gone.r[j].hi && uw.gone.r[j].lo < r.hi)
        stop_fast("glibc backtrace(): a library was loaded where an unloaded one's code was "
                  "(libunwind's cache could mistake its frames)");
  }
  free(uw.text.r);
  uw.text = now.text;
  __atomic_store_n(&uw.adds, now.adds, __ATOMIC_RELEASE);
  __atomic_store_n(&uw.subs, now.subs, __ATOMIC_RELEASE);
}

static void init(void) {
  void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    stop_fast("glibc backtrace(): libunwind.so.8 not found");
    return;
  }
  /* a cache per thread: the threads that allocate share no lock when one
   * of them meets a frame it has not seen */
  int (*set_policy)(unw_addr_space_t, unw_caching_policy_t) = (int (*)(unw_addr_space_t, unw_caching_policy_t))rt_real_dlsym(
      h, SYM(unw_set_caching_policy));
  unw_addr_space_t *local = (unw_addr_space_t *)rt_real_dlsym(h, SYM(unw_local_addr_space));
  if (set_policy && local) set_policy(*local, UNW_CACHE_PER_THREAD);
  pthread_mutex_lock(&uw.lock);
  relist();
  pthread_mutex_unlock(&uw.lock);
  *(void **)&uw.fast = rt_real_dlsym(h, "unw_backtrace");
  if (!uw.fast) stop_fast("glibc backtrace(): libunwind.so.8 has no unw_backtrace");
}

static int counts(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  unsigned long long *c = arg;
  c[0] = info->dlpi_adds;
  c[1] = info->dlpi_subs;
  return 1; /* the counts are the same for every object: the first will do */
}

static __thread unsigned thread_captures;

/* 1 when libunwind may capture: checked before each capture */
static int fast_ok(void) {
  if (__atomic_load_n(&uw.method, __ATOMIC_ACQUIRE)) return 0;
  if (thread_captures < RT_UNWIND_WARM) return thread_captures++, 0;
  unsigned long long c[2] = {0, 0};
  dl_iterate_phdr(counts, c);
  if (c[0] != __atomic_load_n(&uw.adds, __ATOMIC_ACQUIRE) || c[1] != __atomic_load_n(&uw.subs, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&uw.lock);
    relist();
    pthread_mutex_unlock(&uw.lock);
  }
  return !__atomic_load_n(&uw.method, __ATOMIC_ACQUIRE);
}

/* this function's own frame comes first in either unwinder's answer (the
 * copy after the call keeps it from being a tail call), and is dropped */
int rt_unwind_backtrace(void **pc, int max) {
  void *all[RT_UNWIND_MAX + 1];
  int n;
  if (max > RT_UNWIND_MAX) max = RT_UNWIND_MAX;
  if (max <= 0) return 0;
  pthread_once(&uw.once, init);
  if (fast_ok()) n = uw.fast(all, max + 1);
  else n = backtrace(all, max + 1);
  if (n <= 1) return 0;
  memcpy(pc, all + 1, (size_t)(n - 1) * sizeof all[0]);
  return n - 1;
}

const char *rt_unwind_method(void) {
  pthread_once(&uw.once, init);
  const char *m = __atomic_load_n(&uw.method, __ATOMIC_ACQUIRE);
  return m ? m : "libunwind (unw_backtrace, a cache per thread)";
}
