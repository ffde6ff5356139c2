/* The events the core sends to the subsystems that react to them (canaries,
 * the device heap, launch-bounds copies, binary mode, module tracking, the
 * process's life): one table of listeners, rt_listeners[] (rt_listeners.c),
 * handed to rt_events_install by the layer on top, so that no lower layer
 * names an upper one. Each listener fills in the events it wants; a NULL
 * field is an event it ignores. Listeners get an event in the table's
 * order. */
#ifndef GSAN_RT_EVENTS_H
#define GSAN_RT_EVENTS_H

#include "rt_report.h"
#include "rt_sites.h"

struct rt_dev;

typedef struct rt_listener {
  const char *name;
  /* the driver's functions and the options are there (rt_life_init), once;
   * outside rt_gsan.lock */
  void (*start)(void);
  /* d is set up and ready, in its context, under rt_gsan.lock */
  void (*device_ready)(struct rt_dev *d);
  /* forget: d's context is being reset, and every allocation, module and
   * heap made in it goes with it; under rt_gsan.lock */
  void (*forget)(const struct rt_dev *d);
  /* a module's site tables are about to be kept (rt_tables_add), outside
   * rt_gsan.lock */
  void (*tables)(rt_site_table *const *t, int n);
  /* a kernel is about to be launched (or a graph), before it is ordered
   * after gsan's own work; any thread, no lock held */
  void (*before_launch)(void);
  /* the monitor thread's tick, after it drained the rings; no lock held */
  void (*tick)(void);
  /* at exit, after the last words, before the leak check; no lock held */
  void (*exit)(void);
  /* the leak check: fn for every allocation of the listener's own that is
   * still live at exit */
  void (*leaks)(void (*fn)(void *arg, const rt_leak *l), void *arg);
  /* print_stats: the listener's own line(s) */
  void (*stats)(void);
} rt_listener;

/* the table, ended by NULL */
extern const rt_listener *const rt_listeners[];

/* Installs list (ended by NULL); before the first event is sent. */
void rt_events_install(const rt_listener *const *list);

void rt_events_start(void);
void rt_events_device_ready(struct rt_dev *d);
void rt_events_forget(const struct rt_dev *d);
void rt_events_tables(rt_site_table *const *t, int n);
void rt_events_before_launch(void);
void rt_events_tick(void);
void rt_events_exit(void);
void rt_events_leaks(void (*fn)(void *arg, const rt_leak *l), void *arg);
void rt_events_stats(void);

#endif
