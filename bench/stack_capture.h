/* Timing for bench/stack_capture.c and bench/stack_capture_alloc.c, in ns:
 * the CPU time of the calling thread, for runs of many calls (what other
 * processes on a shared machine take does not count, nor gsan's monitor
 * thread; but a reading costs about a microsecond, a system call), and the
 * monotonic clock (read in the vDSO) for single calls; the median of a
 * sample. */
#ifndef GSAN_BENCH_STACK_CAPTURE_H
#define GSAN_BENCH_STACK_CAPTURE_H

#include <stdlib.h>
#include <time.h>

static inline double cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline double wall_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* sorts v */
static inline double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
