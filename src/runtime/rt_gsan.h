/* libgsan's context: what every layer of the runtime shares (docs/runtime.md
 * "Layers"). The options, the report log, the suppressions, the per-site
 * counts of device reports and the one lock that orders reports, site
 * tables and device set-up. Each layer keeps the rest of its state itself:
 * the driver's functions (rt_driver.h), devices (rt_device.h), site tables
 * (rt_tables.h), the monitor thread and exit (rt_life.h). */
#ifndef GSAN_RT_GSAN_H
#define GSAN_RT_GSAN_H

#include "rt_arena.h"
#include "rt_flags.h"
#include "rt_report.h"
#include "rt_seen.h"
#include "rt_stack.h"
#include "rt_suppress.h"

#include <pthread.h>

typedef struct rt_gsan_ctx {
  pthread_mutex_t lock; /* reports, the site tables, device set-up and reset */
  rt_flags flags;       /* set once by rt_gsan_configure, read-only after */
  int ready;            /* some device is set up: the monitor runs, exit checks */
  rt_seen seen;         /* device reports per site: printed once, then counted */
  rt_suppress suppress;
  rt_log log;
  int forked; /* this is a child forked after set-up: no monitor, no CUDA */
} rt_gsan_ctx;

extern rt_gsan_ctx rt_gsan;

/* Reads GSAN_OPTIONS, opens the log and loads the suppressions; once, under
 * rt_gsan.lock, before the driver's functions are fetched (rt_life_init). */
void rt_gsan_configure(void);
static inline int rt_gsan_is_ready(void) { return __atomic_load_n(&rt_gsan.ready, __ATOMIC_ACQUIRE); }

/* A one-line message from gsan itself (not a report). */
void rt_gsan_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A list of allocations, grown by rt_gsan_note_live (an rt_arena_foreach_live
 * callback; the caller frees p): taken while the arena's walk holds a class
 * lock, and worked on after it. */
typedef struct rt_live_list { rt_alloc_info *p; size_t n, cap; } rt_live_list;
void rt_gsan_note_live(void *arg, const rt_alloc_info *info);

/* the host stacks a report shows (rt_stacks, rt_report.h): where the region
 * was allocated and freed, and the call being reported */
void rt_gsan_region_stacks(uint64_t base, int freed, rt_region *reg, rt_stacks *s);
const rt_stack *rt_gsan_call_stack(rt_stacks *s);
/* the host stack of the call being made, kept in the depot */
uint32_t rt_gsan_stack_here(void);

#endif
