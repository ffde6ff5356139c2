/* stack_capture -- what one host stack capture costs, by unwinder, at the
 * depths of a real program's allocation stacks (frames of the program, then
 * of a shared library, libstack_capture_lib.so). gsan captures the stack at
 * every allocation and free (src/runtime/rt_unwind.c); this is how its
 * unwinder was chosen. Run by bench/stack_capture.sh, which writes
 * docs/results/stack-capture.md.
 *
 * Each unwinder is loaded with dlopen(RTLD_LOCAL), so that none of them takes
 * over another's symbols (libunwind.so.8 and LLVM's libunwind.so.1 both
 * define _Unwind_Backtrace, libunwind.so.8 also backtrace). Every one returns
 * the stack from its caller on, and every one must return exactly the return
 * addresses glibc's backtrace() returns: a row says so.
 *
 * Usage: stack_capture REPS CALLS DEPTH...  (median of REPS runs of CALLS
 * captures each, in ns per capture; DEPTH: frames on the stack, 8 or more) */
#define UNW_LOCAL_ONLY
#include "../src/runtime/rt_unwind.h"
#include "stack_capture.h"

#include <dlfcn.h>
#include <libunwind.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#define MAX 64
typedef int (*capture_fn)(void **pc, int max);
int lib_down(int depth, capture_fn fn, void **pc, int max);

/* ---- the unwinders ---- */
static int (*glibc_backtrace)(void **, int);
static _Unwind_Reason_Code (*gcc_backtrace)(_Unwind_Trace_Fn, void *);
static uintptr_t (*gcc_get_ip)(struct _Unwind_Context *);
static _Unwind_Reason_Code (*llvm_backtrace)(_Unwind_Trace_Fn, void *);
static uintptr_t (*llvm_get_ip)(struct _Unwind_Context *);
static int (*unw_bt)(void **, int);
static int (*unw_policy)(unw_addr_space_t, unw_caching_policy_t);
static unw_addr_space_t *unw_local;
static int (*unw_getctx)(unw_context_t *);
static int (*unw_init)(unw_cursor_t *, unw_context_t *);
static int (*unw_stp)(unw_cursor_t *);
static int (*unw_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);

#define SYM_(x) #x
#define SYM(x) SYM_(x)

typedef struct walk { void **pc; int n, max, skip; uintptr_t (*ip)(struct _Unwind_Context *); } walk;
static _Unwind_Reason_Code one_frame(struct _Unwind_Context *c, void *arg) {
  walk *w = arg;
  void *ip = (void *)w->ip(c);
  if (w->skip) w->skip--; /* the frame of the function that called _Unwind_Backtrace */
  else if (ip && w->n < w->max) w->pc[w->n++] = ip; /* libgcc ends with a frame at 0 */
  return w->n < w->max ? _URC_NO_REASON : _URC_END_OF_STACK;
}
/* each wrapper returns the stack from its caller on, as backtrace() does */
static __attribute__((noinline)) int by_glibc(void **pc, int max) {
  int n = glibc_backtrace(pc, max + 1);
  if (n > 0) memmove(pc, pc + 1, (size_t)--n * sizeof *pc); /* this wrapper's own frame */
  return n;
}
static __attribute__((noinline)) int by_libgcc(void **pc, int max) {
  walk w = {pc, 0, max, 1, gcc_get_ip};
  gcc_backtrace(one_frame, &w);
  return w.n;
}
static __attribute__((noinline)) int by_llvm(void **pc, int max) {
  walk w = {pc, 0, max, 1, llvm_get_ip};
  llvm_backtrace(one_frame, &w);
  return w.n;
}
static __attribute__((noinline)) int by_unw_backtrace(void **pc, int max) {
  int n = unw_bt(pc, max + 1);
  if (n > 0) memmove(pc, pc + 1, (size_t)--n * sizeof *pc);
  return n;
}
static __attribute__((noinline)) int by_unw_step(void **pc, int max) {
  unw_context_t ctx;
  unw_cursor_t cur;
  int n = 0;
  unw_getctx(&ctx);
  unw_init(&cur, &ctx);
  while (n < max && unw_stp(&cur) > 0) {
    unw_word_t ip;
    unw_reg(&cur, UNW_REG_IP, &ip);
    pc[n++] = (void *)ip;
  }
  return n;
}
static __attribute__((noinline)) int by_gsan(void **pc, int max) {
  int n = rt_unwind_backtrace(pc, max + 1);
  if (n > 0) memmove(pc, pc + 1, (size_t)--n * sizeof *pc);
  return n;
}

typedef struct method {
  const char *name;
  capture_fn fn;
  int policy; /* libunwind's caching policy to set first; -1: none */
  int available;
} method;
static method methods[] = {
    {"glibc backtrace() (libgcc, what gsan used)", by_glibc, -1, 0},
    {"libgcc _Unwind_Backtrace", by_libgcc, -1, 0},
    {"libunwind unw_backtrace, default caching", by_unw_backtrace, -1, 0},
    {"libunwind unw_backtrace, UNW_CACHE_GLOBAL", by_unw_backtrace, UNW_CACHE_GLOBAL, 0},
    {"libunwind unw_backtrace, UNW_CACHE_PER_THREAD", by_unw_backtrace, UNW_CACHE_PER_THREAD, 0},
    {"libunwind unw_step loop (UNW_CACHE_PER_THREAD)", by_unw_step, UNW_CACHE_PER_THREAD, 0},
    {"LLVM libunwind _Unwind_Backtrace", by_llvm, -1, 0},
    {"gsan rt_unwind_backtrace (libunwind + unload guard)", by_gsan, -1, 0},
};
#define NMETHODS (int)(sizeof methods / sizeof methods[0])

static void *sym(void *h, const char *name) { return h ? dlsym(h, name) : NULL; }

static void load(void) {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  void *gcc = dlopen("libgcc_s.so.1", RTLD_NOW | RTLD_LOCAL);
  void *unw = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  void *llvm = dlopen("libunwind.so.1", RTLD_NOW | RTLD_LOCAL);
  *(void **)&glibc_backtrace = sym(libc, "backtrace");
  *(void **)&gcc_backtrace = sym(gcc, "_Unwind_Backtrace");
  *(void **)&gcc_get_ip = sym(gcc, "_Unwind_GetIP");
  *(void **)&llvm_backtrace = sym(llvm, "_Unwind_Backtrace");
  *(void **)&llvm_get_ip = sym(llvm, "_Unwind_GetIP");
  *(void **)&unw_bt = sym(unw, "unw_backtrace");
  *(void **)&unw_policy = sym(unw, SYM(unw_set_caching_policy));
  unw_local = sym(unw, SYM(unw_local_addr_space));
  *(void **)&unw_getctx = sym(unw, SYM(unw_tdep_getcontext));
  *(void **)&unw_init = sym(unw, SYM(unw_init_local));
  *(void **)&unw_stp = sym(unw, SYM(unw_step));
  *(void **)&unw_reg = sym(unw, SYM(unw_get_reg));
  methods[0].available = glibc_backtrace != NULL;
  methods[1].available = gcc_backtrace && gcc_get_ip;
  methods[2].available = methods[3].available = methods[4].available = unw_bt && unw_policy && unw_local;
  methods[5].available = unw_getctx && unw_init && unw_stp && unw_reg && unw_policy && unw_local;
  methods[6].available = llvm_backtrace && llvm_get_ip;
  methods[7].available = 1;
}

/* ---- the stack: app frames, then the library's, then the capture ---- */
static capture_fn current;
static void *pcs[MAX];
static void *ref[MAX]; /* glibc's capture from the same frame, when comparing */
static int nref, comparing;
static __attribute__((noinline)) int capture(void **pc, int max) {
  if (comparing) nref = by_glibc(ref, MAX);
  int n = current(pc, max); /* one call site for every unwinder: the same first frame */
  __asm__ volatile("" ::: "memory");
  return n;
}
static __attribute__((noinline)) int app_down(int depth, int lib_depth) {
  int n = depth > 0 ? app_down(depth - 1, lib_depth) : lib_down(lib_depth, capture, pcs, MAX);
  __asm__ volatile("" ::: "memory");
  return n;
}
/* every capture is made through this one call of app_down, so that the
 * frames below it are the same whoever measures */
typedef struct depth { int app, lib; } depth;
static __attribute__((noinline)) int stack_through(capture_fn fn, depth d) {
  current = fn;
  int n = app_down(d.app, d.lib);
  __asm__ volatile("" ::: "memory");
  return n;
}
/* the program's frames and the library's that make a stack of frames
 * frames (as backtrace() counts them) for a stack_through from this
 * function's caller; half and half */
static __attribute__((noinline)) depth depth_for(int frames) {
  /* capture, lib_down, app_down, stack_through and below, less this frame */
  int base = stack_through(by_glibc, (depth){0, 0}) - 1;
  int extra = frames > base ? frames - base : 0;
  return (depth){extra / 2, extra - extra / 2};
}

static double timed(const method *m, int frames, int reps, int calls) {
  depth d = depth_for(frames);
  if (m->policy >= 0) unw_policy(*unw_local, (unw_caching_policy_t)m->policy);
  stack_through(m->fn, d); /* warm: caches filled */
  double *t = malloc((size_t)reps * sizeof *t);
  for (int r = 0; r < reps; r++) {
    double t0 = cpu_ns();
    for (int i = 0; i < calls; i++) stack_through(m->fn, d);
    t[r] = (cpu_ns() - t0) / calls;
  }
  double med = median(t, reps);
  free(t);
  return med;
}

/* the return addresses of m against glibc's from the same frame: all the
 * same but the first, the return address of each call in capture() */
static int same_as_glibc(const method *m, int frames) {
  depth d = depth_for(frames);
  if (m->policy >= 0) unw_policy(*unw_local, (unw_caching_policy_t)m->policy);
  comparing = 1;
  int n = stack_through(m->fn, d);
  comparing = 0;
  char *in = (char *)(uintptr_t)capture;
  return n == frames && nref == n && (char *)pcs[0] > in && (char *)pcs[0] < in + 256 &&
         !memcmp(ref + 1, pcs + 1, (size_t)(n - 1) * sizeof ref[0]);
}

/* a new thread's first captures, whose caches are empty: the first, the
 * one after gsan's warm-up captures (rt_unwind.h), and the first 100 in all */
#define COLD_CAPTURES 100
typedef struct cold { const method *m; depth d; double first, after_warm, all; } cold;
/* the depths that make frames frames in a new thread (whose stack below
 * them is not main's) */
static void *thread_depth(void *arg) {
  depth *d = arg;
  *d = depth_for(d->app);
  return NULL;
}
static void *cold_thread(void *arg) {
  cold *c = arg;
  double t[COLD_CAPTURES + 1];
  t[0] = wall_ns();
  for (int i = 0; i < COLD_CAPTURES; i++) {
    stack_through(c->m->fn, c->d);
    t[i + 1] = wall_ns();
  }
  c->first = t[1] - t[0];
  c->after_warm = t[RT_UNWIND_WARM + 1] - t[RT_UNWIND_WARM];
  c->all = t[COLD_CAPTURES] - t[0];
  return NULL;
}
static void cold_start(const method *m, int frames, int reps, cold *out) {
  double *v[3];
  for (int k = 0; k < 3; k++) v[k] = malloc((size_t)reps * sizeof *v[k]);
  if (m->policy >= 0) unw_policy(*unw_local, (unw_caching_policy_t)m->policy);
  depth d = {frames, 0};
  pthread_t t;
  pthread_create(&t, NULL, thread_depth, &d);
  pthread_join(t, NULL);
  for (int r = 0; r < reps; r++) {
    cold c = {m, d, 0, 0, 0};
    pthread_create(&t, NULL, cold_thread, &c);
    pthread_join(t, NULL);
    v[0][r] = c.first;
    v[1][r] = c.after_warm;
    v[2][r] = c.all;
  }
  out->first = median(v[0], reps);
  out->after_warm = median(v[1], reps);
  out->all = median(v[2], reps);
  for (int k = 0; k < 3; k++) free(v[k]);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: stack_capture REPS CALLS DEPTH...\n");
    return 2;
  }
  int reps = atoi(argv[1]), calls = atoi(argv[2]);
  load();
  if (!methods[0].available) {
    fprintf(stderr, "stack_capture: glibc's backtrace not found\n");
    return 1;
  }
  printf("| unwinder |");
  for (int d = 3; d < argc; d++) printf(" %s frames (ns) |", argv[d]);
  printf(" same frames as backtrace() |\n|---|");
  for (int d = 3; d < argc; d++) printf("---:|");
  printf("---|\n");
  for (int i = 0; i < NMETHODS; i++) {
    const method *m = &methods[i];
    if (!m->available) {
      printf("| %s | not installed |\n", m->name);
      continue;
    }
    int same = 1;
    printf("| %s |", m->name);
    for (int d = 3; d < argc; d++) {
      int frames = atoi(argv[d]);
      same &= same_as_glibc(m, frames);
      printf(" %.0f |", timed(m, frames, reps, calls));
    }
    printf(" %s |\n", same ? "yes" : "NO");
  }
  int frames = atoi(argv[argc - 1]);
  printf("\nA new thread's first captures (empty caches), %d frames, median of %d threads:\n\n", frames, reps);
  printf("| unwinder | first capture (ns) | capture %d (ns) | first %d captures in all (us) |\n|---|---:|---:|---:|\n",
         RT_UNWIND_WARM + 1, COLD_CAPTURES);
  for (int i = 0; i < NMETHODS; i++) {
    const method *m = &methods[i];
    if (!m->available) continue;
    cold c;
    cold_start(m, frames, reps, &c);
    printf("| %s | %.0f | %.0f | %.1f |\n", m->name, c.first, c.after_warm, c.all / 1000);
  }
  printf("\ngsan's capture: %s\n", rt_unwind_method());
  return 0;
}
