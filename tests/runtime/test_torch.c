/* gsan's PyTorch allocator pair (gsan_torch_malloc/gsan_torch_free) against
 * the fake driver, run under gsan run: found the way PyTorch's
 * CUDAPluggableAllocator finds them (dlopen("libgsan.so"), which must give
 * the preloaded library), called after the driver was found as cudart finds
 * it. Usage: test_torch clean|errors|leak */
#include <gsan/gsan_torch.h>

#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void *(*malloc_fn)(ssize_t, int, struct CUstream_st *);
typedef void (*free_fn)(void *, ssize_t, int, struct CUstream_st *);
typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

/* device d's arena: gsan puts it at (d + 1) * 16 TiB + d TiB */
static int in_arena_of(void *p, int d) {
  uint64_t a = (uint64_t)(uintptr_t)p, lo = ((uint64_t)(d + 1) << 44) + ((uint64_t)d << 40);
  return a >= lo && a < lo + (1ull << 44);
}

int main(int argc, char **argv) {
  const char *sc = argc > 1 ? argv[1] : "clean";
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with gsan's messages on stderr */
  void *self = dlopen("libgsan.so", RTLD_NOW | RTLD_LOCAL);
  malloc_fn tmalloc = self ? (malloc_fn)dlsym(self, "gsan_torch_malloc") : NULL;
  free_fn tfree = self ? (free_fn)dlsym(self, "gsan_torch_free") : NULL;
  printf("dlopen(libgsan.so): the preloaded one: %s\n",
         tmalloc && tmalloc == (malloc_fn)dlsym(RTLD_DEFAULT, "gsan_torch_malloc") ? "yes" : "NO");
  if (!tmalloc || !tfree) return 1;
  /* before the program has found the driver, gsan cannot serve */
  printf("before the driver: %s\n", tmalloc(100, 0, NULL) ? "a pointer" : "NULL");
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  gpa_fn gpa = (gpa_fn)dlsym(h, "cuGetProcAddress_v2");
  CUresult (*Init)(unsigned) = NULL, (*HtoD)(CUdeviceptr, const void *, size_t) = NULL;
  CUdriverProcAddressQueryResult st;
  gpa("cuInit", (void **)&Init, 13000, 0, &st);
  gpa("cuMemcpyHtoD", (void **)&HtoD, 13000, 0, &st);
  Init(0);
  int *device = dlsym(h, "fake_current_device"), *no_ctx = dlsym(h, "fake_no_context");
  int *retains = dlsym(h, "fake_primary_retains");
  uint64_t *synced = dlsym(h, "fake_synced_stream");
  static char buf[8192];
  struct CUstream_st *s5 = (struct CUstream_st *)(uintptr_t)0x5;

  void *p = tmalloc(4000, 0, s5);
  printf("4000 bytes on device 0: %s\n", in_arena_of(p, 0) ? "in its arena" : "NOT in its arena");
  printf("copy of 4000 into it: %d\n", HtoD((CUdeviceptr)(uintptr_t)p, buf, 4000));
  if (!strcmp(sc, "errors")) printf("copy of 4001 into it: %d\n", HtoD((CUdeviceptr)(uintptr_t)p, buf, 4001));
  /* device 1 while device 0's context is current: device 1's primary
   * context for the call (retained once), device 0's current again after */
  void *q = tmalloc(3000, 1, NULL), *q2 = tmalloc(10, 1, NULL);
  printf("device 1 from device 0: %s, retained %d, current device after: %d\n",
         in_arena_of(q, 1) && in_arena_of(q2, 1) ? "in its arena" : "NOT in its arena", *retains, *device);
  /* no context current (PyTorch allocates before it makes one): device 0's
   * primary context for the call, and none current after */
  *no_ctx = 1;
  void *r = tmalloc(100, 0, NULL);
  printf("no context current: %s, a context current after: %s\n", in_arena_of(r, 0) ? "in the arena" : "NOT",
         *no_ctx ? "no" : "YES");
  *no_ctx = 0;
  /* a device gsan has no arena for: the driver's stream-ordered allocation */
  void *d16 = tmalloc(64, 16, NULL);
  printf("device 16: %s\n", d16 && !in_arena_of(d16, 0) && !in_arena_of(d16, 1) ? "the driver's" : "NOT the driver's");
  tfree(d16, 64, 16, NULL);
  uint64_t *written = dlsym(h, "fake_written_stream");
  *synced = 0;
  tfree(p, 4000, 0, s5);
  printf("free in the order of its stream, not waiting: %s\n",
         *synced == 0 && written && *written == 0x5 ? "yes" : "NO");
  tfree(q, 3000, 1, NULL);
  tfree(q2, 10, 1, NULL);
  tfree(r, 100, 0, NULL);
  tfree(NULL, 0, 0, NULL);
  printf("size 0: %s\n", tmalloc(0, 0, NULL) ? "a pointer" : "NULL");
  if (!strcmp(sc, "leak")) printf("left live: %s\n", tmalloc(300, 0, NULL) ? "300 bytes" : "NOTHING");
  if (!strcmp(sc, "errors")) {
    printf("copy into the freed tensor: %d\n", HtoD((CUdeviceptr)(uintptr_t)p, buf, 16));
    tfree(p, 4000, 0, s5);
    printf("second free: done\n");
    void *t = tmalloc(512, 0, NULL);
    tfree((char *)t + 64, 512, 0, NULL);
    printf("interior free: done\n");
    printf("size -1: %s\n", tmalloc(-1, 0, NULL) ? "a pointer" : "NULL");
    printf("device 17: %s\n", tmalloc(16, 17, NULL) ? "a pointer" : "NULL");
    printf("device -1: %s\n", tmalloc(16, -1, NULL) ? "a pointer" : "NULL");
    tfree(t, 512, 99, NULL);
    printf("free on device 99: done\n");
    tfree(t, 512, 0, NULL);
  }
  return 0;
}
