/* scan_cache.c: answers to questions already asked. Kernels written from one
 * pattern (and templates instantiated alike, and host helpers called more
 * than once) ask the solver the same question about different variables. A
 * question is keyed by its structure, with its variables numbered in order of
 * appearance (kind, width and signedness kept), so the answer and the witness
 * of one serve all: the witness's values are stored in that order and mapped
 * back onto the asking query's own variables. */
#include "scan_solve.h"

#include <stdlib.h>

typedef struct entry {
  char *key;
  size_t len;
  uint32_t hash;
  qres res;
  uint64_t *values; /* by order of appearance */
  size_t nvals;
  struct entry *next;
} entry;

static struct {
  entry **bucket;
  size_t cap, n;
  /* per node id and per variable id: the number given in this key (stamped) */
  uint32_t *node_no, *node_stamp, *var_no, *var_stamp;
  size_t node_cap, var_cap;
  uint32_t stamp;
  unsigned hits;
} C;

unsigned scan_cache_hits(void) { return C.hits; }

static void grow(uint32_t **no, uint32_t **st, size_t *cap, size_t need) {
  if (need <= *cap) return;
  size_t n = *cap ? *cap : 4096;
  while (n < need) n *= 2;
  uint32_t *a = scan_util_alloc(n * sizeof *a), *b = scan_util_alloc(n * sizeof *b);
  if (*cap) {
    memcpy(a, *no, *cap * sizeof *a);
    memcpy(b, *st, *cap * sizeof *b);
  }
  *no = a;
  *st = b;
  *cap = n;
}

typedef struct {
  scan_buf b;
  uint32_t nodes;
  int_vec order; /* variable ids in order of appearance */
} keyer;

static void put(keyer *k, const sx *e) {
  if (C.node_stamp[e->id] == C.stamp) {
    scan_util_buf_add(&k->b, "@%u ", C.node_no[e->id]);
    return;
  }
  switch (e->op) {
  case SX_CONST: scan_util_buf_add(&k->b, "c%u:%llx ", e->w, (unsigned long long)e->k); break;
  case SX_VAR: {
    int v = (int)e->k;
    if (C.var_stamp[v] != C.stamp) {
      C.var_stamp[v] = C.stamp;
      C.var_no[v] = (uint32_t)k->order.n;
      VEC_PUSH(k->order, v);
    }
    scan_var *sv = scan_expr_var_get(v);
    scan_util_buf_add(&k->b, "v%u:%d%c%u ", C.var_no[v], (int)sv->kind, sv->sgn ? 's' : 'u', sv->w);
    break;
  }
  default:
    scan_util_buf_add(&k->b, "(%d:%u ", (int)e->op, e->w);
    if (e->a) put(k, e->a);
    if (e->b) put(k, e->b);
    if (e->c) put(k, e->c);
    scan_util_buf_add(&k->b, ") ");
  }
  C.node_stamp[e->id] = C.stamp;
  C.node_no[e->id] = k->nodes++;
}

static uint32_t hash_of(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* the key of q; order receives its variables in order of appearance */
static void make_key(const scan_query *q, keyer *k) {
  grow(&C.node_no, &C.node_stamp, &C.node_cap, scan_expr_count() + 1);
  grow(&C.var_no, &C.var_stamp, &C.var_cap, scan_expr_var_count() + 1);
  C.stamp++;
  memset(k, 0, sizeof *k);
  scan_util_buf_add(&k->b, "g%d ", (int)q->goal.k);
  const sx *parts[5] = {q->goal.off, q->goal.w, q->goal.size, q->goal.start, q->goal.expr};
  for (int i = 0; i < 5; i++) {
    if (parts[i]) put(k, parts[i]);
    scan_util_buf_add(&k->b, "| ");
  }
  for (int i = 0; i < q->goal.nafter; i++) put(k, q->goal.after[i]);
  scan_util_buf_add(&k->b, "|| ");
  for (size_t i = 0; i < q->conj.n; i++) put(k, q->conj.v[i]);
}

static entry *find(const keyer *k, uint32_t h) {
  if (!C.cap) return NULL;
  for (entry *e = C.bucket[h & (C.cap - 1)]; e; e = e->next)
    if (e->hash == h && e->len == k->b.n && !memcmp(e->key, k->b.s, k->b.n)) return e;
  return NULL;
}

qres scan_cache_decide(scan_query *q, uint64_t *values, qres (*decide)(scan_query *, uint64_t *)) {
  keyer k;
  make_key(q, &k);
  uint32_t h = hash_of(k.b.s, k.b.n);
  entry *e = find(&k, h);
  if (e) {
    for (size_t i = 0; i < e->nvals && i < k.order.n; i++) values[k.order.v[i]] = e->values[i];
    C.hits++;
    return e->res;
  }
  qres res = decide(q, values);
  if (2 * (C.n + 1) > C.cap) {
    size_t ncap = C.cap ? 2 * C.cap : 1024;
    entry **nb = scan_util_alloc(ncap * sizeof *nb);
    for (size_t i = 0; i < C.cap; i++)
      for (entry *x = C.bucket[i], *next; x; x = next) {
        next = x->next;
        x->next = nb[x->hash & (ncap - 1)];
        nb[x->hash & (ncap - 1)] = x;
      }
    C.bucket = nb;
    C.cap = ncap;
  }
  e = scan_util_alloc(sizeof *e);
  e->key = k.b.s;
  e->len = k.b.n;
  e->hash = h;
  e->res = res;
  e->nvals = k.order.n;
  e->values = scan_util_alloc((k.order.n + 1) * sizeof *e->values);
  for (size_t i = 0; i < k.order.n; i++) e->values[i] = values[k.order.v[i]];
  e->next = C.bucket[h & (C.cap - 1)];
  C.bucket[h & (C.cap - 1)] = e;
  C.n++;
  return res;
}

void scan_cache_reset(void) { memset(&C, 0, sizeof C); }
