/* An interposer of the kind a user's LD_PRELOAD brings (ASan's runtime, a
 * tracer), which gsan run preloads after libgsan: it wraps getpid, getrandom
 * and cuMemAlloc_v2 (two of them versioned: next_lib.map) and finds the functions it wraps with dlsym and dlvsym
 * (RTLD_NEXT), in its constructor (which runs before libgsan's) and later.
 * next_probe prints where each lookup landed and calls through the wrappers
 * (tests/runtime/rtld_next.test). */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the file that defines p, by its last component */
static const char *where(void *p) {
  Dl_info d;
  if (!p) return "nothing";
  if (!dladdr(p, &d) || !d.dli_fname) return "?";
  const char *slash = strrchr(d.dli_fname, '/');
  return slash ? slash + 1 : d.dli_fname;
}

/* a wrapper that got itself back would call itself forever: each says so */
static int is_mine(void *p) {
  Dl_info mine, d;
  return p && dladdr((void *)where, &mine) && dladdr(p, &d) && mine.dli_fbase == d.dli_fbase;
}

static void *early_getpid;

__attribute__((constructor)) static void early(void) { early_getpid = dlsym(RTLD_NEXT, "getpid"); }

/* the wrappers; the probe calls them directly, since a call by name from
 * here may bind to another definition (libgsan's cuMemAlloc_v2 comes first
 * in the global scope; libc's getpid where this library was dlopened) */
static pid_t wrap_getpid(void) {
  pid_t (*next)(void) = (pid_t(*)(void))dlsym(RTLD_NEXT, "getpid");
  return next && !is_mine((void *)next) ? next() : -1;
}

static ssize_t wrap_getrandom(void *buf, size_t n, unsigned flags) {
  ssize_t (*next)(void *, size_t, unsigned) = (ssize_t(*)(void *, size_t, unsigned))dlvsym(RTLD_NEXT, "getrandom", "GLIBC_2.25");
  return next && !is_mine((void *)next) ? next(buf, n, flags) : -1;
}

static CUresult wrap_alloc(CUdeviceptr *p, size_t n) {
  CUresult (*next)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))dlsym(RTLD_NEXT, "cuMemAlloc_v2");
  return next && !is_mine((void *)next) ? next(p, n) : CUDA_ERROR_NOT_FOUND;
}

pid_t getpid(void) { return wrap_getpid(); }
ssize_t getrandom(void *buf, size_t n, unsigned flags) { return wrap_getrandom(buf, n, flags); }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return wrap_alloc(p, n); }

void next_probe(void) {
  printf("in the constructor: getpid: dlsym(RTLD_NEXT) -> %s\n", where(early_getpid));
  printf("getpid: dlsym(RTLD_NEXT) -> %s\n", where(dlsym(RTLD_NEXT, "getpid")));
  printf("getrandom: dlvsym(RTLD_NEXT, GLIBC_2.25) -> %s\n", where(dlvsym(RTLD_NEXT, "getrandom", "GLIBC_2.25")));
  printf("getpid through the wrapper is the process's: %s\n", wrap_getpid() == syscall(SYS_getpid) ? "yes" : "no");
  char b[8];
  printf("getrandom through the wrapper: %zd\n", wrap_getrandom(b, sizeof b, 0));
  printf("cuMemAlloc_v2: dlsym(RTLD_NEXT) -> %s\n", where(dlsym(RTLD_NEXT, "cuMemAlloc_v2")));
  printf("cuMemAlloc_v2: dlvsym(RTLD_NEXT, NEXT_1) -> %s\n", where(dlvsym(RTLD_NEXT, "cuMemAlloc_v2", "NEXT_1")));
  CUdeviceptr a = 0;
  CUresult r = wrap_alloc(&a, 256);
  printf("cuMemAlloc_v2 through the wrapper: %d, in gsan's arena: %s\n", r,
         a >= 0x100000000000ull && a < 0x200000000000ull ? "yes" : "no");
  CUresult (*release)(CUdeviceptr) = (CUresult(*)(CUdeviceptr))dlsym(RTLD_DEFAULT, "cuMemFree_v2");
  if (r == CUDA_SUCCESS && release) printf("cuMemFree_v2: %d\n", release(a));
}
