/* scan_util.c: memory, strings and locations for gsan-scan. The analyzer is a
 * short-lived process: everything is bump-allocated and freed at exit. */
#include "scan.h"

#include <stdlib.h>

#define CHUNK (1u << 20)

/* chunks are chained from a static head, so leak checkers see them reachable */
static struct {
  char *p;
  size_t left;
  void **chain;
} arena;

static void *chunk(size_t n) {
  void **c = calloc(1, n + 16);
  if (!c) {
    fprintf(stderr, "gsan scan: out of memory\n");
    exit(2);
  }
  c[0] = arena.chain;
  arena.chain = c;
  return (char *)c + 16;
}

void *scan_util_alloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n > CHUNK / 4) return chunk(n);
  if (n > arena.left) {
    arena.p = chunk(CHUNK);
    arena.left = CHUNK;
  }
  void *r = arena.p;
  arena.p += n;
  arena.left -= n;
  return r;
}

void scan_util_alloc_reset(void) {
  for (void **c = arena.chain; c;) {
    void **next = c[0];
    free(c);
    c = next;
  }
  memset(&arena, 0, sizeof arena);
}

char *scan_util_strndup(const char *s, size_t n) {
  char *r = scan_util_alloc(n + 1);
  memcpy(r, s, n);
  return r;
}

char *scan_util_strdup(const char *s) { return scan_util_strndup(s, strlen(s)); }

char *scan_util_vfmt(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *r = scan_util_alloc((size_t)n + 1);
  vsnprintf(r, (size_t)n + 1, fmt, ap);
  return r;
}

char *scan_util_fmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *r = scan_util_vfmt(fmt, ap);
  va_end(ap);
  return r;
}

static struct {
  const char **slot;
  size_t cap, n;
} strs;

static uint32_t str_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

void scan_util_intern_reset(void) { memset(&strs, 0, sizeof strs); }

const char *scan_util_intern_n(const char *s, size_t n) {
  char *c = scan_util_alloc(n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  return scan_util_intern(c);
}

const char *scan_util_intern(const char *s) {
  if (!s) return NULL;
  if (2 * (strs.n + 1) > strs.cap) {
    size_t ncap = strs.cap ? 2 * strs.cap : 1024;
    const char **ns = scan_util_alloc(ncap * sizeof *ns);
    for (size_t i = 0; i < strs.cap; i++)
      if (strs.slot[i]) {
        size_t j = str_hash(strs.slot[i]) & (ncap - 1);
        while (ns[j]) j = (j + 1) & (ncap - 1);
        ns[j] = strs.slot[i];
      }
    strs.slot = ns;
    strs.cap = ncap;
  }
  size_t j = str_hash(s) & (strs.cap - 1);
  while (strs.slot[j]) {
    if (!strcmp(strs.slot[j], s)) return strs.slot[j];
    j = (j + 1) & (strs.cap - 1);
  }
  strs.n++;
  return strs.slot[j] = scan_util_strdup(s);
}

void scan_util_buf_addn(scan_buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t ncap = b->cap ? b->cap : 64;
    while (ncap < b->n + n + 1) ncap *= 2;
    char *ns = scan_util_alloc(ncap);
    if (b->n) memcpy(ns, b->s, b->n);
    b->s = ns;
    b->cap = ncap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

void scan_util_buf_add(scan_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = scan_util_vfmt(fmt, ap);
  va_end(ap);
  scan_util_buf_addn(b, s, strlen(s));
}

int scan_util_loc_cmp(scan_loc a, scan_loc b) {
  if (a.file != b.file) {
    if (!a.file) return -1;
    if (!b.file) return 1;
    int c = strcmp(a.file, b.file);
    if (c) return c;
  }
  if (a.line != b.line) return a.line < b.line ? -1 : 1;
  if (a.col != b.col) return a.col < b.col ? -1 : 1;
  return 0;
}
