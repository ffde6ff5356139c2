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
  int32_t (*rows)[4]; /* the member table */
  int nrows, caprows;
  /* its runs by content (open addressing; first row + 1, 0 = empty): a
   * kernel's copies check the same members at the same sites, and take the
   * kernel's run again */
  struct members_run { uint64_t hash; int first, n; } *runs;
  int nruns, capruns;
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
  free(s->rows);
  free(s->runs);
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

static uint64_t rows_hash(const int32_t (*rows)[4], int n) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)n;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) h = (h ^ (uint32_t)rows[i][k]) * 1099511628211ull;
  return h;
}

int ptx_sites_members(ptx_sites *s, const int32_t (*rows)[4], int n) {
  uint64_t h = rows_hash(rows, n);
  if (s->capruns) {
    for (int i = (int)(h & (uint64_t)(s->capruns - 1));; i = (i + 1) & (s->capruns - 1)) {
      if (!s->runs[i].first) break;
      if (s->runs[i].hash == h && s->runs[i].n == n &&
          !memcmp(s->rows + s->runs[i].first - 1, rows, (size_t)n * sizeof *rows))
        return s->runs[i].first - 1;
    }
  }
  if (s->nrows + n > s->caprows) {
    int cap = s->caprows ? s->caprows : 256;
    while (cap < s->nrows + n) cap *= 2;
    int32_t(*v)[4] = realloc(s->rows, (size_t)cap * sizeof *v);
    if (!v) abort();
    s->rows = v;
    s->caprows = cap;
  }
  memcpy(s->rows + s->nrows, rows, (size_t)n * sizeof *rows);
  s->nrows += n;
  /* the run, by content, in a table kept at most half full */
  if (2 * (s->nruns + 1) > s->capruns) {
    int cap = s->capruns ? 2 * s->capruns : 64;
    struct members_run *v = calloc((size_t)cap, sizeof *v);
    if (!v) abort();
    for (int i = 0; i < s->capruns; i++) {
      if (!s->runs[i].first) continue;
      int j = (int)(s->runs[i].hash & (uint64_t)(cap - 1));
      while (v[j].first) j = (j + 1) & (cap - 1);
      v[j] = s->runs[i];
    }
    free(s->runs);
    s->runs = v;
    s->capruns = cap;
  }
  int j = (int)(h & (uint64_t)(s->capruns - 1));
  while (s->runs[j].first) j = (j + 1) & (s->capruns - 1);
  s->runs[j].hash = h;
  s->runs[j].first = s->nrows - n + 1;
  s->runs[j].n = n;
  s->nruns++;
  return s->nrows - n;
}

const char *ptx_sites_members_name(ptx_arena *a, uint64_t module_id) {
  return ptx_printf(a, "__gsan_members_%016llx", (unsigned long long)module_id);
}

char *ptx_sites_members_decl(ptx_arena *a, const ptx_sites *s, uint64_t module_id) {
  if (!s->nrows) return NULL;
  /* at most 12 characters a value: "-2147483648," */
  char *out = ptx_alloc(a, (size_t)s->nrows * 4 * 12 + (size_t)s->nrows + 256);
  char *p = out;
  p += sprintf(p, "\n// gsan member table: %d members of checks whose stubs look them up one by one\n"
                  ".global .align 16 .s32 %s[%d] = {",
               s->nrows, ptx_sites_members_name(a, module_id), 4 * s->nrows);
  for (int i = 0; i < s->nrows; i++)
    p += sprintf(p, "\n%d,%d,%d,%d%s", s->rows[i][0], s->rows[i][1], s->rows[i][2], s->rows[i][3],
                 i + 1 < s->nrows ? "," : "");
  p += sprintf(p, "\n};\n");
  return out;
}
