/* The hooked driver entry points: each rt_hooks_*.c file holds the wrappers
 * of one family of driver calls and lists them in its hook table, which
 * rt_hooks.c searches for the interposer (rt_interpose.c). The top layer:
 * nothing below calls into it. */
#ifndef GSAN_RT_HOOKS_H
#define GSAN_RT_HOOKS_H

#include "rt_events.h"

#include <cuda.h>
#include <cudaTypedefs.h>

/* the hooked entry points: one list (rt_driver.inc) */
#include "rt_driver.inc"

/* One interposed driver entry point. */
typedef struct rt_hook {
  const char *name;
  void *mine[2];   /* gsan's wrapper: [0] legacy stream, [1] per-thread stream */
  void **real;     /* where the driver's function goes: [0], or [variant] */
  int variants;    /* 2: the per-thread-stream variant is its own function */
  int min_version; /* the driver API versions this signature serves: [min, max) */
  int max_version; /* 0: no upper bound */
} rt_hook;

/* What a family file makes of its list (rt_driver.inc), in this order:
 *   static struct { RT_DRIVER_<FAMILY>(RT_HOOK_REAL) } real;  the driver's functions
 *   RT_DRIVER_<FAMILY>(RT_HOOK_DECLARE)                        its wrappers' declarations
 *   const rt_hook rt_hooks_<family>[] = {RT_DRIVER_<FAMILY>(RT_HOOK_ROW) RT_HOOK_END};
 * A wrapper is declared with the row's type: one written with another
 * signature conflicts with it and does not compile. */
#define RT_HOOK_REAL(name, key, pfn, variants, lo, hi) pfn key[variants];
#define RT_HOOK_DECLARE(name, key, pfn, variants, lo, hi) \
  static __typeof__(*(pfn)0) w_##key RT_HOOK_DECLARE_PT_##variants(key);
#define RT_HOOK_DECLARE_PT_1(key)
#define RT_HOOK_DECLARE_PT_2(key) , w_##key##_pt
#define RT_HOOK_ROW(name, key, pfn, variants, lo, hi) \
  {name, {(void *)w_##key, (void *)RT_HOOK_PT_##variants(key)}, (void **)real.key, variants, lo, hi},
#define RT_HOOK_PT_1(key) w_##key
#define RT_HOOK_PT_2(key) w_##key##_pt
#define RT_HOOK_END {NULL, {NULL, NULL}, NULL, 0, 0, 0}

/* the hook tables, each ended by an entry with no name */
extern const rt_hook rt_hooks_alloc[], rt_hooks_copy[], rt_hooks_ctx[], rt_hooks_module[], rt_hooks_query[],
    rt_hooks_sync[];

/* gsan's wrapper for a driver entry point, or NULL when it is not hooked.
 * real is what the driver returned for (name, flags, version). */
void *rt_hook_for(const char *name, cuuint64_t flags, int version, void *real);

/* Stream-ordered allocation and free as gsan's cuMemAllocAsync and
 * cuMemFreeAsync make them (rt_hooks_alloc.c: a slot of the current
 * context's device, freed once its stream is done), for gsan's own entry
 * points (rt_torch.c); api names the freeing call in reports. */
CUresult rt_alloc_ordered(CUdeviceptr *dptr, size_t size, CUstream s);
CUresult rt_free_ordered(CUdeviceptr ptr, CUstream s, const char *api);

/* module tracking's listener (rt_hooks_module.c): a device set up fills its
 * copy of every library's __gsan_ctx */
extern const rt_listener rt_hooks_module_listener;

#endif
