/* Per-site report counts (rt_seen.h): open addressing on (module, site). */
#include "rt_seen.h"

#include <string.h>

static rt_seen_site *find(rt_seen *s, uint64_t module, uint32_t site, int add) {
  uint64_t h = (module ^ (module >> 29) ^ ((uint64_t)site * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
  for (unsigned i = 0; i < RT_SEEN_SITES; i++) {
    rt_seen_site *e = &s->slot[(h + i) % RT_SEEN_SITES];
    if (e->hits && e->module == module && e->site == site) return e;
    if (!e->hits) {
      if (!add) return NULL;
      e->module = module;
      e->site = site;
      return e;
    }
  }
  return NULL;
}

uint64_t rt_seen_hit(rt_seen *s, uint64_t module, uint32_t site, const char *kind, const rt_site *where) {
  rt_seen_site *e = find(s, module, site, 1);
  if (!e) return 1;
  if (!e->hits) {
    e->kind = kind;
    if (where) e->where = *where;
  }
  return ++e->hits;
}

uint64_t rt_seen_again(rt_seen *s, uint64_t module, uint32_t site) {
  rt_seen_site *e = find(s, module, site, 0);
  return e ? ++e->hits : 0;
}

void rt_seen_printed(rt_seen *s, uint64_t module, uint32_t site) {
  rt_seen_site *e = find(s, module, site, 0);
  if (e) e->printed = 1;
}

void rt_seen_add_counts(rt_seen *s, const gsan_site_count *table) {
  for (unsigned i = 0; i < RT_SEEN_SITES; i++) {
    rt_seen_site *e = &s->slot[i];
    if (!e->hits) continue;
    uint64_t key = gsan_site_key(e->module, e->site);
    for (unsigned p = 0, at = gsan_site_slot(key); p < GSAN_SITE_PROBES; p++, at++) {
      const gsan_site_count *c = &table[at % GSAN_SITE_SLOTS];
      if (!c->key) break;
      if (c->key == key) {
        e->counted += c->hits;
        break;
      }
    }
  }
}

void rt_seen_foreach_repeat(rt_seen *s, void (*fn)(void *arg, const rt_seen_site *site), void *arg) {
  for (unsigned i = 0; i < RT_SEEN_SITES; i++)
    if (s->slot[i].counted > s->slot[i].hits) s->slot[i].hits = s->slot[i].counted;
  for (unsigned i = 0; i < RT_SEEN_SITES; i++)
    if (s->slot[i].hits > 1 || (s->slot[i].hits && !s->slot[i].printed)) fn(arg, &s->slot[i]);
}
