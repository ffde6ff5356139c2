/* The site table: one record per checked access (function, source line from
 * .loc, PTX line, kind, space, width), emitted into the module as a .global
 * byte array so that every loading path can symbolise reports. Layout in
 * include/gsan/abi.h and docs/abi.md. */
#include "ptx_sites.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

struct ptx_sites {
  gsan_site *v;
  int n, cap;
  char *str;        /* string table, offset 0 is "" */
  size_t slen, scap;
  /* tiny cache: the last function, file and variable interned, as offsets
   * into str (compared by content: the names live in per-function arenas,
   * so a later name can sit at a freed earlier one's address) */
  uint32_t last_off[3];
};

ptx_sites *ptx_sites_new(void) {
  ptx_sites *s = calloc(1, sizeof *s);
  s->scap = 4096;
  s->str = malloc(s->scap);
  s->str[0] = 0;
  s->slen = 1;
  return s;
}

void ptx_sites_free(ptx_sites *s) {
  if (!s) return;
  free(s->v);
  free(s->str);
  free(s);
}

static uint32_t intern(ptx_sites *s, const char *str, int slot) {
  if (!str || !*str) return 0;
  if (s->last_off[slot] && !strcmp(s->str + s->last_off[slot], str)) return s->last_off[slot];
  size_t n = strlen(str) + 1;
  if (s->slen + n > s->scap) {
    while (s->slen + n > s->scap) s->scap *= 2;
    s->str = realloc(s->str, s->scap);
  }
  memcpy(s->str + s->slen, str, n);
  uint32_t off = (uint32_t)s->slen;
  s->slen += n;
  s->last_off[slot] = off;
  return off;
}

int ptx_sites_add(ptx_sites *s, const ptx_site_desc *d) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
  }
  gsan_site *e = &s->v[s->n];
  memset(e, 0, sizeof *e);
  e->func = intern(s, d->func, 0);
  e->file = intern(s, d->file, 1);
  e->root_name = d->root ? intern(s, d->root->name, 2) : 0;
  e->call_file = intern(s, d->call_file, 1);
  e->call_line = (uint32_t)(d->call_line > 0 ? d->call_line : 0);
  e->line = (uint32_t)(d->line > 0 ? d->line : 0);
  e->col = (uint32_t)(d->col > 0 ? d->col : 0);
  e->ptx_line = (uint32_t)d->ptx_line;
  e->kind = (uint8_t)d->kind;
  e->space = (uint8_t)d->space;
  e->width = (uint16_t)(d->width > 0 && d->width < 65536 ? d->width : 0);
  e->root = d->scope ? GSAN_ROOT_SCOPE : d->root ? GSAN_ROOT_VARIABLE : GSAN_ROOT_ARENA;
  e->root_space = (uint8_t)(d->scope ? GSAN_SPACE_LOCAL : d->root ? d->root->space : GSAN_SPACE_GLOBAL);
  return s->n++;
}

int ptx_sites_count(const ptx_sites *s) { return s->n; }

int ptx_sites_logged(ptx_sites *s, ptx_site_log *log, int copy, const ptx_site_desc *d) {
  if (copy && log->next < log->n) return log->id[log->next++];
  int id = ptx_sites_add(s, d);
  if (!copy) {
    if (log->n == log->cap) {
      log->cap = log->cap ? 2 * log->cap : 64;
      log->id = realloc(log->id, (size_t)log->cap * sizeof *log->id);
    }
    log->id[log->n++] = id;
  }
  return id;
}

char *ptx_sites_decl(ptx_arena *a, const ptx_sites *s, uint64_t module_id) {
  gsan_sites_header h = {GSAN_SITES_MAGIC, GSAN_ABI_VERSION, (uint32_t)s->n, 0, module_id};
  size_t body = sizeof h + (size_t)s->n * sizeof(gsan_site);
  h.strings = (uint32_t)body;
  size_t total = body + s->slen;
  unsigned char *blob = malloc(total);
  memcpy(blob, &h, sizeof h);
  if (s->n) memcpy(blob + sizeof h, s->v, (size_t)s->n * sizeof(gsan_site));
  memcpy(blob + body, s->str, s->slen);
  /* up to 4 characters per byte plus line breaks */
  char *out = ptx_alloc(a, total * 5 + 256);
  char *p = out;
  p += sprintf(p, "\n// gsan site table: %d checked accesses\n.weak .global .align 8 .b8 %s%016llx[%zu] = {", s->n,
               GSAN_SITES_PREFIX, (unsigned long long)module_id, total);
  for (size_t i = 0; i < total; i++) {
    if (i % 32 == 0) *p++ = '\n';
    p += sprintf(p, "%u%s", blob[i], i + 1 < total ? "," : "");
  }
  p += sprintf(p, "\n};\n");
  free(blob);
  return out;
}
