/* Host backtraces: captured cheaply at allocation and free (return
 * addresses only), turned into "function file:line" only when a report
 * prints them, through elfutils' libdwfl. */
#ifndef GSAN_RT_STACK_H
#define GSAN_RT_STACK_H

#include "rt_report.h"

#define RT_STACK_DEPTH 32

typedef struct rt_trace {
  int n;
  void *pc[RT_STACK_DEPTH];
} rt_trace;

/* The caller's stack, without the frames of gsan itself: its innermost
 * depth frames (at most RT_STACK_DEPTH; none for 0). */
void rt_trace_capture(rt_trace *t, int depth);

/* Symbolised frames in out (strings live in buf); frames inside the CUDA
 * runtime's internals are folded into the API function they serve. */
void rt_trace_symbolize(const rt_trace *t, rt_stack *out, char *buf, size_t buflen);

#endif
