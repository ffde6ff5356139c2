/* The site-table registry (rt_tables.h): a list that only grows, up to
 * RT_MAX_TABLES modules. Lock rule: rt_gsan.lock guards the list; adding
 * takes it, looking up runs under it (the sink, the heap's reports). The
 * listeners hear of new tables (rt_events.h: tables) before they are kept,
 * outside the lock. */
#include "rt_tables.h"

#include "rt_events.h"
#include "rt_gsan.h"

#define RT_MAX_TABLES 1024

static struct {
  rt_site_table *t[RT_MAX_TABLES];
  int n;
} tables;

const rt_site_table *rt_tables_get(uint64_t module) {
  for (int i = 0; i < tables.n; i++)
    if (rt_sites_module(tables.t[i]) == module) return tables.t[i];
  return NULL;
}

void rt_tables_add(rt_site_table **found, int n) {
  rt_events_tables(found, n);
  pthread_mutex_lock(&rt_gsan.lock);
  for (int i = 0; i < n; i++) {
    if (tables.n < RT_MAX_TABLES && !rt_tables_get(rt_sites_module(found[i])))
      tables.t[tables.n++] = found[i];
    else
      rt_sites_free(found[i]);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}
