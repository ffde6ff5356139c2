/* stack_capture_alloc -- gsan's host allocation path on the CPU: batches of
 * 1000 cuMemAlloc of 256 bytes, then their 1000 cuMemFree, through the
 * entry points a program gets from cuGetProcAddress (as cudart does), ten
 * frames below main. Run under `gsan run` against the fake driver of the
 * CPU tests (build/lib/fake/libcuda.so.1), it times what gsan adds to an
 * allocation with the driver's own work taken out; bench/stack_capture.sh
 * runs it with and without stack capture (malloc_context_size).
 * Usage: stack_capture_alloc REPS (prints the median, ns per call) */
#include "stack_capture.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

#define BATCH 1000
typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static CUresult (*mem_alloc)(CUdeviceptr *, size_t);
static CUresult (*mem_free)(CUdeviceptr);
static double *ns;
static int rep, failed;

static void batch(void) {
  static CUdeviceptr p[BATCH];
  double t0 = cpu_ns();
  for (int i = 0; i < BATCH; i++) failed |= mem_alloc(&p[i], 256) != CUDA_SUCCESS;
  for (int i = 0; i < BATCH; i++) failed |= mem_free(p[i]) != CUDA_SUCCESS;
  ns[rep] = (cpu_ns() - t0) / (2 * BATCH);
}
/* a program's frames above the allocation */
static __attribute__((noinline)) void below(int depth) {
  if (depth > 0) below(depth - 1);
  else batch();
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 21;
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  gpa_fn gpa = h ? (gpa_fn)dlsym(h, "cuGetProcAddress_v2") : NULL;
  CUresult (*init)(unsigned) = NULL;
  CUdriverProcAddressQueryResult st;
  if (!gpa || reps < 1 || gpa("cuInit", (void **)&init, 13000, 0, &st) ||
      gpa("cuMemAlloc", (void **)&mem_alloc, 13000, 0, &st) || gpa("cuMemFree", (void **)&mem_free, 13000, 0, &st) ||
      init(0)) {
    fprintf(stderr, "stack_capture_alloc: no driver (libcuda.so.1) or bad arguments\n");
    return 1;
  }
  ns = calloc((size_t)reps + 1, sizeof *ns);
  below(10); /* warm-up */
  for (rep = 0; rep < reps; rep++) below(10);
  if (failed) {
    fprintf(stderr, "stack_capture_alloc: an allocation or free failed\n");
    return 1;
  }
  printf("%.0f\n", median(ns, reps));
  return 0;
}
