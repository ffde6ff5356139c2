/* libgsan's one piece of global state and the hooks it installs. Everything
 * the interposed calls share lives in `rt_gsan` (rt_gsan.c). */
#ifndef GSAN_RT_GSAN_H
#define GSAN_RT_GSAN_H

#include <cuda.h>

/* Called with the driver's cuGetProcAddress the first time cudart asks for
 * it: from then on gsan can fetch the driver's real functions. */
void rt_gsan_init_driver(void *real_get_proc_address);

/* The driver's own function for name (after rt_gsan_init_driver), or NULL. */
void *rt_gsan_real(const char *name);

/* gsan's wrapper for a driver entry point, or NULL when it is not hooked.
 * real is what the driver returned for (name, flags). */
void *rt_hook_for(const char *name, cuuint64_t flags, void *real);

#endif
