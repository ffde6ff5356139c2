/* How libgsan gets between the program and the driver (DESIGN.md §3): cudart
 * (static or shared) dlopens libcuda and dlsyms only cuGetProcAddress, then
 * fetches every entry point through it, so exporting cu* names sees nothing.
 * libgsan overrides dlsym and dlvsym; a request for cuGetProcAddress gets
 * gsan's, which hands out gsan's wrappers for the calls it hooks and the
 * driver's own functions for everything else. The real dlsym is reached
 * through libc's symbol table (rt_dlsym_real.c). */
#include "rt_gsan.h"

#include <dlfcn.h>
#include <string.h>

/* rt_dlsym_real.c */
void *rt_real_dlsym(void *handle, const char *name);
void *rt_real_dlvsym(void *handle, const char *name, const char *version);

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static get_proc_fn real_get_proc;

static CUresult gsan_cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status) {
  CUresult r = real_get_proc(symbol, pfn, version, flags, status);
  if (r != CUDA_SUCCESS || !pfn || !*pfn) return r;
  /* cudart fetches cuGetProcAddress through cuGetProcAddress: hand out this
   * wrapper again, or every later lookup would bypass gsan */
  if (!strncmp(symbol, "cuGetProcAddress", 16)) {
    *pfn = (void *)gsan_cuGetProcAddress;
    return r;
  }
  void *mine = rt_hook_for(symbol, flags, *pfn);
  if (mine) *pfn = mine;
  return r;
}

/* What to hand out for name, given the real function. */
static void *intercept(const char *name, void *real) {
  if (!real || !name || strncmp(name, "cuGetProcAddress", 16)) return real;
  if (!strcmp(name, "cuGetProcAddress") || !strcmp(name, "cuGetProcAddress_v2")) {
    real_get_proc = (get_proc_fn)real;
    rt_gsan_init_driver(real);
    return (void *)gsan_cuGetProcAddress;
  }
  return real;
}

void *dlsym(void *handle, const char *name) { return intercept(name, rt_real_dlsym(handle, name)); }

void *dlvsym(void *handle, const char *name, const char *version) {
  return intercept(name, rt_real_dlvsym(handle, name, version));
}
