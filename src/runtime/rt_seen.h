/* Device reports per site: in recover mode one faulty line can fail in
 * millions of threads, so each site is printed once and counted after
 * that; the counts are summarised at exit. Also how report_limit counts
 * what it does not print. */
#ifndef GSAN_RT_SEEN_H
#define GSAN_RT_SEEN_H

#include "rt_sites.h"

#include <gsan/abi.h>

#include <stdint.h>

#define RT_SEEN_SITES 1024

typedef struct rt_seen_site {
  uint64_t module;
  uint32_t site;
  uint64_t hits;    /* 0: a free slot */
  uint64_t counted; /* the device's own count of the site's failures (rt_seen_add_counts) */
  int printed;      /* its first report was printed (not held back by report_limit) */
  const char *kind;
  rt_site where;    /* strings owned by the module's site table, kept for the process */
} rt_seen_site;

typedef struct rt_seen {
  rt_seen_site slot[RT_SEEN_SITES];
} rt_seen;

/* Counts a hit at (module, site) and returns its number: 1 for the first.
 * When the table is full every hit at a new site is a first one. */
uint64_t rt_seen_hit(rt_seen *s, uint64_t module, uint32_t site, const char *kind, const rt_site *where);
/* Counts a hit at a site already seen and returns its number; 0 for a site
 * not seen yet (nothing counted). The cheap path for a flood of repeats. */
uint64_t rt_seen_again(rt_seen *s, uint64_t module, uint32_t site);
/* marks the site's first report as printed */
void rt_seen_printed(rt_seen *s, uint64_t module, uint32_t site);
/* Adds a device's per-site failure counts (the ring control block's table,
 * GSAN_SITE_SLOTS entries) to the sites seen; a site past its first few
 * failures is only counted there. */
void rt_seen_add_counts(rt_seen *s, const gsan_site_count *table);
/* Settles each site's hits as the larger of the records seen and the
 * devices' counts, then calls fn for each site with more than one hit, or one that was not printed */
void rt_seen_foreach_repeat(rt_seen *s, void (*fn)(void *arg, const rt_seen_site *site), void *arg);

#endif
