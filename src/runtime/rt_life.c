/* The process's life (rt_life.h): gsan's start when the program first asks
 * for the driver, the monitor thread (started with the first device) that
 * drains the rings and ticks the listeners, the last words, and at exit the
 * leak check and the exit status. Lock rule: start-up runs under
 * rt_gsan.lock; the last words and the leak check take it for what they
 * read (the rings, the per-site counts); the monitor holds it only inside
 * rt_drain. */
#include "rt_life.h"

#include "rt_depot.h"
#include "rt_device.h"
#include "rt_drain.h"
#include "rt_driver.h"
#include "rt_events.h"
#include "rt_exit.h"
#include "rt_foreign.h"
#include "rt_gsan.h"
#include "rt_unwind.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_t monitor_thread;
static volatile int stop;

void rt_life_init(void *get_proc, const rt_listener *const *listeners) {
  int first = 0;
  pthread_mutex_lock(&rt_gsan.lock);
  if (!rt_driver.get_proc) {
    first = 1;
    rt_events_install(listeners);
    rt_gsan_configure();
    rt_gsan.log.halt = rt_exit_die;
    rt_driver_init((rt_get_proc_fn)get_proc);
    if (rt_gsan.flags.verbosity) rt_gsan_say("interposed cuGetProcAddress");
  }
  pthread_mutex_unlock(&rt_gsan.lock);
  /* outside the lock: loading the Sanitizer API may call the driver */
  if (first) rt_events_start();
}

static void note_repeat(void *arg, const rt_seen_site *site);

/* Held by the monitor while it drains and ticks, and by a thread that forks
 * (fork_prepare) until the child exists: a child never starts with the
 * monitor stopped half-way in an allocator or a lock (an allocator without
 * fork handlers, as AddressSanitizer's, then hangs the child at exit). */
static pthread_mutex_t ticking = PTHREAD_MUTEX_INITIALIZER;

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
  rt_driver_capture_swap(&mode);
  while (!stop) {
    if (!rt_exit_wait((unsigned)rt_gsan.flags.monitor_ms)) {
      pthread_mutex_lock(&ticking);
      rt_drain(0);
      rt_events_tick();
      pthread_mutex_unlock(&ticking);
    }
  }
  return NULL;
}

/* the counts of each device whose context is there to ask (not one reset
 * unseen since: its control block went with it), then the records full
 * rings could not keep */
static void read_counts(void) {
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = rt_device_at(i);
    if (d->ready && d->cuctx && !rt_device_replaced(d) && rt_driver.cu.CtxPushCurrent(d->cuctx) == CUDA_SUCCESS) {
      rt_device_read_ctl(d);
      CUcontext prev;
      rt_driver.cu.CtxPopCurrent(&prev);
    }
    if (!d->unrecorded) continue;
    rt_err_unrecorded e = {d->device, d->unrecorded, d->ring.capacity};
    rt_report_unrecorded(&rt_gsan.log, &e);
  }
}

void rt_life_last_words(void) {
  static int said;
  if (__atomic_exchange_n(&said, 1, __ATOMIC_ACQ_REL)) return;
  fflush(stdout); /* the program's own output before gsan's last words */
  rt_drain(1);
  pthread_mutex_lock(&rt_gsan.lock);
  read_counts();
  rt_seen_foreach_repeat(&rt_gsan.seen, note_repeat, NULL);
  pthread_mutex_unlock(&rt_gsan.lock);
  rt_report_held(&rt_gsan.log);
}

/* at exit: stop the monitor, take what the device wrote (a trapped kernel
 * may have left holes), and exit with exitcode if anything was reported */
#define LEAKS_LISTED 32
typedef struct leak_list { rt_leak l[LEAKS_LISTED]; unsigned n; uint64_t count, bytes; } leak_list;

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
  int v = rt_suppress_match(&rt_gsan.suppress, RT_KIND_LEAK, mods, trace_modules(t, mods, 8), st.frame, st.n) != NULL;
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
static void fork_prepare(void) { pthread_mutex_lock(&ticking); }
static void fork_parent(void) { pthread_mutex_unlock(&ticking); }
static void after_fork_in_child(void) {
  pthread_mutex_init(&ticking, NULL); /* the child has no monitor */
  rt_gsan.forked = 1;
}

/* print_stats: what gsan's memory costs, per device. Fixed: slot tables,
 * spare granules and the ring; per allocation: the physical memory behind
 * the peak of live allocations beyond the bytes they asked for. */
static void print_stats(void) {
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = rt_device_at(i);
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
    rt_gsan_say("stats: device %d: %llu VMM maps of allocations' memory; %llu allocations took a slot freed in "
                "stream order, %llu bytes held at exit",
                d->device, (unsigned long long)s.data_maps, (unsigned long long)s.reused,
                (unsigned long long)s.held_bytes);
  }
  rt_events_stats();
}

static const char *unwinder; /* the host stack capture at start, for verbosity */

static void at_exit(void) {
  if (!rt_gsan_is_ready() || rt_gsan.forked) return;
  stop = 1;
  rt_exit_wake();
  pthread_join(monitor_thread, NULL);
  rt_life_last_words();
  rt_events_exit();
  /* like LeakSanitizer: leaks matter only in a run with no other error (a
   * program stopped by one rarely gets to free its memory) */
  if (rt_gsan.flags.leak_check && !rt_gsan.log.reports) {
    static leak_list ll;
    for (int i = 0; i < RT_MAX_DEVICES; i++)
      if (rt_device_at(i)->ready) rt_arena_foreach_live(rt_device_at(i)->arena, note_leak, &ll);
    rt_foreign_foreach_live(note_leak, &ll);
    rt_events_leaks(note_heap_leak, &ll);
    rt_device_foreach_gone(note_leak, &ll);
    rt_err_leaks e = {ll.l, ll.n, ll.count, ll.bytes};
    rt_report_scope *sc = ll.count ? rt_report_begin(&rt_gsan.log, RT_KIND_LEAK, RT_REPORT_GOES_ON) : NULL;
    if (sc && rt_report_admit(sc)) rt_report_leaks(&rt_gsan.log, &e);
    if (sc) rt_report_end(sc);
  }
  rt_report_held(&rt_gsan.log); /* canaries found broken at exit, after the last words */
  if (rt_gsan.flags.print_stats) print_stats();
  if (rt_gsan.flags.verbosity && rt_unwind_method() != unwinder) rt_gsan_say("host stacks: %s", rt_unwind_method());
  if (rt_gsan.flags.verbosity)
    for (int i = 0; i < rt_gsan.suppress.n; i++)
      if (rt_gsan.suppress.s[i].hits)
        rt_gsan_say("suppressed %lu report(s) with %s:%s", rt_gsan.suppress.s[i].hits,
                    rt_suppress_kind(&rt_gsan.suppress.s[i]), rt_gsan.suppress.s[i].pattern);
  if (rt_gsan.log.reports) rt_exit_die();
}

/* what runs once per process, when the first device is set up */
static void start(void) {
  if (rt_gsan.flags.verbosity) rt_gsan_say("host stacks: %s", unwinder = rt_unwind_method());
  atexit(at_exit);
  pthread_atfork(fork_prepare, fork_parent, after_fork_in_child);
  rt_exit_start(rt_life_last_words);
  pthread_create(&monitor_thread, NULL, monitor, NULL);
}

/* the first device set up starts the monitor: a listener, the last of the
 * table (rt_listeners.c), after module tracking filled that device's copies;
 * under rt_gsan.lock (set-up), so once */
static void device_ready(rt_dev *d) {
  (void)d;
  if (!rt_gsan.ready) {
    __atomic_store_n(&rt_gsan.ready, 1, __ATOMIC_RELEASE);
    start();
  }
}

const rt_listener rt_life_listener = {.name = "life", .device_ready = device_ready};
