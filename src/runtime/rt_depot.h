/* Stack depot (as in AddressSanitizer): each distinct host stack is stored
 * once and named by a small id, so millions of allocations that come from a
 * few call sites cost a few stacks; and the per-allocation record of which
 * stacks allocated and freed it. */
#ifndef GSAN_RT_DEPOT_H
#define GSAN_RT_DEPOT_H

#include "rt_stack.h"

#include <stdint.h>

uint32_t rt_depot_put(const rt_trace *t);           /* 0 when out of memory */
const rt_trace *rt_depot_get(uint32_t id);          /* NULL for 0 */

void rt_depot_note_alloc(uint64_t base, uint32_t stack);
void rt_depot_note_free(uint64_t base, uint32_t stack);
/* the stacks of the allocation at base; 0 when unknown */
void rt_depot_lookup(uint64_t base, uint32_t *alloc_stack, uint32_t *free_stack);

#endif
