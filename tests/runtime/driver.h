/* What the runtime tests that drive libcuda as a program does share (the
 * fake driver, under gsan run): the library opened by dlopen, and its entry
 * points asked for through cuGetProcAddress, which gsan interposes. A test
 * that needs a newer version defines DRV_VERSION before including this. */
#ifndef GSAN_TESTS_DRIVER_H
#define GSAN_TESTS_DRIVER_H
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

#ifndef DRV_VERSION
#define DRV_VERSION 12000
#endif

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static gpa_fn gpa;

/* libcuda.so.1 and its cuGetProcAddress_v2; NULL when either is missing */
static void *drv_open(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  return h && (gpa = (gpa_fn)dlsym(h, "cuGetProcAddress_v2")) ? h : NULL;
}

static void *get(const char *name) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  if (gpa(name, &p, DRV_VERSION, 0, &st) != CUDA_SUCCESS) printf("no %s\n", name);
  return p;
}

#endif
