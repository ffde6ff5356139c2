/* Device memory the driver allocates for the program, which gsan tracks
 * without owning it: managed memory (cuMemAllocManaged, which the arena
 * cannot back) and the allocations the arena does not serve (a device gsan
 * has no arena on, pools it leaves to the driver). An interval map of the
 * live allocations and the recently freed ones, described as the arena
 * describes its slots (rt_alloc_info), so that host API checks, frees and
 * the leak check treat both alike. Kernels' accesses to this memory stay
 * unchecked: its pointers find no slot. */
#ifndef GSAN_RT_FOREIGN_H
#define GSAN_RT_FOREIGN_H

#include "rt_arena.h"

#include <stdint.h>

/* freed allocations remembered (for use-after-free and double-free reports)
 * before the oldest is forgotten */
#define RT_FOREIGN_FREED 4096

/* A live allocation of size bytes at base; records it overlaps (the driver
 * gave those addresses out again) are dropped. */
void rt_foreign_add(uint64_t base, uint64_t size);
/* The recorded allocation ptr falls in, live or freed: RT_OK and info (base,
 * size, state, seq), or RT_NOT_OURS. */
rt_status rt_foreign_find(uint64_t ptr, rt_alloc_info *info);
/* The live allocation at base, freed by the driver: 1, or 0 when none is
 * recorded there. */
int rt_foreign_freed(uint64_t base);
/* The record of the allocation ptr falls in, dropped (no longer tracked). */
void rt_foreign_forget(uint64_t ptr);
/* fn for every live allocation (the leak check at exit) */
void rt_foreign_foreach_live(void (*fn)(void *arg, const rt_alloc_info *info), void *arg);

#endif
