/* Launch proofs (rt_proof.h): the facts blob checked once, then evaluated
 * at each launch in interval arithmetic on 128-bit integers.
 *
 * A node's interval holds every value it takes in any thread of the launch,
 * as exact integers that agree with the machine's bits modulo 2^bits: add,
 * sub, mul, shl and truncation are exact on such representatives, and an
 * operation that is not modular (min, max, shr, div, rem, and, widening,
 * mul.wide, a comparison) first brings its operands into the range its
 * reading (signed or unsigned) gives them, shifting the whole interval by a
 * multiple of 2^bits, and gives up (unknown) when it is wider than that. A
 * variable's address is carried symbolically (S + interval), allowed only
 * through add and sub, so that a shared array's offsets are known though
 * its place in the window is not. Conditions narrow the nodes they name;
 * an interval narrowed to nothing means no thread of the launch gets there. */
#include "rt_proof.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

#define LIMIT ((i128)1 << 100) /* past this a value is unknown: products stay inside 2^127 */
#define NO_SYM (-1)

/* Facts under the same conditions (the blob lists them one after the
 * other) share one narrowed evaluation, of the nodes that both lead to
 * one of their addresses and depend on a condition's operand: the others
 * keep their plain values. */
typedef struct group {
  unsigned cond0, nconds;
  unsigned first, count; /* the group's nodes: rt_facts.order[first .. first + count) */
} group;

struct rt_facts {
  gsan_facts_header h;
  gsan_fact_node *node;
  gsan_fact_cond *cond;
  gsan_fact *fact;
  unsigned *group_of;    /* per fact: its group, or -1u without conditions */
  group *group;
  unsigned ngroup;
  uint16_t *order;
  unsigned norder;
  uint16_t *words;       /* the parameter words the facts' roots read */
  unsigned nwords;
  rt_facts_read *reads;  /* the parameter bytes the nodes read, each once */
  unsigned nreads;
};

typedef struct iv {
  i128 lo, hi;
  int32_t sym;   /* variable whose address is added in, or NO_SYM */
  uint8_t known; /* 0: any value */
  uint8_t empty; /* no thread gets here */
} iv;

static const iv UNKNOWN = {0, 0, NO_SYM, 0, 0};

static int bits_ok(unsigned b) { return b == 8 || b == 16 || b == 32 || b == 64; }

unsigned rt_facts_count(const rt_facts *f) { return f ? f->h.nfacts : 0; }

void rt_facts_free(rt_facts *f) {
  if (!f) return;
  free(f->node);
  free(f->cond);
  free(f->fact);
  free(f->group_of);
  free(f->group);
  free(f->order);
  free(f->words);
  free(f->reads);
  free(f);
}

unsigned rt_facts_params(const rt_facts *f, const rt_facts_read **reads) {
  *reads = f ? f->reads : NULL;
  return f ? f->nreads : 0;
}

/* the nodes' distinct parameter reads into f->reads; -1 when out of memory */
static int list_reads(rt_facts *f) {
  f->reads = malloc((f->h.nnodes ? f->h.nnodes : 1) * sizeof *f->reads);
  if (!f->reads) return -1;
  for (unsigned i = 0; i < f->h.nnodes; i++) {
    const gsan_fact_node *x = &f->node[i];
    if (x->op != GSAN_FN_PARAM) continue;
    rt_facts_read r = {x->a, (uint16_t)(x->bits / 8), (uint32_t)x->imm};
    unsigned k = 0;
    while (k < f->nreads && memcmp(&f->reads[k], &r, sizeof r)) k++;
    if (k == f->nreads) f->reads[f->nreads++] = r;
  }
  return 0;
}

unsigned rt_facts_words(const rt_facts *f, const uint16_t **words) {
  *words = f ? f->words : NULL;
  return f ? f->nwords : 0;
}

static const char *check_node(const gsan_fact_node *all, unsigned i, unsigned nparams) {
  const gsan_fact_node *x = &all[i];
  if (!bits_ok(x->bits) || x->sgn > 1) return "a node's width or sign is invalid";
  int n = gsan_fact_operands(x->op), unary = n == 1, binary = n == 2;
  switch (x->op) {
  case GSAN_FN_IMM: break;
  case GSAN_FN_PARAM:
    if (x->a >= nparams || x->imm < 0 || x->imm > 4096) return "a node reads a parameter the kernel does not have";
    break;
  case GSAN_FN_SREG:
    if (x->imm < 0 || x->imm >= GSAN_SR_COUNT) return "a node names an unknown special register";
    break;
  case GSAN_FN_SYM:
    if (x->imm < 0 || x->imm > 0xffff) return "a node names an invalid variable";
    break;
  case GSAN_FN_ADD: case GSAN_FN_SUB: case GSAN_FN_MUL: case GSAN_FN_MIN: case GSAN_FN_MAX: break;
  case GSAN_FN_MULWIDE:
    if (x->bits < 16) return "a wide multiply is too narrow";
    break;
  case GSAN_FN_SHL: case GSAN_FN_SHR:
    if (x->imm < 0 || x->imm >= x->bits) return "a node shifts by more than its width";
    break;
  case GSAN_FN_DIV: case GSAN_FN_REM:
    if (x->imm <= 0) return "a node divides by a number that is not positive";
    break;
  case GSAN_FN_AND: case GSAN_FN_OR:
    if (x->imm < 0) return "a node masks with a negative number";
    break;
  case GSAN_FN_CVT: break;
  default: return "a node's operation is unknown";
  }
  if ((unary || binary) && x->a >= i) return "a node's operand is not an earlier node";
  if (binary && x->b >= i) return "a node's operand is not an earlier node";
  /* operands of the widths the operation reads: a value is defined only
   * modulo 2^bits of its own node */
  unsigned want = x->op == GSAN_FN_MULWIDE ? x->bits / 2u : x->bits;
  if (x->op != GSAN_FN_CVT && ((unary && all[x->a].bits != want) || (binary && (all[x->a].bits != want || all[x->b].bits != want))))
    return "a node's operand is of another width";
  return NULL;
}

/* marks node i and every node it is computed from */
static void mark_operands(const rt_facts *f, unsigned i, uint8_t *need) {
  if (need[i]) return;
  need[i] = 1;
  const gsan_fact_node *x = &f->node[i];
  int n = gsan_fact_operands(x->op);
  if (n >= 1) mark_operands(f, x->a, need);
  if (n == 2) mark_operands(f, x->b, need);
}

/* marks node i, and the operands a condition on it can narrow in turn
 * (push_down: through add, sub and or, as deep as push_down goes), as
 * moved by the conditions and evaluated with the group */
static void mark_chain(const rt_facts *f, unsigned i, uint8_t *moved, uint8_t *need, int depth) {
  moved[i] = need[i] = 1;
  const gsan_fact_node *x = &f->node[i];
  if (depth > 8 || (x->op != GSAN_FN_ADD && x->op != GSAN_FN_SUB && x->op != GSAN_FN_OR)) return;
  mark_chain(f, x->a, moved, need, depth + 1);
  if (x->op != GSAN_FN_OR) mark_chain(f, x->b, moved, need, depth + 1);
}

/* the groups of facts under the same conditions, each with the nodes its
 * narrowing changes; and the words the roots read */
static int plan_groups(rt_facts *f) {
  unsigned n = f->h.nnodes, nf = f->h.nfacts;
  f->group_of = malloc((nf ? nf : 1) * sizeof *f->group_of);
  f->group = malloc((nf ? nf : 1) * sizeof *f->group);
  f->words = malloc((nf ? nf : 1) * sizeof *f->words);
  uint8_t *need = malloc(n ? n : 1), *moved = malloc(n ? n : 1);
  int ok = f->group_of && f->group && f->words && need && moved;
  size_t cap = 0;
  for (unsigned i = 0; ok && i < nf; i++) {
    const gsan_fact *x = &f->fact[i];
    if (x->root == GSAN_FR_WORD) {
      unsigned k = 0;
      while (k < f->nwords && f->words[k] != x->word) k++;
      if (k == f->nwords) f->words[f->nwords++] = x->word;
    }
    if (!x->nconds) {
      f->group_of[i] = -1u;
      continue;
    }
    group *g = f->ngroup ? &f->group[f->ngroup - 1] : NULL;
    if (g && g->cond0 == x->cond0 && g->nconds == x->nconds) {
      f->group_of[i] = f->ngroup - 1;
      continue;
    }
    /* a new group: the facts from i on under these conditions */
    memset(need, 0, n);
    memset(moved, 0, n);
    for (unsigned j = i; j < nf && f->fact[j].cond0 == x->cond0 && f->fact[j].nconds == x->nconds; j++)
      mark_operands(f, f->fact[j].addr, need);
    for (unsigned k = x->cond0; k < x->cond0 + x->nconds; k++) {
      mark_chain(f, f->cond[k].a, moved, need, 0);
      mark_chain(f, f->cond[k].b, moved, need, 0);
    }
    g = &f->group[f->ngroup];
    *g = (group){x->cond0, x->nconds, f->norder, 0};
    for (unsigned v = 0; v < n; v++) {
      const gsan_fact_node *y = &f->node[v];
      int k = gsan_fact_operands(y->op);
      if (!moved[v] && k) moved[v] = moved[y->a] || (k == 2 && moved[y->b]);
      if (!moved[v] || !need[v]) continue;
      if (f->norder == cap) {
        cap = cap ? 2 * cap : 64;
        uint16_t *o = realloc(f->order, cap * sizeof *o);
        if (!o) { ok = 0; break; }
        f->order = o;
      }
      f->order[f->norder++] = (uint16_t)v;
      g->count++;
    }
    f->group_of[i] = f->ngroup++;
  }
  free(need);
  free(moved);
  return ok ? 0 : -1;
}

rt_facts *rt_facts_parse(const void *blob, size_t n, unsigned nparams, const char **why) {
  gsan_facts_header h;
  if (!blob || n < sizeof h) { *why = "shorter than its header"; return NULL; }
  memcpy(&h, blob, sizeof h);
  if (h.magic != GSAN_FACTS_MAGIC) { *why = "bad magic"; return NULL; }
  if (h.version != GSAN_ABI_VERSION) { *why = "ABI version differs from this runtime's"; return NULL; }
  if (h.nnodes > GSAN_FACTS_MAX_NODES || h.nconds > GSAN_FACTS_MAX_CONDS || h.nfacts > GSAN_FACTS_MAX_FACTS) {
    *why = "more nodes, conditions or facts than the ABI allows";
    return NULL;
  }
  if (h.nparams != nparams) { *why = "written for a kernel of other parameters"; return NULL; }
  size_t nb = (size_t)h.nnodes * sizeof(gsan_fact_node), cb = (size_t)h.nconds * sizeof(gsan_fact_cond),
         fb = (size_t)h.nfacts * sizeof(gsan_fact);
  if (n != sizeof h + nb + cb + fb) { *why = "its size does not match its counts"; return NULL; }
  rt_facts *f = calloc(1, sizeof *f);
  if (!f) { *why = "out of memory"; return NULL; }
  f->h = h;
  f->node = malloc(nb ? nb : 1);
  f->cond = malloc(cb ? cb : 1);
  f->fact = malloc(fb ? fb : 1);
  if (!f->node || !f->cond || !f->fact) {
    rt_facts_free(f);
    *why = "out of memory";
    return NULL;
  }
  const unsigned char *p = (const unsigned char *)blob + sizeof h;
  memcpy(f->node, p, nb);
  memcpy(f->cond, p + nb, cb);
  memcpy(f->fact, p + nb + cb, fb);
  *why = NULL;
  for (unsigned i = 0; i < h.nnodes && !*why; i++) *why = check_node(f->node, i, nparams);
  for (unsigned i = 0; i < h.nconds && !*why; i++) {
    const gsan_fact_cond *c = &f->cond[i];
    if (c->a >= h.nnodes || c->b >= h.nnodes || c->cmp > GSAN_FC_EQ || c->sgn > 1 || !bits_ok(c->bits) ||
        f->node[c->a].bits != c->bits || f->node[c->b].bits != c->bits)
      *why = "a condition is invalid";
  }
  for (unsigned i = 0; i < h.nfacts && !*why; i++) {
    const gsan_fact *x = &f->fact[i];
    if (x->addr >= h.nnodes || (unsigned)x->cond0 + x->nconds > h.nconds || x->lo > x->hi ||
        (x->root == GSAN_FR_WORD ? x->word >= GSAN_LAUNCH_MAX_BYTES / 8 || f->node[x->addr].bits != 64
                                 : x->root != GSAN_FR_VAR && x->root != GSAN_FR_DYNAMIC))
      *why = "a fact is invalid";
  }
  if (!*why && (plan_groups(f) < 0 || list_reads(f) < 0)) *why = "out of memory";
  if (*why) {
    rt_facts_free(f);
    return NULL;
  }
  return f;
}

/* ---- interval arithmetic ---- */

static i128 pow2(unsigned b) { return (i128)1 << b; }

static iv exact(i128 v) { return (iv){v, v, NO_SYM, 1, 0}; }

static iv range(i128 lo, i128 hi) {
  if (lo < -LIMIT || hi > LIMIT) return UNKNOWN;
  return (iv){lo, hi, NO_SYM, 1, 0};
}

/* v read as a bits-bit integer (signed or not): shifted into that range,
 * 0 when it does not fit there whole */
static int fit(iv *v, unsigned bits, int sgn) {
  if (!v->known || v->sym != NO_SYM) return 0;
  if (v->empty) return 1;
  i128 span = pow2(bits), min = sgn ? -pow2(bits - 1) : 0;
  if (v->hi - v->lo >= span) return 0;
  i128 shift = ((v->lo - min) >> bits) * span; /* floor to a multiple of 2^bits */
  v->lo -= shift;
  v->hi -= shift;
  return v->hi <= min + span - 1;
}

static i128 min2(i128 a, i128 b) { return a < b ? a : b; }
static i128 max2(i128 a, i128 b) { return a > b ? a : b; }

static iv mul(iv a, iv b) {
  i128 p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  i128 lo = p[0], hi = p[0];
  for (int i = 1; i < 4; i++) lo = min2(lo, p[i]), hi = max2(hi, p[i]);
  return range(lo, hi);
}

/* C's division truncates toward zero, which is monotone for d > 0 */
static iv div_by(iv a, i128 d) { return range(a.lo / d, a.hi / d); }

static iv sreg(const rt_proof_launch *l, int64_t code) {
  const unsigned *g = l->grid, *b = l->block;
  switch (code) {
  case GSAN_SR_TID_X: case GSAN_SR_TID_Y: case GSAN_SR_TID_Z:
    return b[code - GSAN_SR_TID_X] ? range(0, (i128)b[code - GSAN_SR_TID_X] - 1) : UNKNOWN;
  case GSAN_SR_NTID_X: case GSAN_SR_NTID_Y: case GSAN_SR_NTID_Z: return exact(b[code - GSAN_SR_NTID_X]);
  case GSAN_SR_CTAID_X: case GSAN_SR_CTAID_Y: case GSAN_SR_CTAID_Z:
    return g[code - GSAN_SR_CTAID_X] ? range(0, (i128)g[code - GSAN_SR_CTAID_X] - 1) : UNKNOWN;
  case GSAN_SR_NCTAID_X: case GSAN_SR_NCTAID_Y: case GSAN_SR_NCTAID_Z: return exact(g[code - GSAN_SR_NCTAID_X]);
  case GSAN_SR_LANEID: return range(0, 31);
  case GSAN_SR_DYNAMIC_SMEM: return exact(l->dynamic_smem);
  default: return UNKNOWN;
  }
}

static iv param(const rt_proof_launch *l, const gsan_fact_node *x) {
  uint64_t v;
  if (!l->param || !l->param(l->ctx, x->a, (uint64_t)x->imm, x->bits / 8u, &v)) return UNKNOWN;
  if (x->bits < 64) v &= (1ull << x->bits) - 1;
  if (x->sgn && x->bits < 64 && (v >> (x->bits - 1) & 1)) return exact((i128)v - pow2(x->bits));
  return exact(x->sgn ? (i128)(int64_t)v : (i128)v);
}

/* the value of node x, its operands' values in a and b */
static iv eval(const rt_proof_launch *l, const gsan_fact_node *x, iv a, iv b) {
  int n = gsan_fact_operands(x->op), unary = n == 1, binary = n == 2;
  if ((unary || binary) && (!a.known || (binary && !b.known))) return UNKNOWN;
  if ((unary || binary) && (a.empty || (binary && b.empty))) return (iv){0, 0, NO_SYM, 1, 1};
  unsigned bits = x->bits, half = bits / 2;
  switch (x->op) {
  case GSAN_FN_IMM: return exact(x->imm);
  case GSAN_FN_PARAM: return param(l, x);
  case GSAN_FN_SREG: return sreg(l, x->imm);
  case GSAN_FN_SYM: return (iv){0, 0, (int32_t)x->imm, 1, 0};
  case GSAN_FN_ADD: {
    if (a.sym != NO_SYM && b.sym != NO_SYM) return UNKNOWN;
    iv r = range(a.lo + b.lo, a.hi + b.hi);
    r.sym = a.sym != NO_SYM ? a.sym : b.sym;
    return r;
  }
  case GSAN_FN_SUB: {
    if (b.sym != NO_SYM && b.sym != a.sym) return UNKNOWN;
    iv r = range(a.lo - b.hi, a.hi - b.lo);
    r.sym = b.sym != NO_SYM ? NO_SYM : a.sym; /* (S + x) - (S + y) = x - y */
    return r;
  }
  case GSAN_FN_MUL:
    /* modular: any representative will do, the signed one keeps products small */
    if (!fit(&a, bits, 1) || !fit(&b, bits, 1)) return UNKNOWN;
    return mul(a, b);
  case GSAN_FN_MULWIDE:
    if (!fit(&a, half, x->sgn) || !fit(&b, half, x->sgn)) return UNKNOWN;
    return mul(a, b);
  case GSAN_FN_SHL:
    if (!fit(&a, bits, 1)) return UNKNOWN;
    return mul(a, exact(pow2((unsigned)x->imm)));
  case GSAN_FN_SHR: {
    if (!fit(&a, bits, x->sgn)) return UNKNOWN;
    i128 d = pow2((unsigned)x->imm);
    /* floor division: exact for an arithmetic shift of a negative value too */
    i128 lo = a.lo >= 0 ? a.lo / d : -((-a.lo + d - 1) / d), hi = a.hi >= 0 ? a.hi / d : -((-a.hi + d - 1) / d);
    return range(lo, hi);
  }
  case GSAN_FN_DIV:
    if (!fit(&a, bits, x->sgn)) return UNKNOWN;
    return div_by(a, x->imm);
  case GSAN_FN_REM:
    if (!fit(&a, bits, x->sgn) || a.lo < 0) return UNKNOWN;
    if (a.hi - a.lo < x->imm && a.lo % x->imm <= a.hi % x->imm) return range(a.lo % x->imm, a.hi % x->imm);
    return range(0, x->imm - 1);
  case GSAN_FN_AND:
    /* 0 <= v & m <= min(v, m) for v read unsigned; exact when v <= m = 2^k - 1 */
    if (!fit(&a, bits, 0)) return UNKNOWN;
    if (a.hi <= x->imm && (((uint64_t)x->imm + 1) & (uint64_t)x->imm) == 0) return a;
    return range(0, min2(a.hi, x->imm));
  case GSAN_FN_OR: {
    /* max(v, m) <= v | m <= v + m for v read unsigned; exactly v + m when
     * v is below m's lowest set bit (lane | 32 for a lane of a warp) */
    if (!fit(&a, bits, 0)) return UNKNOWN;
    i128 m = x->imm, low = (i128)((uint64_t)x->imm & -(uint64_t)x->imm);
    if (!m) return a;
    if (a.hi < low) return range(a.lo + m, a.hi + m);
    return range(max2(a.lo, m), a.hi + m);
  }
  case GSAN_FN_MIN: case GSAN_FN_MAX:
    if (!fit(&a, bits, x->sgn) || !fit(&b, bits, x->sgn)) return UNKNOWN;
    return x->op == GSAN_FN_MIN ? range(min2(a.lo, b.lo), min2(a.hi, b.hi)) : range(max2(a.lo, b.lo), max2(a.hi, b.hi));
  case GSAN_FN_CVT:
    /* truncating is modular; widening reads the operand by sgn */
    return a.known && a.sym == NO_SYM ? a : UNKNOWN;
  default: return UNKNOWN;
  }
}

/* node i from its operands: their narrowed values where stamp says so, their
 * plain ones otherwise (stamp NULL: v is all plain). The CVT node's
 * widening needs its operand's width: checked here. */
static iv eval_node(const rt_facts *f, const rt_proof_launch *l, unsigned i, const iv *plain, const iv *v,
                    const unsigned *stamp, unsigned tag) {
  const gsan_fact_node *x = &f->node[i];
#define OPND(k) (stamp && stamp[k] != tag ? plain[k] : v[k])
  int n = gsan_fact_operands(x->op);
  iv a = n >= 1 ? OPND(x->a) : UNKNOWN, b = n == 2 ? OPND(x->b) : UNKNOWN;
#undef OPND
  if (x->op == GSAN_FN_CVT && f->node[x->a].bits < x->bits && !a.empty && !fit(&a, f->node[x->a].bits, x->sgn))
    return UNKNOWN;
  return eval(l, x, a, b);
}

/* narrows s by "s cmp o" (o's interval given); both read as bits-bit
 * integers, sgn: signed. s stays in the representatives it had (the
 * comparison is made on a shifted copy, and the bounds shifted back), so
 * that the operands it was computed from can be narrowed by it in turn. */
static void narrow(iv *s, iv o, int cmp, unsigned bits, int sgn) {
  iv t = *s;
  /* an operand with no value left: no thread passes these conditions */
  if (o.empty && o.known && s->known) s->empty = 1;
  if (s->empty || o.empty || !fit(&t, bits, sgn) || !fit(&o, bits, sgn)) return;
  i128 shift = s->lo - t.lo, lo = t.lo, hi = t.hi;
  switch (cmp) {
  case GSAN_FC_LT: hi = min2(hi, o.hi - 1); break;
  case GSAN_FC_LE: hi = min2(hi, o.hi); break;
  case GSAN_FC_GT: lo = max2(lo, o.lo + 1); break;
  case GSAN_FC_GE: lo = max2(lo, o.lo); break;
  case GSAN_FC_EQ: lo = max2(lo, o.lo), hi = min2(hi, o.hi); break;
  default: return;
  }
  s->lo = lo + shift;
  s->hi = hi + shift;
  if (lo > hi) s->empty = 1;
}

static int mirror(int cmp) {
  switch (cmp) {
  case GSAN_FC_LT: return GSAN_FC_GT;
  case GSAN_FC_LE: return GSAN_FC_GE;
  case GSAN_FC_GT: return GSAN_FC_LT;
  case GSAN_FC_GE: return GSAN_FC_LE;
  default: return cmp;
  }
}

/* The nodes, in plain values (every thread of the launch). */
static void evaluate_plain(const rt_facts *f, const rt_proof_launch *l, iv *v) {
  for (unsigned i = 0; i < f->h.nnodes; i++) v[i] = eval_node(f, l, i, v, v, NULL, 0);
}

/* v[i] narrowed to r, and what that says of the operand it was computed
 * from by adding a value the launch fixes: a + c, a - c, c + a, c - a,
 * a | m where that is a + m. Representatives are exact, so a + c in [lo, hi]
 * puts a in [lo - c, hi - c] with no question of wrapping. What is learnt
 * is kept in keep[] (stamp kept[k] == tag) for the second pass. */
static void push_down(const rt_facts *f, unsigned i, iv r, const iv *plain, const iv *v, const unsigned *stamp,
                      iv *keep, unsigned *kept, unsigned tag, int depth) {
  if (r.empty || !r.known || r.sym != NO_SYM || depth > 8) return;
  if (kept[i] == tag) {
    const iv *k = &keep[i];
    if (k->empty) return;
    r.lo = max2(r.lo, k->lo);
    r.hi = min2(r.hi, k->hi);
    if (r.lo > r.hi) r.empty = 1;
  }
  keep[i] = r;
  kept[i] = tag;
  if (r.empty) return;
  const gsan_fact_node *x = &f->node[i];
#define VAL(k) (stamp[k] == tag ? v[k] : plain[k])
  if (x->op != GSAN_FN_ADD && x->op != GSAN_FN_SUB && x->op != GSAN_FN_OR) return;
  iv a = VAL(x->a), b = x->op == GSAN_FN_OR ? UNKNOWN : VAL(x->b);
  int a_exact = a.known && !a.empty && a.sym == NO_SYM && a.lo == a.hi;
  int b_exact = b.known && !b.empty && b.sym == NO_SYM && b.lo == b.hi;
  unsigned to;
  i128 lo, hi;
  if (x->op == GSAN_FN_ADD && b_exact) to = x->a, lo = r.lo - b.lo, hi = r.hi - b.lo;
  else if (x->op == GSAN_FN_ADD && a_exact) to = x->b, lo = r.lo - a.lo, hi = r.hi - a.lo;
  else if (x->op == GSAN_FN_SUB && b_exact) to = x->a, lo = r.lo + b.lo, hi = r.hi + b.lo;
  else if (x->op == GSAN_FN_SUB && a_exact) to = x->b, lo = a.lo - r.hi, hi = a.lo - r.lo;
  else if (x->op == GSAN_FN_OR && x->imm > 0 && a.known && !a.empty && a.sym == NO_SYM && a.lo >= 0 &&
           a.hi < (i128)((uint64_t)x->imm & -(uint64_t)x->imm))
    to = x->a, lo = r.lo - x->imm, hi = r.hi - x->imm; /* eval's v + m, v already in [0, low) */
  else return;
  iv n = VAL(to);
#undef VAL
  if (!n.known || n.empty || n.sym != NO_SYM) return;
  n.lo = max2(n.lo, lo);
  n.hi = min2(n.hi, hi);
  if (n.lo > n.hi) n.empty = 1;
  push_down(f, to, n, plain, v, stamp, keep, kept, tag, depth + 1);
}

/* Group g's nodes narrowed by its conditions, into v (plain: the plain
 * values, which the nodes outside the group keep; stamp[i] == tag: v[i]
 * holds node i's narrowed value). A condition's operand not reached yet
 * reads its plain value, which holds every value the narrowed one can.
 * Twice: what a condition says of the operands its subject was computed
 * from (push_down) narrows them, and the nodes computed from them, the
 * second time round. */
static void evaluate_group(const rt_facts *f, const rt_proof_launch *l, const group *g, const iv *plain, iv *v,
                           unsigned *stamp, unsigned tag, iv *keep, unsigned *kept) {
  for (int pass = 0; pass < 2; pass++) {
    for (unsigned k = g->first; k < g->first + g->count; k++) {
      unsigned i = f->order[k];
      v[i] = eval_node(f, l, i, plain, v, stamp, tag);
      if (pass && kept[i] == tag && v[i].known && !v[i].empty && v[i].sym == NO_SYM) {
        const iv *r = &keep[i];
        v[i].lo = max2(v[i].lo, r->lo);
        v[i].hi = min2(v[i].hi, r->hi);
        if (r->empty || v[i].lo > v[i].hi) v[i].empty = 1;
      }
      stamp[i] = tag;
      for (unsigned c = g->cond0; c < g->cond0 + g->nconds; c++) {
        const gsan_fact_cond *x = &f->cond[c];
        if (x->a == i) narrow(&v[i], x->b == i ? v[i] : stamp[x->b] == tag ? v[x->b] : plain[x->b], x->cmp, x->bits, x->sgn);
        if (x->b == i && x->a != i)
          narrow(&v[i], stamp[x->a] == tag ? v[x->a] : plain[x->a], mirror(x->cmp), x->bits, x->sgn);
        if (!pass && (x->a == i || x->b == i)) push_down(f, i, v[i], plain, v, stamp, keep, kept, tag, 0);
      }
    }
  }
}

/* [a + lo, a + hi) inside [base, base + size) for every a in v */
static int inside(iv v, const gsan_fact *x, unsigned bits, i128 base, i128 size) {
  if (v.empty) return 1;
  v.sym = NO_SYM;
  v.lo += x->lo;
  v.hi += x->lo;
  if (!fit(&v, bits, 0)) return 0;
  return v.lo >= base && v.hi + ((i128)x->hi - x->lo) <= base + size;
}

static int fact_holds(const rt_facts *f, const rt_proof_launch *l, const gsan_fact *x, const iv *v) {
  iv a = v[x->addr];
  unsigned bits = f->node[x->addr].bits;
  if (!a.known) return 0;
  if (x->root == GSAN_FR_WORD) {
    uint64_t p, base, size;
    if (a.sym != NO_SYM || !l->word || !l->word(l->ctx, x->word, &p) || !l->bounds ||
        !l->bounds(l->ctx, p, &base, &size))
      return 0;
    return inside(a, x, 64, base, size);
  }
  if (a.sym != (int32_t)x->word && !a.empty) return 0;
  return inside(a, x, bits, 0, x->root == GSAN_FR_DYNAMIC ? (i128)l->dynamic_smem : (i128)x->size);
}

int rt_facts_failing(const rt_facts *f, const rt_proof_launch *l) {
  if (!f || !l) return 0;
  enum { ON_STACK = 128 };
  unsigned n = f->h.nnodes ? f->h.nnodes : 1;
  /* plain, narrowed and kept values, and the stamps of the last two */
  iv small[3 * ON_STACK];
  unsigned small_stamp[2 * ON_STACK];
  iv *plain = n <= ON_STACK ? small : malloc(3 * (size_t)n * sizeof *plain);
  unsigned *stamp = n <= ON_STACK ? small_stamp : malloc(2 * (size_t)n * sizeof *stamp);
  if (!plain || !stamp) {
    if (plain != small) free(plain);
    if (stamp != small_stamp) free(stamp);
    return 0;
  }
  iv *narrowed = plain + n, *keep = plain + 2 * n;
  unsigned *kept = stamp + n;
  memset(stamp, 0, 2 * (size_t)n * sizeof *stamp);
  evaluate_plain(f, l, plain);
  int failing = -1;
  unsigned done = -1u; /* the group narrowed last */
  for (unsigned i = 0; i < f->h.nfacts && failing < 0; i++) {
    unsigned g = f->group_of[i];
    if (g != -1u && g != done) {
      evaluate_group(f, l, &f->group[g], plain, narrowed, stamp, g + 1, keep, kept);
      done = g;
    }
    /* the address: narrowed when the group reached it */
    const iv *v = g != -1u && stamp[f->fact[i].addr] == g + 1 ? narrowed : plain;
    if (!fact_holds(f, l, &f->fact[i], v)) failing = (int)i;
  }
  if (plain != small) free(plain);
  if (stamp != small_stamp) free(stamp);
  return failing;
}

int rt_facts_hold(const rt_facts *f, const rt_proof_launch *l) { return rt_facts_failing(f, l) < 0; }
