/* Sending the core's events to the listeners (rt_events.h). Lock rule: none
 * of its own. The list is installed once, by rt_life_init under rt_gsan.lock
 * before the driver's wrappers are handed out, and only read after that; each
 * event is sent under whatever lock its sender holds (rt_events.h says which). */
#include "rt_events.h"

#include <stddef.h>

static const rt_listener *const *listeners;

void rt_events_install(const rt_listener *const *list) {
  __atomic_store_n(&listeners, list, __ATOMIC_RELEASE);
}

/* each listener l with the event field set, in the table's order */
#define EACH(l, field)                                                                          \
  for (const rt_listener *const *p_ = __atomic_load_n(&listeners, __ATOMIC_ACQUIRE), *l; p_ && (l = *p_); p_++) \
    if (l->field)

void rt_events_start(void) {
  EACH(l, start) l->start();
}

void rt_events_device_ready(struct rt_dev *d) {
  EACH(l, device_ready) l->device_ready(d);
}

void rt_events_forget(const struct rt_dev *d) {
  EACH(l, forget) l->forget(d);
}

void rt_events_tables(rt_site_table *const *t, int n) {
  EACH(l, tables) l->tables(t, n);
}

void rt_events_before_launch(void) {
  EACH(l, before_launch) l->before_launch();
}

void rt_events_tick(void) {
  EACH(l, tick) l->tick();
}

void rt_events_exit(void) {
  EACH(l, exit) l->exit();
}

void rt_events_leaks(void (*fn)(void *arg, const rt_leak *l), void *arg) {
  EACH(l, leaks) l->leaks(fn, arg);
}

void rt_events_stats(void) {
  EACH(l, stats) l->stats();
}
