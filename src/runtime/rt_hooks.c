/* Which driver entry points gsan wraps: the hook tables of rt_hooks_*.c,
 * looked up by (name, per-thread-stream flag, API version) as the driver's
 * cuGetProcAddress keys them. */
#include "rt_hooks.h"

#include <string.h>

static const rt_hook *const tables[] = {rt_hooks_alloc, rt_hooks_copy, rt_hooks_ctx, rt_hooks_module, rt_hooks_query,
                                        rt_hooks_sync};

void *rt_hook_for(const char *name, cuuint64_t flags, int version, void *real_fn) {
  /* per-thread-default-stream variants are other driver functions: each
   * variant keeps its own, and gets its own wrapper */
  int v = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? 1 : 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const rt_hook *h = tables[t]; h->name; h++) {
      if (strcmp(name, h->name) || version < h->min_version || (h->max_version && version >= h->max_version))
        continue;
      int slot = h->variants == 2 ? v : 0;
      if (h->real) h->real[slot] = real_fn;
      return h->mine[slot];
    }
  return NULL;
}
