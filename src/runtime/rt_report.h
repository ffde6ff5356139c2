/* Reports, in AddressSanitizer's shape (DESIGN.md §4) or as one JSON object
 * each. One struct per error kind, each with its own print function; every
 * line goes through the one log printer in rt_report.c. */
#ifndef GSAN_RT_REPORT_H
#define GSAN_RT_REPORT_H

#include "rt_sites.h"

#include <gsan/abi.h>
#include <stdio.h>

typedef struct rt_log {
  FILE *out;
  int json;         /* GSAN_OPTIONS log_format=json */
  long pid;
  unsigned reports; /* printed so far */
} rt_log;

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

/* a failed device check: buffer overflows, use after free, wild pointers */
typedef struct rt_err_device {
  const char *kind;          /* from rt_classify_device */
  gsan_record rec;
  rt_site site;
  rt_region region;
} rt_err_device;

/* A double free or a free of something that is no allocation's base. */
typedef struct rt_err_free {
  const char *kind;          /* "double-free", "invalid-free" */
  const char *api;           /* cudaFree, cuMemFree, cuMemFreeAsync ... */
  uint64_t addr;
  const rt_stack *stack;
  rt_region region;          /* size 0 when the pointer is no allocation at all */
} rt_err_free;

/* A host API call whose range leaves its allocation or touches a freed one. */
typedef struct rt_err_host_range {
  const char *kind;          /* "memcpy-param-overflow", "memset-param-overflow", "use-after-free" */
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
const char *rt_classify_device(const rt_site *site, const gsan_record *rec, int slot_state);

void rt_report_device(rt_log *log, const rt_err_device *e);
void rt_report_free(rt_log *log, const rt_err_free *e);
void rt_report_host_range(rt_log *log, const rt_err_host_range *e);
void rt_report_leaks(rt_log *log, const rt_err_leaks *e);
void rt_report_repeats(rt_log *log, const rt_err_repeats *e);
void rt_report_unrecorded(rt_log *log, const rt_err_unrecorded *e);
void rt_report_canary(rt_log *log, const rt_err_canary *e);
void rt_report_fault(rt_log *log, const rt_err_fault *e);

/* "saxpy(float*, float const*, int)" from "_Z5saxpyPKfPfi", written to buf;
 * the input itself when it is not a mangled name. */
const char *rt_demangle(const char *name, char *buf, size_t n);

#endif
