/* Host stack capture (src/runtime/rt_unwind.c) against glibc's backtrace():
 * the same return addresses at every depth, through frames of a shared
 * library; libunwind's fast trace while it is safe, and backtrace() once a
 * library is loaded where an unloaded one's code was (libunwind's cache
 * would otherwise apply the old code's frame layouts to it: with the
 * libraries of unwind_lib.c it then stops after 3 frames). */
#include "../../src/runtime/rt_unwind.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

typedef int (*frames_fn)(void **pc, int max);
typedef int (*down_fn)(int depth, frames_fn fn, void **pc, int max);

#define MAX 64
static void *theirs[MAX];
static int ntheirs;

/* both captures from one frame: only their first entries (the return
 * addresses of the two calls here) differ */
static __attribute__((noinline)) int both(void **pc, int max) {
  ntheirs = backtrace(theirs, MAX);
  int n = rt_unwind_backtrace(pc, max);
  __asm__ volatile("" ::: "memory");
  return n;
}

static int fast(void) { return !strncmp(rt_unwind_method(), "libunwind", 9); }

/* depth frames of the library's, then the callback: returns the number of
 * depths at which both captures agreed */
static int agree(down_fn down, const char *what) {
  int ok = 0;
  for (int depth = 0; depth <= 20; depth++) {
    void *mine[MAX];
    int n = down(depth, both, mine, MAX);
    int same = n == ntheirs && n > depth + 2;
    for (int i = 1; same && i < n; i++) same = mine[i] == theirs[i];
    /* the caller's frame comes first: a return address inside both() */
    same = same && mine[0] != theirs[0] && (char *)mine[0] > (char *)(uintptr_t)both &&
           (char *)mine[0] < (char *)(uintptr_t)both + 256;
    CHECK(same, "%s, depth %d: %d frames, backtrace() %d", what, depth, n, ntheirs);
    ok += same;
  }
  return ok;
}

static uintptr_t base(void *h) {
  struct link_map *m = NULL;
  return h && dlinfo(h, RTLD_DI_LINKMAP, &m) == 0 ? m->l_addr : 0;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char p1[4096], p2[4096];
  snprintf(p1, sizeof p1, "%s/libgsan_frames1.so", dir);
  snprintf(p2, sizeof p2, "%s/libgsan_frames2.so", dir);
  void *h1 = dlopen(p1, RTLD_NOW | RTLD_LOCAL);
  if (!h1) return printf("cannot load %s\n", p1), 2;
  uintptr_t b1 = base(h1);
  down_fn down1 = (down_fn)(uintptr_t)dlsym(h1, "frames_down");
  printf("method: %s\n", rt_unwind_method());
  void *warm[MAX];
  for (int i = 0; i < RT_UNWIND_WARM; i++) rt_unwind_backtrace(warm, MAX); /* the thread's backtrace() ones */
  int ok = agree(down1, "first library");
  printf("depths 0-20 through a library, the same as backtrace(): %d of 21\n", ok);

  /* another library loaded, then unloaded: no code where other code was */
  void *h2 = dlopen(p2, RTLD_NOW | RTLD_LOCAL);
  down_fn down2 = (down_fn)(uintptr_t)dlsym(h2, "frames_down");
  ok = agree(down2, "second library");
  printf("a library loaded: %d of 21, fast: %s\n", ok, fast() ? "yes" : "no");
  dlclose(h2);
  ok = agree(down1, "after an unload");
  printf("and unloaded: %d of 21, fast: %s\n", ok, fast() ? "yes" : "no");

  /* the second library where the first one was: the same return addresses
   * in frames of another size, which libunwind's cache would step over with
   * the first library's layout */
  dlclose(h1);
  h2 = dlopen(p2, RTLD_NOW | RTLD_LOCAL);
  down2 = (down_fn)(uintptr_t)dlsym(h2, "frames_down");
  printf("the second library loaded where the first was: %s\n", base(h2) == b1 ? "yes" : "no");
  ok = agree(down2, "second library, where the first was");
  printf("then: %d of 21, fast: %s\n", ok, fast() ? "yes" : "no");
  printf("method: %s\n", rt_unwind_method());
  printf("%d checks; %d failed\n", checks, failures);
  return failures != 0;
}
