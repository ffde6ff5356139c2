/* Binary mode, gsan run --binary (docs/binary.md): SASS-only modules, which
 * gsan cannot recompile, are patched at load through NVIDIA's Sanitizer API
 * (libsanitizer-public.so, loaded with dlopen only in this mode) so that
 * each global, shared and local access, cp.async, in-kernel malloc and free
 * calls gsan's check (rt_binary_patch.cu). Its records have no site table:
 * the module id encodes the kernel's index in the list kept here, the
 * access kind, width and what it went to; the site is the SASS offset
 * (include/gsan/abi.h). */
#ifndef GSAN_RT_BINARY_H
#define GSAN_RT_BINARY_H

#include "rt_arena.h"
#include "rt_events.h"
#include "rt_report.h"
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

/* the probe kernel's PTX (rt_binary_probe.c): where threads' stacks start */
extern const char rt_binary_probe_ptx[];

/* devices with a heap record: rt_device.h's RT_MAX_DEVICES (rt_binary.c
 * checks that they agree) */
#define RT_BINARY_DEVICES 16

/* The device heap's record on the host side (gsan_bheap, abi.h): its
 * blocks table of a device (host memory the device writes), set when the
 * record is made; NULL forgets it. */
void rt_binary_set_heap(int device, const gsan_bheap_block *blocks);
/* For a record of a device-heap block or of a failed in-kernel free: 1, the
 * block as reg (base, size, origin in *origin; size 0 and no origin for a
 * pointer that starts no block) and *state RT_SLOT_DEVHEAP; 0 for any
 * other record. */
int rt_binary_explain(const rt_site *s, const gsan_record *rec, rt_region *reg, rt_dev_origin *origin, int *state);
/* A binary-mode access to arena memory in no allocation (a wild pointer by
 * its address alone): when a live allocation lies in a slot beside it, the
 * access overran that one (a[-1], the row above a stencil's first), as ASan
 * names the chunk beside a redzone; 1 and *reg its bounds. */
int rt_binary_beside(const gsan_record *rec, rt_arena *a, rt_region *reg);
/* every block of the device heap still live, with the thread that
 * allocated it (the listener's leaks) */
void rt_binary_heap_leaks(void (*fn)(void *arg, const rt_leak *l), void *arg);

/* Starts binary mode (GSAN_OPTIONS binary=1), once, before the program's
 * first context: loads the Sanitizer API and subscribes to module loads and
 * launches. 0, or -1 after saying why on stderr (the run goes on without
 * binary mode). */
int rt_binary_start(void);
/* its listener: start, when GSAN_OPTIONS says binary=1 */
extern const rt_listener rt_binary_listener;

#endif
