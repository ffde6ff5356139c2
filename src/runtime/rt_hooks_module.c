/* Hooks on module loading: each module gsan instrumented has a __gsan_ctx
 * variable to fill (where the arena and the ring are) and site tables to
 * keep (how a device record becomes a source line). The tables are read
 * from the image, so they are there even after a trap killed the context. */
#include "rt_gsan.h"

#include "rt_fatbin.h"

#include <stdlib.h>

/* the driver's loaders */
static struct {
  CUresult (*LibraryLoadData)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                              unsigned);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
} real;

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

static CUresult w_LibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv, unsigned nj,
                                  CUlibraryOption *lo, void **lv, unsigned nl) {
  CUresult r = real.LibraryLoadData(lib, code, jo, jv, nj, lo, lv, nl);
  rt_dev *d;
  if (r != CUDA_SUCCESS || !(d = rt_gsan_dev_here())) return r;
  CUdeviceptr g;
  size_t bytes;
  if (rt_gsan.cu.LibraryGetGlobal(&g, &bytes, *lib, GSAN_CTX_SYMBOL) == CUDA_SUCCESS) {
    fill_ctx(d, g, bytes);
    keep_tables(d, code);
  }
  return r;
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
    {"cuModuleLoadData", {(void *)w_ModuleLoadData, (void *)w_ModuleLoadData}, (void **)&real.ModuleLoadData, 1, 0, 0},
    {"cuModuleLoadDataEx", {(void *)w_ModuleLoadDataEx, (void *)w_ModuleLoadDataEx}, (void **)&real.ModuleLoadDataEx, 1, 0, 0},
    {NULL, {NULL, NULL}, NULL, 0, 0, 0},
};
