/* Reading site tables (rt_sites.h). The blob comes from device memory or
 * from PTX text; nothing in it is trusted before it is checked. */
#include "rt_sites.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

struct rt_site_table {
  gsan_sites_header h;
  unsigned char *blob;
  size_t n;
};

static int str_ok(const rt_site_table *t, uint32_t off) {
  size_t base = t->h.strings;
  return base + off < t->n && memchr(t->blob + base + off, 0, t->n - base - off) != NULL;
}

rt_site_table *rt_sites_parse(const void *blob, size_t n, const char **why) {
  *why = NULL;
  if (n < sizeof(gsan_sites_header)) { *why = "shorter than its header"; return NULL; }
  rt_site_table *t = calloc(1, sizeof *t);
  if (!t) { *why = "out of memory"; return NULL; }
  memcpy(&t->h, blob, sizeof t->h);
  if (t->h.magic != GSAN_SITES_MAGIC) *why = "bad magic";
  else if (t->h.version != GSAN_ABI_VERSION) *why = "ABI version differs from this runtime's";
  else if ((uint64_t)t->h.nsites * sizeof(gsan_site) + sizeof t->h > t->h.strings || t->h.strings >= n)
    *why = "sites overlap the string table";
  if (*why) { free(t); return NULL; }
  t->n = n;
  t->blob = malloc(n);
  if (!t->blob) { free(t); *why = "out of memory"; return NULL; }
  memcpy(t->blob, blob, n);
  for (uint32_t i = 0; i < t->h.nsites; i++) {
    gsan_site s;
    memcpy(&s, t->blob + sizeof t->h + (size_t)i * sizeof s, sizeof s);
    if (!str_ok(t, s.func) || !str_ok(t, s.file) || !str_ok(t, s.root_name) || !str_ok(t, s.call_file)) {
      *why = "a string offset points outside the table";
      rt_sites_free(t);
      return NULL;
    }
  }
  return t;
}

void rt_sites_free(rt_site_table *t) {
  if (!t) return;
  free(t->blob);
  free(t);
}

uint64_t rt_sites_module(const rt_site_table *t) { return t->h.module_id; }
unsigned rt_sites_count(const rt_site_table *t) { return t->h.nsites; }

int rt_sites_get(const rt_site_table *t, uint32_t index, rt_site *out) {
  if (index >= t->h.nsites) return -1;
  gsan_site s;
  memcpy(&s, t->blob + sizeof t->h + (size_t)index * sizeof s, sizeof s);
  const char *str = (const char *)t->blob + t->h.strings;
  /* fields a site table does not hold (binary mode's) are zero, not the
   * caller's garbage */
  memset(out, 0, sizeof *out);
  out->func = str + s.func;
  out->file = s.file ? str + s.file : NULL;
  out->root_name = s.root_name ? str + s.root_name : NULL;
  out->call_file = s.call_file ? str + s.call_file : NULL;
  out->call_line = s.call_line;
  out->line = s.line;
  out->col = s.col;
  out->ptx_line = s.ptx_line;
  out->width = s.width;
  out->kind = s.kind;
  out->space = s.space;
  out->root = s.root;
  out->root_space = s.root_space;
  return 0;
}
