/* Reports, in AddressSanitizer's shape (docs/architecture.md §2) or as one JSON object
 * each. One struct per error kind, each with its own print function; every
 * line goes through the one log printer in rt_report.c. Every report is made
 * inside a report scope (rt_report_begin .. rt_report_end, as ASan's
 * ScopedInErrorReport), which owns the policy: one report at a time,
 * suppressions, report_limit, halt_on_error, the counts behind the exit
 * status and the summary at exit, and the storage for the memory the
 * report describes. The kinds are rt_report_kinds.h's one list. */
#ifndef GSAN_RT_REPORT_H
#define GSAN_RT_REPORT_H

#include "rt_report_kinds.h"
#include "rt_sites.h"
#include "rt_suppress.h"

#include <gsan/abi.h>
#include <pthread.h>
#include <stdio.h>

/* a host stack, already symbolised: one "function file:line" string a frame */
typedef struct rt_stack {
  int n;
  const char *frame[32];
} rt_stack;

/* where a device-heap block was allocated: the malloc call's site and the
 * device thread that made it */
typedef struct rt_dev_origin {
  const rt_site *site;       /* NULL when the module's site table is unknown */
  uint32_t tid[3], ctaid[3];
} rt_dev_origin;

/* what the report says about the memory the access or call was bounded by */
typedef struct rt_region {
  uint64_t base, size;
  const char *name;          /* a variable's name, NULL for an allocation */
  int space;                 /* enum gsan_space */
  const rt_stack *allocated; /* allocation site, NULL when unknown */
  const rt_stack *freed;     /* free site, for use after free */
  unsigned thread;           /* host thread that allocated */
  const rt_dev_origin *dev_allocated; /* a device-heap block: its malloc, else NULL */
} rt_region;

/* the host stacks a report shows, symbolised into buf: where the region was
 * allocated and freed, and the call being reported */
typedef struct rt_stacks {
  rt_stack alloc, freed, call;
  char buf[3][4096];
} rt_stacks;

/* What a report's error leaves the program, which decides whether
 * halt_on_error=1 ends the run after it (printed, or held back by
 * report_limit; never after a suppressed one). */
typedef enum rt_report_after {
  /* the program is told by the call's result and decides: a host call gsan
   * refused (it returns the driver's error for a bad pointer), a fault the
   * driver returned, leaks at exit */
  RT_REPORT_GOES_ON,
  /* nothing told the program: an error in device code (a failed check's
   * record, a broken canary); in halt mode the run ends after it */
  RT_REPORT_HALTS,
} rt_report_after;

typedef enum rt_report_outcome {
  RT_REPORT_OPEN,       /* nothing decided: the scope ends with nothing counted */
  RT_REPORT_SUPPRESSED, /* a suppression rule matched */
  RT_REPORT_HELD,       /* report_limit reached: counted, not printed */
  RT_REPORT_PRINTED,
} rt_report_outcome;

/* One report in the making (rt_report_begin): the log's one scope. */
typedef struct rt_report_scope {
  struct rt_log *log;
  rt_report_kind kind;
  rt_report_after after;
  rt_report_outcome outcome;
  rt_region region; /* the memory involved (rt_report_region) */
  rt_stacks stacks; /* storage for the region's and the call's stacks */
} rt_report_scope;

/* Where reports go, and the scope's policy and counts. rt_log_init sets
 * the printing fields and no policy (no rules, no limit, no halt, no
 * stacks); whoever reports (libgsan: rt_gsan.c) sets the rest before the
 * first report. */
typedef struct rt_log {
  FILE *out;
  int json;              /* GSAN_OPTIONS log_format=json */
  long pid;
  unsigned reports;      /* printed so far: the exit status is exitcode when not 0 */
  pthread_mutex_t lock;  /* held by the scope: one report at a time */
  rt_suppress *rules;    /* suppressions, NULL for none */
  unsigned report_limit; /* reports printed in full; 0: no limit */
  int halt_on_error;
  void (*halt)(void);    /* ends the run with exitcode; NULL: the run goes on */
  /* the allocation (and, when freed, free) stacks of the allocation at base
   * into reg, with s's storage; NULL: reports go without them */
  void (*region_stacks)(uint64_t base, int freed, rt_region *reg, rt_stacks *s);
  /* the stack of the host call being made, with s's storage; NULL: none */
  const rt_stack *(*call_stack)(rt_stacks *s);
  unsigned long long held[RT_REPORT_KINDS];      /* held back by report_limit */
  unsigned long long held_said[RT_REPORT_KINDS]; /* of those, summarised (rt_report_held) */
  rt_report_scope scope; /* under lock */
} rt_log;

void rt_log_init(rt_log *log, FILE *out, int json, long pid);

/* a failed device check: buffer overflows, use after free, wild pointers */
typedef struct rt_err_device {
  rt_report_kind kind;       /* from rt_classify_device */
  gsan_record rec;
  rt_site site;
  rt_region region;
  int unknown_site;          /* no site table has rec's module and site: only the record is known */
  int off_arena;             /* a wild address in the unmapped region below or above an arena */
} rt_err_device;

/* A double free or a free of something that is no allocation's base. */
typedef struct rt_err_free {
  rt_report_kind kind;       /* RT_KIND_DOUBLE_FREE, RT_KIND_INVALID_FREE */
  const char *api;           /* cudaFree, cuMemFree, cuMemFreeAsync ... */
  uint64_t addr;
  const rt_stack *stack;
  rt_region region;          /* size 0 when the pointer is no allocation at all */
} rt_err_free;

/* A host API call whose range leaves its allocation or touches a freed one. */
typedef struct rt_err_host_range {
  rt_report_kind kind;       /* RT_KIND_MEMCPY_PARAM_OVERFLOW, _MEMSET_PARAM_OVERFLOW, _USE_AFTER_FREE */
  const char *api;
  uint64_t addr, len;
  const rt_stack *stack;
  rt_region region;
} rt_err_host_range;

/* Device allocations still live at exit. */
typedef struct rt_leak {
  uint64_t addr, size;
  const rt_stack *allocated;
  const rt_dev_origin *dev_allocated; /* a device-heap block: its malloc, else NULL */
} rt_leak;
typedef struct rt_err_leaks {
  const rt_leak *leaks;
  unsigned n;          /* listed */
  uint64_t count, bytes; /* in all */
} rt_err_leaks;

/* A site whose device errors were counted, not printed, after its first one
 * (recover mode, report_limit): summarised at exit. */
typedef struct rt_err_repeats {
  const char *kind;
  const rt_site *site;
  uint64_t hits;
  int printed;         /* the first one was printed */
} rt_err_repeats;

/* Device errors that found the report ring full and were only counted
 * (docs/abi.md): summarised at exit, per device, so no count goes unsaid. */
typedef struct rt_err_unrecorded {
  int device;
  uint64_t count;
  uint32_t capacity; /* ring_capacity */
} rt_err_unrecorded;

/* A broken canary after an allocation (rt_canary.h): found at a free, a
 * synchronising call, by the monitor or at exit. */
typedef struct rt_err_canary {
  const char *found_at;         /* "cuMemFree", "cuCtxSynchronize", "the monitor thread", "exit" */
  uint64_t addr;                /* the first broken byte */
  rt_region region;             /* the allocation, with its stack */
  const char *const *kernels;   /* kernels launched since the last clean check, latest last */
  unsigned nkernels;
  uint64_t launches;            /* launches since then, in all */
} rt_err_canary;

/* A synchronising call returned a device fault (cudaErrorIllegalAddress):
 * the kernels launched since the last successful synchronisation, and the
 * recently used allocations that end at an unmapped guard gap. */
typedef struct rt_err_fault {
  const char *api;
  int code;
  const char *const *kernels;
  unsigned nkernels;
  uint64_t launches;
  const rt_region *gaps;
  unsigned ngaps;
} rt_err_fault;

/* The kind of a device error, from the site (what bounded the check) and
 * the state of the allocation the record's bounds came from. */
rt_report_kind rt_classify_device(const rt_site *site, const gsan_record *rec, int slot_state);

/* ---- the report scope ----
 * Every producer makes its reports the same way:
 *
 *   rt_report_scope *sc = rt_report_begin(log, kind, RT_REPORT_HALTS);
 *   ... rt_report_region(sc, ...), rt_report_call_stack(sc): what to show ...
 *   if (!rt_report_suppressed(sc, names, n, stack) && rt_report_admit(sc)) {
 *     rt_report_stacks(sc, freed);
 *     rt_report_device(log, &e);   (or another printer)
 *   }
 *   rt_report_end(sc);
 *
 * Lock rule: the scope holds log->lock from begin to end, and its storage
 * (log->scope) is used under it; a producer may hold rt_gsan.lock around a
 * scope (the device sink does: the lock order is rt_gsan.lock, then the
 * log's), never take it inside one. */

/* Starts a report of kind: takes log->lock and returns the log's scope,
 * its region and stacks cleared. */
rt_report_scope *rt_report_begin(rt_log *log, rt_report_kind kind, rt_report_after after);
/* The memory involved: [base, base+size) of global memory, no stacks yet.
 * Returns &sc->region, for the producer to refine (a variable's name and
 * space, a device-heap block's origin). */
rt_region *rt_report_region(rt_report_scope *sc, uint64_t base, uint64_t size);
/* The region's allocation stack, and its free stack when freed
 * (log->region_stacks), symbolised into the scope's storage: only for
 * memory gsan allocated from the host, once the report is admitted (or
 * before, when a suppression matches its frames). */
void rt_report_stacks(rt_report_scope *sc, int freed);
/* The stack of the host call being made (log->call_stack), or NULL. */
const rt_stack *rt_report_call_stack(rt_report_scope *sc);
/* 1 when a suppression rule of the report's kind (or *) matches one of
 * names[0..n) or a frame of stack (NULL for none): the report is then
 * neither printed nor counted, and does not halt. */
int rt_report_suppressed(rt_report_scope *sc, const char *const *names, int n, const rt_stack *stack);
/* 1 when the report is to be printed: report_limit not reached. 0: held
 * back, counted per kind and summarised at exit (rt_report_held). */
int rt_report_admit(rt_report_scope *sc);
/* Ends the report: counts a printed one in log->reports (rt_report_admit
 * counted a held-back one in log->held), drops the lock, and in halt mode
 * (log->halt_on_error) ends the run after a report that halts and was
 * printed or held back. A scope left open (a device site already reported:
 * only rt_seen counts it) counts nothing. */
void rt_report_end(rt_report_scope *sc);

/* The printers, called inside a scope that admitted the report (leaks: only
 * when there are some, e->count > 0). */
void rt_report_device(rt_log *log, const rt_err_device *e);
void rt_report_free(rt_log *log, const rt_err_free *e);
void rt_report_host_range(rt_log *log, const rt_err_host_range *e);
void rt_report_leaks(rt_log *log, const rt_err_leaks *e);
void rt_report_canary(rt_log *log, const rt_err_canary *e);
void rt_report_fault(rt_log *log, const rt_err_fault *e);
/* Summaries, not reports: each takes log->lock itself (never inside a
 * scope). Repeats per site, records a full ring dropped, and the reports
 * report_limit held back since the last call, per kind. */
void rt_report_repeats(rt_log *log, const rt_err_repeats *e);
void rt_report_unrecorded(rt_log *log, const rt_err_unrecorded *e);
void rt_report_held(rt_log *log);

/* "saxpy(float*, float const*, int)" from "_Z5saxpyPKfPfi", written to buf;
 * the input itself when it is not a mangled name. */
const char *rt_demangle(const char *name, char *buf, size_t n);

#endif
