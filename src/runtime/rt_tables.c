/* The site-table registry (rt_tables.h): a list that only grows, with no
 * limit (a long torch.compile session loads a module per Triton kernel: a
 * table left out would make its reports anonymous). Lock rule: rt_gsan.lock
 * guards the list; adding takes it, looking up runs under it (the sink, the
 * heap's reports). The
 * listeners hear of new tables (rt_events.h: tables) before they are kept,
 * outside the lock. */
#include "rt_tables.h"

#include "rt_events.h"
#include "rt_gsan.h"

#include <stdlib.h>

static struct {
  rt_site_table **t;
  int n, cap;
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
    if (rt_tables_get(rt_sites_module(found[i]))) {
      rt_sites_free(found[i]);
      continue;
    }
    if (tables.n == tables.cap) {
      int cap = tables.cap ? 2 * tables.cap : 64;
      rt_site_table **grown = realloc(tables.t, (size_t)cap * sizeof *grown);
      if (!grown) { /* out of memory: this module's reports will say their site is unknown */
        rt_sites_free(found[i]);
        continue;
      }
      tables.t = grown;
      tables.cap = cap;
    }
    tables.t[tables.n++] = found[i];
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}
