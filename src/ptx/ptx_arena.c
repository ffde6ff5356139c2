/* Allocation for one module: a chain of large blocks freed together, so the
 * parser and passes never track individual lifetimes. */
#include "ptx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct block { struct block *next; size_t used, cap; } block;
/* blocks grow from 64 KiB to 4 MiB: a small function's arena stays small */
struct ptx_arena { block *head; size_t next; };

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) { fputs("gsan: out of memory\n", stderr); exit(3); }
  return p;
}

ptx_arena *ptx_arena_new(void) {
  ptx_arena *a = xmalloc(sizeof *a);
  a->head = NULL;
  a->next = 64u << 10;
  return a;
}

void ptx_arena_free(ptx_arena *a) {
  if (!a) return;
  for (block *b = a->head, *n; b; b = n) { n = b->next; free(b); }
  free(a);
}

void *ptx_alloc(ptx_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > a->next ? n : a->next;
    if (a->next < (4u << 20)) a->next *= 2;
    b = xmalloc(sizeof(block) + 16 + cap);
    b->used = 0; b->cap = cap; b->next = a->head; a->head = b;
  }
  char *base = (char *)(((uintptr_t)(b + 1) + 15) & ~(uintptr_t)15);
  void *p = base + b->used;
  b->used += n;
  memset(p, 0, n);
  return p;
}

char *ptx_strndup(ptx_arena *a, const char *s, size_t n) {
  char *p = ptx_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* short texts (register names, operands: nearly all) are formatted once,
 * on the stack, and copied; longer ones measured first */
char *ptx_printf(ptx_arena *a, const char *fmt, ...) {
  char small[128];
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  char *p = ptx_alloc(a, (size_t)n + 1);
  if ((size_t)n < sizeof small) memcpy(p, small, (size_t)n + 1);
  else vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

void ptx_vec_push(ptx_vec *v, void *p) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    void **nv = realloc(v->v, (size_t)v->cap * sizeof *nv);
    if (!nv) { fputs("gsan: out of memory\n", stderr); exit(3); }
    v->v = nv;
  }
  v->v[v->n++] = p;
}

void ptx_vec_free(ptx_vec *v) {
  free(v->v);
  v->v = NULL;
  v->n = v->cap = 0;
}
