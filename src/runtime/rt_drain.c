/* Device records to reports (rt_drain.h): the rings drained, by the monitor
 * thread and after every driver call that waited for the device, each
 * record through the sink, which prints a site's first report and counts
 * the rest, each report through the report scope (rt_report.h), whose halt
 * is rt_exit_die. Lock rule: draining
 * holds rt_gsan.lock throughout (the sink, the site tables and the per-site
 * counts are under it); it is never called with the lock held. */
#include "rt_drain.h"

#include "rt_binary.h"
#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_heap.h"
#include "rt_tables.h"

#include <string.h>

/* One device record: printed the first time its site fails (until
 * report_limit), counted after that. In halt mode the first report ends the
 * run (the scope's RT_REPORT_HALTS): after a trap the context is dead and nothing the program does next
 * can succeed. Runs under rt_gsan.lock. */
static void sink(void *arg, const gsan_record *rec) {
  (void)arg;
  /* a site already reported (or held back) is only counted: a million
   * threads failing one check must not cost a million symbolised reports */
  if (rt_seen_again(&rt_gsan.seen, rec->module_id, rec->site)) return;
  const rt_site_table *t = rt_tables_get(rec->module_id);
  rt_site s;
  memset(&s, 0, sizeof s);
  int unknown = 0;
  if ((!t || rt_sites_get(t, rec->site, &s) < 0) && !rt_binary_site(rec, &s)) {
    /* a module whose tables were never read, or a site past its table's
     * end: the report says what the record holds, and that the rest is
     * unknown (rt_report_device), rather than a kernel named "?" */
    s.func = "?";
    s.kind = 0;
    unknown = 1;
  }
  rt_region reg = {rec->base, rec->size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
  rt_alloc_info info;
  int state = RT_SLOT_LIVE;
  static rt_dev_origin origin;
  static rt_site osite;
  if (s.root != GSAN_ROOT_ARENA) { /* a variable, or a dead frame (use-after-scope) */
    reg.name = s.root_name;
    reg.space = s.root_space;
  } else if (s.binary && rt_binary_explain(&s, rec, &reg, &origin, &state)) {
    /* binary mode: a device-heap block, or a failed in-kernel free */
  } else if (rt_heap_explain(&s, rec, &reg, &origin, &osite, &state)) {
    /* a device-heap block, or a failed in-kernel free */
  } else if (rt_gsan_find(rec->base, &info) == RT_OK) {
    state = info.state;
    reg.base = info.base;
    reg.size = info.size;
  }
  rt_report_kind kind = rt_classify_device(&s, rec, state);
  rt_dev *bd;
  if (kind == RT_KIND_WILD_POINTER && s.binary && (bd = rt_device_of(rec->addr)) &&
      rt_binary_beside(rec, bd->arena, &reg)) {
    kind = RT_KIND_GLOBAL_BUFFER_OVERFLOW;
    state = RT_SLOT_LIVE;
  }
  char fbuf[1024];
  const char *names[] = {rt_demangle(s.func, fbuf, sizeof fbuf), s.file, s.call_file};
  rt_report_scope *sc = rt_report_begin(&rt_gsan.log, kind, RT_REPORT_HALTS);
  sc->region = reg;
  /* a site reported before (or held back) is left to rt_seen's count */
  const rt_site *where = t || s.binary ? &s : NULL;
  if (!rt_report_suppressed(sc, names, 3, NULL) &&
      rt_seen_hit(&rt_gsan.seen, rec->module_id, rec->site, rt_report_kind_name(kind), where) == 1 &&
      rt_report_admit(sc)) {
    if (s.root == GSAN_ROOT_ARENA && state != RT_SLOT_NEVER && state != RT_SLOT_DEVHEAP)
      rt_report_stacks(sc, state == RT_SLOT_FREED);
    rt_err_device e = {kind, *rec, s, sc->region, unknown, kind == RT_KIND_WILD_POINTER && rt_device_guard(rec->addr)};
    rt_report_device(&rt_gsan.log, &e);
    rt_seen_printed(&rt_gsan.seen, rec->module_id, rec->site);
  }
  rt_report_end(sc);
}

void rt_drain(int final) {
  if (!rt_gsan_is_ready()) return;
  pthread_mutex_lock(&rt_gsan.lock);
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = rt_device_at(i);
    if (d->ready) rt_ring_drain(&d->ring, final, sink, NULL);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

CUresult rt_drain_after(CUresult r) {
  rt_drain(rt_driver_context_lost(r));
  return r;
}
