/* Canaries for kernels gsan cannot recompile (docs/runtime.md, "Canaries
 * and guard gaps"). An arena allocation's slack, between its exact end and
 * the end of the memory mapped behind it, starts with a window of canary
 * words derived from the address, the size and a per-process secret. A
 * kernel that was not instrumented (SASS only) and writes past the end
 * breaks them; gsan reads them back at each free, at synchronising calls,
 * at exit and from the monitor thread, and reports the allocation, its
 * stack and the kernels launched since the last clean check. Allocations
 * with no slack (a multiple of the granule) have an unmapped guard gap after
 * them instead: an overflow faults, and the fault is reported with the
 * kernels that were running. */
#ifndef GSAN_RT_CANARY_H
#define GSAN_RT_CANARY_H

#include "rt_arena.h"
#include "rt_events.h"

#include <cuda.h>
#include <stdint.h>

/* the window's words are 64-bit stream writes, and a 32-bit one first */
#define RT_CANARY_MAX_WINDOW (256 + 8)

/* The canary word numbered off (a multiple of 8: the distance of its
 * 8-byte-aligned address from that of the word the allocation's end falls
 * in) of the allocation at base of size bytes. */
uint64_t rt_canary_word(uint64_t secret, uint64_t base, uint64_t size, uint64_t off);
/* Where an allocation's canary window lies: [*start, *start + *len), from
 * its end when the end is 4 bytes past an 8-byte boundary (a 4-byte word
 * first), else from the next 4- or 8-byte boundary, through window bytes
 * past the next 8-byte boundary, within the memory mapped behind the slot
 * (a small class's whole slot; a large one's granules). *len is 0 when
 * there is no room: the allocation then ends at a granule boundary, where an
 * unmapped guard gap follows. */
void rt_canary_window(uint64_t base, uint64_t size, uint64_t slot_size, uint64_t granule, uint64_t window,
                      uint64_t *start, uint64_t *len);

struct rt_dev;
/* A new allocation of d's arena: its canary words queued on gsan's stream
 * (before any later launch, like the slot-table entries), and the
 * allocation noted as recently used. */
void rt_canary_put(struct rt_dev *d, uint64_t base);
/* rt_arena_free with the allocation's canary checked first (and reported,
 * as api's), while no check from another thread can read it. */
rt_status rt_canary_free(struct rt_dev *d, uint64_t ptr, rt_alloc_info *info, const char *api);
/* The canary of d's retired slot at ptr (rt_arena_retire: freed, its memory
 * still mapped), checked once the free's stream has passed it (rt_retire.c);
 * a broken one is reported as at a free by api. */
void rt_canary_retired(struct rt_dev *d, uint64_t ptr, const char *api);
/* The same in two steps, for checks read back without a wait (rt_retire.c):
 * 1 and the window [*start, *start + *len) of d's retired slot at ptr (and
 * the allocation's *size) when it is to be read (0: canaries off, no window,
 * or no kernel ran since it was known intact); then the bytes read from it,
 * got, compared and a broken canary reported as at a free by api. The slot
 * stays retired (mapped) from the first step until after the second. */
int rt_canary_retired_window(struct rt_dev *d, uint64_t ptr, uint64_t *start, uint64_t *len, uint64_t *size);
void rt_canary_retired_read(struct rt_dev *d, uint64_t ptr, const unsigned char *got, uint64_t start, uint64_t len,
                            const char *api);
/* A launch of f: logged (the kernels since the last clean check), and its
 * arena pointer parameters noted as recently used. */
void rt_canary_launch(CUfunction f, void **params);
/* A synchronising call (api) returned r: the recently used allocations a
 * kernel may have written since their last check are checked; whole: the
 * call waited for every kernel of the context, so an intact one counts as
 * checked after them (a stream's wait leaves other streams' kernels
 * running, and the free after them must still read it). A fault
 * (cudaErrorIllegalAddress) is reported instead, with the kernels launched
 * since the last successful synchronisation. */
void rt_canary_synced(CUresult r, const char *api, int whole);
/* The monitor thread's check while kernels run (every canary_check_ms). */
void rt_canary_tick(void);
/* At exit: every live allocation is checked. */
void rt_canary_exit(void);
/* d's allocations went with its context (a reset): nothing of them is
 * read again. */
void rt_canary_forget_device(const struct rt_dev *d);
/* its listener: tick, exit, forget (the three above) */
extern const rt_listener rt_canary_listener;

#endif
