/* scan_env.c: variable bindings for the interpreter, keyed by (frame,
 * declaration). One table holds every frame on the call stack, so a pointer
 * to a caller's variable (cudaMalloc(&d, ...) in a helper) writes where the
 * caller reads. Tables are copied when a path forks and joined after. */
#include "scan_interp.h"

typedef struct {
  unsigned frame, hash;
  bool used, dead;
  CXCursor decl;
  val v;
} slot;

struct env {
  slot *s;
  unsigned cap, n;
};

env *env_new(void) {
  env *e = scan_alloc(sizeof *e);
  e->cap = 32;
  e->s = scan_alloc(e->cap * sizeof *e->s);
  return e;
}

env *env_copy(const env *e) {
  env *c = scan_alloc(sizeof *c);
  *c = *e;
  c->s = scan_alloc(e->cap * sizeof *c->s);
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

val *env_get(env *e, unsigned frame, CXCursor d) {
  slot *s = find(e, frame, d, key_hash(frame, d));
  return s->used && !s->dead ? &s->v : NULL;
}

static void grow(env *e) {
  slot *old = e->s;
  unsigned ocap = e->cap;
  e->cap *= 2;
  e->s = scan_alloc(e->cap * sizeof *e->s);
  e->n = 0;
  for (unsigned i = 0; i < ocap; i++)
    if (old[i].used && !old[i].dead) {
      *find(e, old[i].frame, old[i].decl, old[i].hash) = old[i];
      e->n++;
    }
}

void env_put(env *e, unsigned frame, CXCursor d, val v) {
  if (2 * (e->n + 1) > e->cap) grow(e);
  unsigned h = key_hash(frame, d);
  slot *s = find(e, frame, d, h);
  if (!s->used) e->n++;
  s->used = true;
  s->dead = false;
  s->frame = frame;
  s->hash = h;
  s->decl = d;
  s->v = v;
}

void env_each(env *e, env_fn fn, void *arg) {
  for (unsigned i = 0; i < e->cap; i++)
    if (e->s[i].used && !e->s[i].dead) fn(e->s[i].frame, e->s[i].decl, &e->s[i].v, arg);
}

env *env_merge(const sx *c, env *a, env *b, scan_loc at) {
  if (sx_is_true(c)) return a;
  if (sx_is_false(c)) return b;
  env *r = env_copy(a);
  for (unsigned i = 0; i < b->cap; i++) {
    slot *s = &b->s[i];
    if (!s->used || s->dead) continue;
    val *va = env_get(r, s->frame, s->decl);
    if (!va) env_put(r, s->frame, s->decl, s->v);
    else if (!v_same(*va, s->v)) *va = v_merge(c, *va, s->v, at);
  }
  return r;
}

void env_drop(env *e, unsigned frame) {
  for (unsigned i = 0; i < e->cap; i++)
    if (e->s[i].used && e->s[i].frame == frame) e->s[i].dead = true;
}
