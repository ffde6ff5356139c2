/* Hooks on module loading: each module gsan instrumented has a __gsan_ctx
 * variable to fill (where the arena and the ring are) and site tables to
 * keep (how a device record becomes a source line). The tables are read
 * from the image, so they are there even after a trap killed the context.
 * A library (cuLibraryLoadData, what cudart loads) is shared by every
 * context, each with its own copy of its variables: every device's copy
 * gets that device's arena, at load for the devices set up by then, at
 * set-up for the others (fill_libraries, a listener: rt_events.h).
 * PTX that the program compiles at run time (a module, library or link
 * input given as PTX text or file, or a fatbin whose code for the device is
 * PTX only) goes through the instrumenter first (rt_jit.c), and the driver
 * gets the instrumented text; if it refused that, the image as it came.
 * An unload makes the launch-bounds copies found so far stale (a handle may
 * come back naming another function): rt_launch forgets them. */
#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_hooks.h"
#include "rt_tables.h"

#include "rt_fatbin.h"
#include "rt_jit.h"
#include "rt_launch.h"

#include <stdlib.h>
#include <string.h>

/* the driver's loaders */
static struct {
  RT_DRIVER_MODULE(RT_HOOK_REAL)
} real;
RT_DRIVER_MODULE(RT_HOOK_DECLARE)

/* the libraries loaded and not unloaded, to fill for devices set up later */
#define MAX_LIBS 4096
static struct {
  pthread_mutex_t lock;
  CUlibrary lib[MAX_LIBS];
  unsigned n;
} libs = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* the site tables of a loaded image: in the cubin for sm_<arch> of a fatbin,
 * a cubin, or PTX text (what rt_jit.c instrumented); as many as it has (a
 * cubin linked from many instrumented units carries one per unit) */
static void keep_tables(int arch, const void *image) {
  const void *fat;
  size_t len;
  int kind = rt_image_kind(image, &fat, &len);
  rt_site_list found = {0};
  const char *why;
  if (kind == RT_IMAGE_FATBIN) {
    int ne = 0;
    rt_fatbin_entry *e = rt_fatbin_list(fat, len, &ne, &why);
    for (int i = 0; e && i < ne; i++) {
      if (e[i].kind != RT_ENTRY_ELF || (int)e[i].arch != arch) continue;
      size_t elen;
      unsigned char *elf = rt_fatbin_payload(&e[i], &elen, &why);
      if (!elf) continue;
      rt_elf_site_tables(elf, elen, &found, &why);
      free(elf);
    }
    free(e);
  } else if (kind == RT_IMAGE_ELF) {
    rt_elf_site_tables(fat, len, &found, &why);
  } else if (kind == RT_IMAGE_PTX) {
    rt_ptx_site_tables(image, strlen(image), &found, &why);
  }
  rt_tables_add(found.t, found.n);
  free(found.t);
}

/* the current device's architecture, e.g. 90; 0 with no context */
static int arch_here(void) {
  rt_dev *d = rt_device_here();
  return d ? d->arch : 0;
}

/* What to load in place of image: instrumented PTX (kept in *mine, for the
 * caller to free), or image itself. len: the image's size, 0 when it tells
 * its own. */
static const void *jit_image(const void *image, size_t len, const char *what, char **mine) {
  *mine = rt_jit_ptx(image, len, arch_here(), what);
  return *mine ? *mine : image;
}

/* After a load that returned r: 1 when it was gsan's PTX that the driver
 * refused (it never should), and the caller loads the program's image */
static int plain_again(CUresult r, char **mine, const char *what) {
  if (r == CUDA_SUCCESS || !*mine) return 0;
  rt_jit_refused(what, r);
  free(*mine);
  *mine = NULL;
  return 1;
}

/* A lazily loaded module can arrive while a stream is being captured into a
 * graph (its first kernel launch is captured). A synchronous copy on the
 * legacy stream would end that capture; a copy on gsan's own non-blocking
 * stream, in relaxed capture mode for this thread, leaves it alone. */
static void fill_ctx(const rt_dev *d, CUdeviceptr g, size_t bytes) {
  if (bytes != GSAN_CTX_BYTES) return;
  if (!d->own_stream || !rt_driver.cu.MemcpyHtoDAsync || !rt_driver.cu.ThreadExchangeStreamCaptureMode) {
    rt_driver.cu.MemcpyHtoD(g, d->ctx, GSAN_CTX_BYTES);
    return;
  }
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_driver_capture_swap(&mode);
  if (rt_driver.cu.MemcpyHtoDAsync(g, d->ctx, GSAN_CTX_BYTES, d->own_stream) == CUDA_SUCCESS)
    rt_driver.cu.StreamSynchronize(d->own_stream);
  rt_driver_capture_swap(&mode);
}

/* lib's __gsan_ctx as the current context (d's) sees it: 1 if the library
 * has one (it is instrumented) */
static int fill_library(const rt_dev *d, CUlibrary lib) {
  CUdeviceptr g;
  size_t bytes;
  if (rt_driver.cu.LibraryGetGlobal(&g, &bytes, lib, GSAN_CTX_SYMBOL) != CUDA_SUCCESS) return 0;
  fill_ctx(d, g, bytes);
  return 1;
}

static void fill_libraries(rt_dev *d) {
  static CUlibrary copy[MAX_LIBS]; /* set-up runs under rt_gsan.lock: one caller at a time */
  pthread_mutex_lock(&libs.lock);
  unsigned n = libs.n;
  memcpy(copy, libs.lib, n * sizeof *copy);
  pthread_mutex_unlock(&libs.lock);
  for (unsigned i = 0; i < n; i++) fill_library(d, copy[i]);
}

/* a library loaded from code */
static void library_loaded(CUlibrary lib, const void *code) {
  /* kept for devices set up later: an instrumented library, or any loaded
   * with no context current (libraries allow it), whose copies get filled
   * at set-up; the site tables, though, are read only here, for the
   * current device's architecture (PTX text and a cubin have them whatever
   * the device) */
  rt_dev *here = rt_device_here();
  int mine = here && fill_library(here, lib);
  if (here && !mine) return;
  pthread_mutex_lock(&libs.lock);
  if (libs.n < MAX_LIBS) libs.lib[libs.n++] = lib;
  pthread_mutex_unlock(&libs.lock);
  if (!mine) {
    keep_tables(0, code);
    return;
  }
  keep_tables(here->arch, code);
  /* the other devices set up so far: their contexts' copies, each filled
   * with that context current */
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = rt_device_at(i);
    CUcontext prev;
    if (d == here || !__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) || !d->cuctx || !rt_driver.cu.CtxPushCurrent ||
        rt_driver.cu.CtxPushCurrent(d->cuctx) != CUDA_SUCCESS)
      continue;
    fill_library(d, lib);
    rt_driver.cu.CtxPopCurrent(&prev);
  }
}

static CUresult w_LibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv, unsigned nj,
                                  CUlibraryOption *lo, void **lv, unsigned nl) {
  char *mine;
  const void *use = jit_image(code, 0, "cuLibraryLoadData", &mine);
  CUresult r = real.LibraryLoadData[0](lib, use, jo, jv, nj, lo, lv, nl);
  if (plain_again(r, &mine, "cuLibraryLoadData")) r = real.LibraryLoadData[0](lib, use = code, jo, jv, nj, lo, lv, nl);
  if (r == CUDA_SUCCESS) library_loaded(*lib, use);
  free(mine);
  return r;
}

/* A file holding PTX is loaded as its instrumented text (through the
 * driver's loader of images); any other file by its name, as asked. */
static CUresult w_LibraryLoadFromFile(CUlibrary *lib, const char *path, CUjit_option *jo, void **jv, unsigned nj,
                                      CUlibraryOption *lo, void **lv, unsigned nl) {
  size_t len = 0;
  char *file = rt_driver.cu.LibraryLoadData ? rt_jit_read_file(path, &len) : NULL, *mine = NULL;
  const void *use = file ? jit_image(file, len, path, &mine) : NULL;
  CUresult r = mine ? rt_driver.cu.LibraryLoadData(lib, mine, jo, jv, nj, lo, lv, nl)
                    : real.LibraryLoadFromFile[0](lib, path, jo, jv, nj, lo, lv, nl);
  if (plain_again(r, &mine, path)) r = real.LibraryLoadFromFile[0](lib, path, jo, jv, nj, lo, lv, nl), use = file;
  if (r == CUDA_SUCCESS && use) library_loaded(*lib, use);
  free(mine);
  free(file);
  return r;
}

static CUresult w_LibraryUnload(CUlibrary lib) {
  pthread_mutex_lock(&libs.lock);
  for (unsigned i = 0; i < libs.n; i++)
    if (libs.lib[i] == lib) libs.lib[i--] = libs.lib[--libs.n];
  pthread_mutex_unlock(&libs.lock);
  CUresult r = real.LibraryUnload[0](lib);
  rt_launch_forget();
  return r;
}

static CUresult w_ModuleUnload(CUmodule m) {
  CUresult r = real.ModuleUnload[0](m);
  rt_launch_forget();
  return r;
}

/* the module's __gsan_ctx gets its device's arena and ring */
static void module_loaded(CUmodule m, const void *image) {
  rt_dev *d = rt_device_here();
  if (!d) return;
  CUdeviceptr g;
  size_t bytes;
  if (rt_driver.cu.ModuleGetGlobal(&g, &bytes, m, GSAN_CTX_SYMBOL) == CUDA_SUCCESS) {
    fill_ctx(d, g, bytes);
    keep_tables(d->arch, image);
  }
}

static CUresult w_ModuleLoadData(CUmodule *m, const void *image) {
  char *mine;
  const void *use = jit_image(image, 0, "cuModuleLoadData", &mine);
  CUresult r = real.ModuleLoadData[0](m, use);
  if (plain_again(r, &mine, "cuModuleLoadData")) r = real.ModuleLoadData[0](m, use = image);
  if (r == CUDA_SUCCESS) module_loaded(*m, use);
  free(mine);
  return r;
}

static CUresult w_ModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v) {
  char *mine;
  const void *use = jit_image(image, 0, "cuModuleLoadDataEx", &mine);
  CUresult r = real.ModuleLoadDataEx[0](m, use, n, o, v);
  if (plain_again(r, &mine, "cuModuleLoadDataEx")) r = real.ModuleLoadDataEx[0](m, use = image, n, o, v);
  if (r == CUDA_SUCCESS) module_loaded(*m, use);
  free(mine);
  return r;
}

static CUresult w_ModuleLoadFatBinary(CUmodule *m, const void *fatbin) {
  char *mine = NULL;
  const void *use = rt_driver.cu.ModuleLoadData ? jit_image(fatbin, 0, "cuModuleLoadFatBinary", &mine) : fatbin;
  CUresult r = mine ? rt_driver.cu.ModuleLoadData(m, mine) : real.ModuleLoadFatBinary[0](m, fatbin);
  if (plain_again(r, &mine, "cuModuleLoadFatBinary")) r = real.ModuleLoadFatBinary[0](m, use = fatbin);
  if (r == CUDA_SUCCESS) module_loaded(*m, use);
  free(mine);
  return r;
}

/* as cuLibraryLoadFromFile */
static CUresult w_ModuleLoad(CUmodule *m, const char *path) {
  size_t len = 0;
  char *file = rt_driver.cu.ModuleLoadData ? rt_jit_read_file(path, &len) : NULL, *mine = NULL;
  const void *use = file ? jit_image(file, len, path, &mine) : NULL;
  CUresult r = mine ? rt_driver.cu.ModuleLoadData(m, mine) : real.ModuleLoad[0](m, path);
  if (plain_again(r, &mine, path)) r = real.ModuleLoad[0](m, path), use = file;
  if (r == CUDA_SUCCESS && use) module_loaded(*m, use);
  free(mine);
  free(file);
  return r;
}

/* Link inputs: PTX, or a fatbin whose PTX the linker would compile, goes in
 * as instrumented PTX. Its site tables are kept now; the linked cubin
 * carries them too. */
static int jit_input(CUjitInputType type) { return type == CU_JIT_INPUT_PTX || type == CU_JIT_INPUT_FATBINARY; }

static CUresult w_LinkAddData(CUlinkState st, CUjitInputType type, void *data, size_t size, const char *name,
                              unsigned n, CUjit_option *o, void **v) {
  const char *what = name && *name ? name : "cuLinkAddData";
  char *mine = NULL;
  if (jit_input(type)) jit_image(data, size, what, &mine);
  CUresult r = mine ? real.LinkAddData[0](st, CU_JIT_INPUT_PTX, mine, strlen(mine) + 1, name, n, o, v)
                    : real.LinkAddData[0](st, type, data, size, name, n, o, v);
  if (plain_again(r, &mine, what)) r = real.LinkAddData[0](st, type, data, size, name, n, o, v);
  if (r == CUDA_SUCCESS && mine) keep_tables(0, mine);
  free(mine);
  return r;
}

static CUresult w_LinkAddFile(CUlinkState st, CUjitInputType type, const char *path, unsigned n, CUjit_option *o,
                              void **v) {
  size_t len = 0;
  char *file = jit_input(type) && rt_driver.cu.LinkAddData ? rt_jit_read_file(path, &len) : NULL, *mine = NULL;
  if (file) jit_image(file, len, path, &mine);
  CUresult r = mine ? rt_driver.cu.LinkAddData(st, CU_JIT_INPUT_PTX, mine, strlen(mine) + 1, path, n, o, v)
                    : real.LinkAddFile[0](st, type, path, n, o, v);
  if (plain_again(r, &mine, path)) r = real.LinkAddFile[0](st, type, path, n, o, v);
  if (r == CUDA_SUCCESS && mine) keep_tables(0, mine);
  free(mine);
  free(file);
  return r;
}

const rt_hook rt_hooks_module[] = {RT_DRIVER_MODULE(RT_HOOK_ROW) RT_HOOK_END};

const rt_listener rt_hooks_module_listener = {.name = "module", .device_ready = fill_libraries};
