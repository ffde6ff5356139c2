/* GSAN_OPTIONS: every option is defined once, in the table in rt_flags.c,
 * which drives the parser and `gsan help options`. */
#ifndef GSAN_RT_FLAGS_H
#define GSAN_RT_FLAGS_H

#include <stddef.h>
#include <stdio.h>

enum rt_log_format { RT_LOG_TEXT = 0, RT_LOG_JSON = 1 };

typedef struct rt_flags {
  int halt_on_error;     /* print the first device report, then exit with exitcode */
  int exitcode;
  char log_path[512];    /* empty: stderr; %p becomes the process id */
  int log_format;        /* enum rt_log_format */
  int leak_check;
  int check_host_api;
  int report_limit;      /* reports printed before the rest are only counted; 0 = no limit */
  char suppressions[512];
  int default_suppressions; /* the built-in ones (rt_suppress.c) */
  int verbosity;
  int ring_capacity;     /* device records buffered between drains, a power of two */
  int monitor_ms;        /* how often the monitor thread drains the ring */
  int async_tables;      /* slot-table writes queued on gsan's stream, launches ordered after them */
  int print_stats;       /* the arena's memory accounting at exit */
  int jit_instrument;    /* PTX handed to the driver at run time is instrumented at load (rt_jit.c) */
  int jit_cache;         /* instrumented PTX kept on disk, found again by content */
  char jit_cache_dir[512]; /* empty: $GSAN_CACHE/jit, $XDG_CACHE_HOME/gsan/jit or ~/.cache/gsan/jit */
  int malloc_context_size; /* host frames kept per allocation and free stack; 0: none captured */
  int quarantine_mb;     /* freed memory kept mapped per device before slots are reused (rt_arena.h) */
  int canaries;          /* canary words after each allocation's end (rt_canary.h) */
  int canary_bytes;      /* the canary window after the end, rounded down to 8 bytes */
  int canary_check_ms;   /* how often the monitor and synchronising calls check canaries; 0: every call */
  int handle_signals;    /* fatal signals left at their default print pending reports first */
  int binary;            /* SASS-only modules patched through NVIDIA's Sanitizer API (rt_binary.h) */
  char sanitizer_lib[512]; /* that API's library; empty: the CUDA toolkit's */
  int launch_bounds;     /* launch kernels' launch-bounds copies, their entries filled (rt_launch.h) */
  int launch_proofs;     /* ... or their proven copies, when the launch's facts hold (rt_proof.h) */
  int launch_proofs_cost; /* percent of a kernel's launch interval its evaluations may take (rt_launch.c) */
} rt_flags;

void rt_flags_defaults(rt_flags *f);
/* Applies "name=value" pairs separated by ':' (or spaces, commas); on an
 * error returns -1 with a one-line message in err, and f keeps what came
 * before the bad pair. */
int rt_flags_parse(rt_flags *f, const char *spec, char *err, size_t errlen);
void rt_flags_help(FILE *out);
/* log_path with %p replaced; "" when reports go to stderr */
void rt_flags_log_path(const rt_flags *f, long pid, char *out, size_t n);

#endif
