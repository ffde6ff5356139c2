/* The device heap (docs/runtime.md, "The device heap"): in-kernel malloc and
 * free of instrumented code go to gsan's wrappers (src/ptx/ptx_heap.c),
 * which take arena slots from a run per size class that the runtime sets
 * aside here, sized from the context's malloc heap limit, when a module
 * with an in-kernel malloc is about to run. The blocks' descriptions live in
 * host-mapped memory, so reports and the leak check at exit read them
 * without a copy, even after a trap. */
#ifndef GSAN_RT_HEAP_H
#define GSAN_RT_HEAP_H

#include "rt_events.h"
#include "rt_report.h"
#include "rt_sites.h"

#include <gsan/abi.h>
#include <stddef.h>

struct rt_dev;

/* the site tables of a module just loaded: one with an in-kernel malloc
 * makes launches set up the heap */
void rt_heap_note_tables(rt_site_table *const *t, int n);
/* before a launch (rt_device_order_launch): the current device's heap, set
 * up the first time a launch needs it */
void rt_heap_before_launch(void);
/* cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, bytes) succeeded: a heap set up
 * already, from which no kernel has taken a block yet, is replaced by one of
 * the new size; a heap in use stays */
void rt_heap_limit_set(size_t bytes);
/* Under rt_gsan.lock, for a device record: 1 when it is about the device
 * heap (a failed free, or an access bounded by a heap block); then reg
 * holds the block (size 0 when there is none), origin its malloc (site in
 * osite), and *state the slot state to classify with. */
int rt_heap_explain(const rt_site *s, const gsan_record *rec, rt_region *reg, rt_dev_origin *origin, rt_site *osite,
                    int *state);
/* at exit: every block still live, with its origin (valid during the call) */
void rt_heap_foreach_live(void (*fn)(void *arg, const rt_leak *l), void *arg);
/* d's context is being reset: its heap's device memory goes with it */
void rt_heap_forget(const struct rt_dev *d);
/* its listener: tables, before_launch, forget, leaks (the functions above) */
extern const rt_listener rt_heap_listener;

#endif
