/* Binary mode, gsan run --binary (docs/binary.md): SASS-only modules, which
 * gsan cannot recompile, are patched at load through NVIDIA's Sanitizer API
 * (libsanitizer-public.so, loaded with dlopen only in this mode) so that
 * each global access calls gsan's check (rt_binary_patch.cu). Its records
 * have no site table: the module id encodes the kernel's index in the list
 * kept here, the access kind and width; the site is the SASS offset
 * (include/gsan/abi.h). */
#ifndef GSAN_RT_BINARY_H
#define GSAN_RT_BINARY_H

#include "rt_events.h"
#include "rt_sites.h"

#include <gsan/abi.h>
#include <stdint.h>

/* The kernel names the records point into: an index for name (kept, with
 * a copy of the name, for the process), and the name of an index (NULL for
 * none). UINT32_MAX when no memory is left. */
uint32_t rt_binary_kernel_index(const char *name);
const char *rt_binary_kernel_name(uint32_t index);
/* What a site table would say about a binary-mode record: 1 and s filled,
 * or 0 when rec is not one. */
int rt_binary_site(const gsan_record *rec, rt_site *s);

/* Starts binary mode (GSAN_OPTIONS binary=1), once, before the program's
 * first context: loads the Sanitizer API and subscribes to module loads and
 * launches. 0, or -1 after saying why on stderr (the run goes on without
 * binary mode). */
int rt_binary_start(void);
/* its listener: start, when GSAN_OPTIONS says binary=1 */
extern const rt_listener rt_binary_listener;

#endif
