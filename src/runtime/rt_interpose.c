/* How libgsan gets between the program and the driver (docs/architecture.md §4): cudart
 * (static or shared) dlopens libcuda and dlsyms only cuGetProcAddress, then
 * fetches every entry point through it, so exporting cu* names sees nothing.
 * libgsan overrides dlsym and dlvsym (rt_dlsym_entry.c) and answers the
 * driver names it hooks here; a request for cuGetProcAddress gets gsan's,
 * which hands out gsan's wrappers for the calls it hooks and the driver's
 * own functions for everything else. Programs linked with -lcuda call the
 * driver's names directly: libgsan exports the hooked ones too. */
#include "rt_dlsym.h"
#include "rt_elf_dyn.h"
#include "rt_driver.h"
#include "rt_hooks.h"
#include "rt_life.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

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
  void *mine = rt_hook_for(symbol, flags, version, *pfn);
  if (mine) *pfn = mine;
  return r;
}

static void ensure_driver(void);

/* libgsan's own dynamic symbols: the driver names it exports */
static rt_dynobj self;
static int self_found;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

static void find_self(void) { self_found = rt_dynobj_at((const void *)find_self, &self) == 0; }

/* libgsan's export of name, or NULL */
static void *own_symbol(const char *name) {
  pthread_once(&self_once, find_self);
  const ElfW(Sym) *s = self_found ? rt_dynobj_find(&self, name, NULL) : NULL;
  return s ? rt_dynobj_addr(&self, s) : NULL;
}

/* A driver entry point that a program dlsyms from libcuda by its symbol name,
 * not through cuGetProcAddress (PyTorch and Triton do, for some): libgsan
 * exports the hooked ones under the same names (below), so it hands out its
 * own. Only for functions that really are libcuda's. */
static void *own_export(const char *name, void *real) {
  Dl_info d;
  if (strncmp(name, "cu", 2) || !dladdr(real, &d) || !d.dli_fname || !strstr(d.dli_fname, "libcuda.so")) return real;
  void *mine = own_symbol(name);
  if (!mine || mine == real) return real;
  ensure_driver();
  return real_get_proc ? mine : real; /* gsan's export needs the driver found */
}

/* What to hand out for name, given the real function. */
static void *intercept(const char *name, void *real) {
  if (!real || !name) return real;
  if (strncmp(name, "cuGetProcAddress", 16)) return own_export(name, real);
  if (real == (void *)cuGetProcAddress) {
    /* a lookup in the global scope (RTLD_DEFAULT) found gsan's own export,
     * which must not become "the driver's" */
    ensure_driver();
    return real_get_proc ? (void *)gsan_cuGetProcAddress : NULL;
  }
  if (!strcmp(name, "cuGetProcAddress") || !strcmp(name, "cuGetProcAddress_v2")) {
    real_get_proc = (get_proc_fn)real;
    rt_life_init(real, rt_listeners);
    return (void *)gsan_cuGetProcAddress;
  }
  return real;
}

/* The names whose lookups gsan must see: what intercept can change. Called
 * for every dlsym in the process, from other libraries' start-up too: no
 * allocation, no string function until the name starts with "cu". */
int rt_interpose_sees(const char *name) {
  if (!name || name[0] != 'c' || name[1] != 'u') return 0;
  return !strncmp(name, "cuGetProcAddress", 16) || own_symbol(name);
}

/* RTLD_NEXT is resolved for the caller, not for libgsan (rt_dlsym_next.c):
 * an interposer after libgsan that wraps a driver call gets the driver's
 * function (as gsan's hook), not its own */
void *rt_interpose_dlsym(void *handle, const char *name, const void *caller) {
  return intercept(name, handle == RTLD_NEXT ? rt_next_sym(caller, name, NULL) : rt_real_dlsym(handle, name));
}

void *rt_interpose_dlvsym(void *handle, const char *name, const char *version, const void *caller) {
  return intercept(name, handle == RTLD_NEXT ? rt_next_sym(caller, name, version) : rt_real_dlvsym(handle, name, version));
}

/* ---- exported driver names, for programs linked with -lcuda ---- */

/* Finds the driver without a dlsym from the program: such a program never
 * asks for cuGetProcAddress. */
static void ensure_driver(void) {
  if (real_get_proc) return;
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (h) intercept("cuGetProcAddress_v2", rt_real_dlsym(h, "cuGetProcAddress_v2"));
}

/* gsan's hook for name as the driver serves it at version (with the
 * per-thread-stream flag), or the driver's own function when not hooked */
static void *export_target(const char *name, int version, int per_thread) {
  ensure_driver();
  void *r = rt_driver_real_v(name, version, per_thread);
  cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : 0;
  void *mine = r ? rt_hook_for(name, flags, version, r) : NULL;
  return mine ? mine : r;
}

/* the type of each hooked entry point, by its key in rt_driver.inc */
#define PFN_OF(name, key, pfn, variants, lo, hi) typedef pfn pfn_##key;
RT_DRIVER_HOOKS(PFN_OF)

/* The exports (rt_driver.inc: RT_DRIVER_EXPORTS). symbol: the exported
 * name; key: its entry point; name, version, per_thread: what it is in the
 * driver's cuGetProcAddress terms */
#define EXPORT_AS(symbol, key, name, version, per_thread, params, args)         \
  CUresult symbol params {                                                      \
    static pfn_##key real_;                                                     \
    if (!real_) *(void **)&real_ = export_target(name, version, per_thread);   \
    return real_ ? real_ args : CUDA_ERROR_NOT_INITIALIZED;                     \
  }
#define EXPORT_ASM(cname, symbol, key, name, version, per_thread, params, args) \
  CUresult cname params __asm__(symbol);                                        \
  EXPORT_AS(cname, key, name, version, per_thread, params, args)
#define EXPORT_BOTH(key, name, symbol, pt_symbol, params, args)                 \
  EXPORT_AS(symbol, key, name, RT_OWN_VERSION, 0, params, args)                 \
  EXPORT_AS(pt_symbol, key, name, RT_OWN_VERSION, 1, params, args)
RT_DRIVER_EXPORTS(EXPORT_AS, EXPORT_ASM, EXPORT_BOTH)

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags,
                          CUdriverProcAddressQueryResult *status) {
  ensure_driver();
  if (!real_get_proc) return CUDA_ERROR_NOT_INITIALIZED;
  return gsan_cuGetProcAddress(symbol, pfn, version, flags, status);
}
