/* Hooks on module loading: each module gsan instrumented has a __gsan_ctx
 * variable to fill (where the arena and the ring are) and site tables to
 * keep (how a device record becomes a source line). The tables are read
 * from the image, so they are there even after a trap killed the context.
 * A library (cuLibraryLoadData, what cudart loads) is shared by every
 * context, each with its own copy of its variables: every device's copy
 * gets that device's arena, at load for the devices set up by then, at
 * set-up for the others (rt_gsan_fill_libraries). */
#include "rt_gsan.h"

#include "rt_fatbin.h"

#include <stdlib.h>
#include <string.h>

/* the driver's loaders */
static struct {
  CUresult (*LibraryLoadData)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                              unsigned);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
  CUresult (*LibraryUnload)(CUlibrary);
} real;

/* the libraries loaded and not unloaded, to fill for devices set up later */
#define MAX_LIBS 4096
static struct {
  pthread_mutex_t lock;
  CUlibrary lib[MAX_LIBS];
  unsigned n;
} libs = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void keep_tables(const rt_dev *d, const void *image) {
  const void *fat;
  size_t len;
  int kind = rt_image_kind(image, &fat, &len);
  rt_site_table *found[16];
  int n = 0;
  const char *why;
  if (kind == RT_IMAGE_FATBIN) {
    rt_fatbin_entry e[64];
    int ne = rt_fatbin_entries(fat, len, e, 64, &why);
    for (int i = 0; i < ne && i < 64; i++) {
      if (e[i].kind != RT_ENTRY_ELF || (int)e[i].arch != d->arch) continue;
      size_t elen;
      unsigned char *elf = rt_fatbin_payload(&e[i], &elen, &why);
      if (!elf) continue;
      int k = rt_elf_site_tables(elf, elen, found + n, 16 - n, &why);
      if (k > 0) n += k;
      free(elf);
    }
  } else if (kind == RT_IMAGE_ELF) {
    int k = rt_elf_site_tables(fat, len, found, 16, &why);
    if (k > 0) n = k;
  }
  rt_gsan_add_tables(found, n);
}

/* A lazily loaded module can arrive while a stream is being captured into a
 * graph (its first kernel launch is captured). A synchronous copy on the
 * legacy stream would end that capture; a copy on gsan's own non-blocking
 * stream, in relaxed capture mode for this thread, leaves it alone. */
static void fill_ctx(const rt_dev *d, CUdeviceptr g, size_t bytes) {
  if (bytes != GSAN_CTX_BYTES) return;
  if (!d->own_stream || !rt_gsan.cu.MemcpyHtoDAsync || !rt_gsan.cu.ThreadExchangeStreamCaptureMode) {
    rt_gsan.cu.MemcpyHtoD(g, d->ctx, GSAN_CTX_BYTES);
    return;
  }
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_gsan.cu.ThreadExchangeStreamCaptureMode(&mode);
  if (rt_gsan.cu.MemcpyHtoDAsync(g, d->ctx, GSAN_CTX_BYTES, d->own_stream) == CUDA_SUCCESS)
    rt_gsan.cu.StreamSynchronize(d->own_stream);
  rt_gsan.cu.ThreadExchangeStreamCaptureMode(&mode);
}

/* lib's __gsan_ctx as the current context (d's) sees it: 1 if the library
 * has one (it is instrumented) */
static int fill_library(const rt_dev *d, CUlibrary lib) {
  CUdeviceptr g;
  size_t bytes;
  if (rt_gsan.cu.LibraryGetGlobal(&g, &bytes, lib, GSAN_CTX_SYMBOL) != CUDA_SUCCESS) return 0;
  fill_ctx(d, g, bytes);
  return 1;
}

void rt_gsan_fill_libraries(const rt_dev *d) {
  static CUlibrary copy[MAX_LIBS]; /* set-up runs under rt_gsan.lock: one caller at a time */
  pthread_mutex_lock(&libs.lock);
  unsigned n = libs.n;
  memcpy(copy, libs.lib, n * sizeof *copy);
  pthread_mutex_unlock(&libs.lock);
  for (unsigned i = 0; i < n; i++) fill_library(d, copy[i]);
}

static CUresult w_LibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv, unsigned nj,
                                  CUlibraryOption *lo, void **lv, unsigned nl) {
  CUresult r = real.LibraryLoadData(lib, code, jo, jv, nj, lo, lv, nl);
  if (r != CUDA_SUCCESS) return r;
  /* kept for devices set up later: an instrumented library, or any loaded
   * with no context current (libraries allow it), whose copies get filled
   * at set-up; the site tables, though, are read only here, for the
   * current device's architecture */
  rt_dev *here = rt_gsan_dev_here();
  int mine = here && fill_library(here, *lib);
  if (here && !mine) return r;
  pthread_mutex_lock(&libs.lock);
  if (libs.n < MAX_LIBS) libs.lib[libs.n++] = *lib;
  pthread_mutex_unlock(&libs.lock);
  if (!mine) return r;
  keep_tables(here, code);
  /* the other devices set up so far: their contexts' copies, each filled
   * with that context current */
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = &rt_gsan.dev[i];
    CUcontext prev;
    if (d == here || !__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) || !d->cuctx || !rt_gsan.cu.CtxPushCurrent ||
        rt_gsan.cu.CtxPushCurrent(d->cuctx) != CUDA_SUCCESS)
      continue;
    fill_library(d, *lib);
    rt_gsan.cu.CtxPopCurrent(&prev);
  }
  return r;
}

static CUresult w_LibraryUnload(CUlibrary lib) {
  pthread_mutex_lock(&libs.lock);
  for (unsigned i = 0; i < libs.n; i++)
    if (libs.lib[i] == lib) libs.lib[i--] = libs.lib[--libs.n];
  pthread_mutex_unlock(&libs.lock);
  return real.LibraryUnload(lib);
}

/* the module's __gsan_ctx gets its device's arena and ring */
static void module_loaded(CUmodule m, const void *image) {
  rt_dev *d = rt_gsan_dev_here();
  if (!d) return;
  CUdeviceptr g;
  size_t bytes;
  if (rt_gsan.cu.ModuleGetGlobal(&g, &bytes, m, GSAN_CTX_SYMBOL) == CUDA_SUCCESS) {
    fill_ctx(d, g, bytes);
    keep_tables(d, image);
  }
}

static CUresult w_ModuleLoadData(CUmodule *m, const void *image) {
  CUresult r = real.ModuleLoadData(m, image);
  if (r == CUDA_SUCCESS) module_loaded(*m, image);
  return r;
}

static CUresult w_ModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v) {
  CUresult r = real.ModuleLoadDataEx(m, image, n, o, v);
  if (r == CUDA_SUCCESS) module_loaded(*m, image);
  return r;
}

const rt_hook rt_hooks_module[] = {
    {"cuLibraryLoadData", {(void *)w_LibraryLoadData, (void *)w_LibraryLoadData}, (void **)&real.LibraryLoadData, 1, 0, 0},
    {"cuLibraryUnload", {(void *)w_LibraryUnload, (void *)w_LibraryUnload}, (void **)&real.LibraryUnload, 1, 0, 0},
    {"cuModuleLoadData", {(void *)w_ModuleLoadData, (void *)w_ModuleLoadData}, (void **)&real.ModuleLoadData, 1, 0, 0},
    {"cuModuleLoadDataEx", {(void *)w_ModuleLoadDataEx, (void *)w_ModuleLoadDataEx}, (void **)&real.ModuleLoadDataEx, 1, 0, 0},
    {NULL, {NULL, NULL}, NULL, 0, 0, 0},
};
