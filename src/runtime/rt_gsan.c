/* libgsan's context (rt_gsan.h): the options, the log and the suppressions,
 * set up once when the driver is first asked for, and the helpers every
 * report uses (suppression matching, host stacks). Lock rule: rt_gsan.lock
 * is taken by the layers above, never here; flags, suppress and log.out are
 * written once, under it, by rt_gsan_configure and read-only after; log and
 * seen change only under it. Nothing here aborts the program: if gsan
 * cannot set itself up it says so once and the program runs on. */
#include "rt_gsan.h"

#include "rt_depot.h"
#include "rt_trust.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

rt_gsan_ctx rt_gsan = {.lock = PTHREAD_MUTEX_INITIALIZER, .log.lock = PTHREAD_MUTEX_INITIALIZER};

void rt_gsan_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "==%ld==gsan: ", (long)getpid());
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void rt_gsan_configure(void) {
  rt_flags_defaults(&rt_gsan.flags);
  char err[256];
  if (rt_flags_parse(&rt_gsan.flags, getenv("GSAN_OPTIONS"), err, sizeof err) < 0) rt_gsan_say("%s", err);
  rt_gsan.log.out = stderr;
  char path[600];
  rt_flags_log_path(&rt_gsan.flags, (long)getpid(), path, sizeof path);
  const char *why;
  if (path[0] && !(rt_gsan.log.out = rt_trust_open_log(path, &why))) {
    rt_gsan_say("cannot open log_path '%s' (%s); reports go to stderr", path, why);
    rt_gsan.log.out = stderr;
  }
  rt_gsan.log.json = rt_gsan.flags.log_format == RT_LOG_JSON;
  if (rt_suppress_load(&rt_gsan.suppress, rt_gsan.flags.default_suppressions, rt_gsan.flags.suppressions, err,
                       sizeof err) < 0)
    rt_gsan_say("%s", err);
  rt_gsan.log.pid = (long)getpid();
  /* the report scope's policy (rt_report.h), for every producer; its halt
   * is rt_exit_die, set by rt_life_init */
  rt_gsan.log.rules = &rt_gsan.suppress;
  rt_gsan.log.report_limit = (unsigned)rt_gsan.flags.report_limit;
  rt_gsan.log.halt_on_error = rt_gsan.flags.halt_on_error;
  rt_gsan.log.region_stacks = rt_gsan_region_stacks;
  rt_gsan.log.call_stack = rt_gsan_call_stack;
}

void rt_gsan_region_stacks(uint64_t base, int freed, rt_region *reg, rt_stacks *s) {
  uint32_t a, f;
  rt_depot_lookup(base, &a, &f);
  const rt_trace *ta = rt_depot_get(a), *tf = rt_depot_get(f);
  if (ta) {
    rt_trace_symbolize(ta, &s->alloc, s->buf[0], sizeof s->buf[0]);
    reg->allocated = &s->alloc;
  }
  if (tf && freed) {
    rt_trace_symbolize(tf, &s->freed, s->buf[1], sizeof s->buf[1]);
    reg->freed = &s->freed;
  }
}

const rt_stack *rt_gsan_call_stack(rt_stacks *s) {
  rt_trace t;
  rt_trace_capture(&t, RT_STACK_DEPTH);
  rt_trace_symbolize(&t, &s->call, s->buf[2], sizeof s->buf[2]);
  return &s->call;
}

uint32_t rt_gsan_stack_here(void) {
  if (!rt_gsan.flags.malloc_context_size) return 0;
  rt_trace t;
  rt_trace_capture(&t, rt_gsan.flags.malloc_context_size);
  return rt_depot_put(&t);
}

void rt_gsan_note_live(void *arg, const rt_alloc_info *info) {
  rt_live_list *l = arg;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 256;
    rt_alloc_info *p = realloc(l->p, cap * sizeof *p);
    if (!p) return;
    l->p = p, l->cap = cap;
  }
  l->p[l->n++] = *info;
}
