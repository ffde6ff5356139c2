/* scan_env.c: variable bindings for the interpreter, keyed by (frame,
 * declaration). One table holds every frame on the call stack, so a pointer
 * to a caller's variable (cudaMalloc(&d, ...) in a helper) writes where the
 * caller reads. Tables are copied when a path forks and joined after. */
#include "scan_interp.h"

#include <stdlib.h>

typedef struct {
  unsigned frame, hash;
  unsigned seq; /* order of first binding: joins go in this order, so the
                   terms they make (and their ids) do not depend on addresses */
  bool used, dead;
  CXCursor decl;
  val v;
} slot;

struct env {
  slot *s;
  unsigned cap, n;
};

env *scan_env_new(void) {
  env *e = scan_util_alloc(sizeof *e);
  e->cap = 32;
  e->s = scan_util_alloc(e->cap * sizeof *e->s);
  return e;
}

/* slots copied so far, over the run: a fork's cost is its table's size */
static unsigned long copied;
unsigned long scan_env_copied(void) { return copied; }

env *scan_env_copy(const env *e) {
  copied += e->cap;
  env *c = scan_util_alloc(sizeof *c);
  *c = *e;
  c->s = scan_util_alloc(e->cap * sizeof *c->s);
  memcpy(c->s, e->s, e->cap * sizeof *c->s);
  return c;
}

static unsigned key_hash(unsigned frame, CXCursor d) { return clang_hashCursor(d) * 2654435761u ^ frame * 40503u; }

static slot *find(env *e, unsigned frame, CXCursor d, unsigned h) {
  for (unsigned i = h & (e->cap - 1);; i = (i + 1) & (e->cap - 1)) {
    slot *s = &e->s[i];
    if (!s->used) return s;
    if (s->hash == h && s->frame == frame && clang_equalCursors(s->decl, d)) return s;
  }
}

val *scan_env_get(env *e, unsigned frame, CXCursor d) {
  slot *s = find(e, frame, d, key_hash(frame, d));
  return s->used && !s->dead ? &s->v : NULL;
}

static void grow(env *e) {
  slot *old = e->s;
  unsigned ocap = e->cap;
  e->cap *= 2;
  e->s = scan_util_alloc(e->cap * sizeof *e->s);
  e->n = 0;
  for (unsigned i = 0; i < ocap; i++)
    if (old[i].used && !old[i].dead) {
      *find(e, old[i].frame, old[i].decl, old[i].hash) = old[i];
      e->n++;
    }
}

void scan_env_put(env *e, unsigned frame, CXCursor d, val v) {
  if (2 * (e->n + 1) > e->cap) grow(e);
  unsigned h = key_hash(frame, d);
  slot *s = find(e, frame, d, h);
  static unsigned seq;
  if (!s->used) {
    e->n++;
    s->seq = ++seq;
  }
  s->used = true;
  s->dead = false;
  s->frame = frame;
  s->hash = h;
  s->decl = d;
  s->v = v;
}

static int by_seq(const void *x, const void *y) {
  unsigned a = (*(slot *const *)x)->seq, b = (*(slot *const *)y)->seq;
  return a < b ? -1 : a > b;
}

env *scan_env_merge(const sx *c, env *a, env *b, scan_loc at) {
  if (scan_expr_is_true(c)) return a;
  if (scan_expr_is_false(c)) return b;
  env *r = scan_env_copy(a);
  slot **live = scan_util_alloc((b->n + 1) * sizeof *live);
  size_t n = 0;
  for (unsigned i = 0; i < b->cap; i++)
    if (b->s[i].used && !b->s[i].dead) live[n++] = &b->s[i];
  qsort(live, n, sizeof *live, by_seq);
  for (size_t i = 0; i < n; i++) {
    slot *s = live[i];
    val *va = scan_env_get(r, s->frame, s->decl);
    if (!va) scan_env_put(r, s->frame, s->decl, s->v);
    else if (!scan_eval_val_same(*va, s->v)) *va = scan_eval_val_merge(c, *va, s->v, at);
  }
  return r;
}

void scan_env_drop(env *e, unsigned frame) {
  for (unsigned i = 0; i < e->cap; i++)
    if (e->s[i].used && e->s[i].frame == frame) e->s[i].dead = true;
}
