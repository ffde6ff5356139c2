/* PTX instrumented at load (docs/jit.md): what the module-load hooks
 * (rt_hooks_module.c) hand the driver in place of PTX that a program
 * compiles at run time, and the on-disk cache that keeps the result
 * (rt_jit_cache.c). */
#ifndef GSAN_RT_JIT_H
#define GSAN_RT_JIT_H

#include <stddef.h>
#include <stdint.h>

/* The PTX to load in place of image (malloc'd, NUL-terminated), or NULL to
 * load image as it came: not PTX, or instrumentation off or failed (said at
 * verbosity 1). image is PTX text, a fatbin (whose PTX for sm_<arch> is taken
 * when the driver would compile it: no cubin the device can run) or a cubin.
 * len: the image's size where the caller knows it (a link input, a file), 0
 * when it tells its own (NUL-terminated PTX, a fatbin's header). A fatbin's
 * PTX that gsan instrumented already is returned as it is. what names the
 * image in messages (the call, or a file name). */
char *rt_jit_ptx(const void *image, size_t len, int arch, const char *what);

/* The driver refused the instrumented PTX from what (it never should), with
 * error r: said at verbosity 1; the caller loads the original. */
void rt_jit_refused(const char *what, int r);

/* A file's bytes (malloc'd, NUL after them), or NULL when it cannot be read. */
char *rt_jit_read_file(const char *path, size_t *len);

/* ---- the cache (rt_jit_cache.c) ---- */

/* FNV-1a, 64 bits, continued from h (start with RT_FNV_SEED) */
#define RT_FNV_SEED 1469598103934665603ull
uint64_t rt_fnv64(uint64_t h, const void *p, size_t n);

/* The cache directory: jit_cache_dir, else $GSAN_CACHE/jit, else
 * $XDG_CACHE_HOME/gsan/jit, else ~/.cache/gsan/jit. -1 when there is none.
 * The caller opens it with rt_trust_make_dir (rt_trust.h). */
int rt_jit_cache_dir(const char *option, char *out, size_t n);

/* The entry stored under key: its PTX (malloc'd, NUL-terminated), or NULL
 * when there is none or it cannot be used (*corrupt = 1: truncated, or its
 * bytes do not match its header). */
char *rt_jit_cache_get(const char *dir, uint64_t key, int *corrupt);

/* Stores ptx under key: written to a temporary file and renamed, so a
 * reader never sees half an entry. -1 with the reason in why. */
int rt_jit_cache_put(const char *dir, uint64_t key, const char *ptx, size_t len, const char **why);

#endif
