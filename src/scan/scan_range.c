/* scan_range.c: intervals of a query's terms, each read both as signed and
 * as unsigned, narrowed by the query's conjuncts (x < y bounds x above and y
 * below, x == y bounds both) until nothing changes. They decide the easy
 * accesses outright (a constant-size array indexed by bounded ids), and they
 * tell the relaxation (scan_relax.c) which operations cannot wrap. */
#include "scan_solve.h"

typedef __int128 i128;

typedef struct {
  ival s, u;
} both;

struct range_ctx {
  const scan_query *q;
  both *ref;  /* narrowing per node id, from the conjuncts */
  uint32_t *has; /* ref is set when has == the context's mark */
  both *memo;
  uint32_t *stamp;
  uint32_t epoch;
  size_t cap;
  sx_vec atoms;
  bool changed;
};

static i128 smin(unsigned w) { return -((i128)1 << (w - 1)); }
static i128 smax(unsigned w) { return ((i128)1 << (w - 1)) - 1; }
static i128 umax(unsigned w) { return ((i128)1 << w) - 1; }
static ival full_s(unsigned w) { return (ival){smin(w), smax(w)}; }
static ival full_u(unsigned w) { return (ival){0, umax(w)}; }
static i128 mn(i128 a, i128 b) { return a < b ? a : b; }
static i128 mx(i128 a, i128 b) { return a > b ? a : b; }
static ival meet(ival a, ival b) { return (ival){mx(a.lo, b.lo), mn(a.hi, b.hi)}; }
static bool fits(ival v, ival range) { return v.lo >= range.lo && v.hi <= range.hi; }
static ival fit_or(ival v, ival range) { return fits(v, range) ? v : range; }

/* the other reading of the same bits */
static ival s_from_u(ival u, unsigned w) {
  if (u.hi <= smax(w)) return u;
  if (u.lo > smax(w)) return (ival){u.lo - ((i128)1 << w), u.hi - ((i128)1 << w)};
  return full_s(w);
}
static ival u_from_s(ival s, unsigned w) {
  if (s.lo >= 0) return s;
  if (s.hi < 0) return (ival){s.lo + ((i128)1 << w), s.hi + ((i128)1 << w)};
  return full_u(w);
}

static ival mul_iv(ival a, ival b) {
  i128 lim = (i128)1 << 62;
  if (mx(-a.lo, a.hi) > lim || mx(-b.lo, b.hi) > lim) return (ival){-((i128)1 << 126), (i128)1 << 126};
  i128 c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  ival r = {c[0], c[0]};
  for (int i = 1; i < 4; i++) r.lo = mn(r.lo, c[i]), r.hi = mx(r.hi, c[i]);
  return r;
}

/* C division truncates toward zero: monotone in each operand while the
   divisor keeps its sign */
static bool div_iv(ival a, ival b, ival *r) {
  if ((b.lo <= 0 && b.hi >= 0) || b.lo > b.hi || a.lo > a.hi) return false;
  i128 c[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
  *r = (ival){c[0], c[0]};
  for (int i = 1; i < 4; i++) r->lo = mn(r->lo, c[i]), r->hi = mx(r->hi, c[i]);
  return true;
}

static i128 pow2_above(i128 v) {
  i128 p = 1;
  while (p <= v && p < ((i128)1 << 100)) p <<= 1;
  return p - 1;
}

static both get(range_ctx *r, const sx *e);

static both compute(range_ctx *r, const sx *e) {
  unsigned w = e->w;
  both out = {full_s(w), full_u(w)};
  if (w == 1) {
    out.s = (ival){-1, 0};
    out.u = (ival){0, 1};
    if (e->op == SX_CONST) out.u = (ival){(i128)e->k, (i128)e->k}, out.s = (ival){-(i128)e->k, -(i128)e->k};
    return out;
  }
  uint64_t k;
  switch (e->op) {
  case SX_CONST:
    out.u = (ival){(i128)e->k, (i128)e->k};
    out.s = (ival){sx_sext_val(e->k, w), sx_sext_val(e->k, w)};
    return out;
  case SX_VAR: return out;
  default: break;
  }
  both a = e->a ? get(r, e->a) : out, b = e->b ? get(r, e->b) : out;
  ival fs = full_s(w), fu = full_u(w);
  switch (e->op) {
  case SX_ADD:
    out.s = fit_or((ival){a.s.lo + b.s.lo, a.s.hi + b.s.hi}, fs);
    out.u = fit_or((ival){a.u.lo + b.u.lo, a.u.hi + b.u.hi}, fu);
    break;
  case SX_SUB:
    out.s = fit_or((ival){a.s.lo - b.s.hi, a.s.hi - b.s.lo}, fs);
    out.u = fit_or((ival){a.u.lo - b.u.hi, a.u.hi - b.u.lo}, fu);
    break;
  case SX_MUL:
    out.s = fit_or(mul_iv(a.s, b.s), fs);
    out.u = fit_or(mul_iv(a.u, b.u), fu);
    break;
  case SX_NEG: out.s = fit_or((ival){-a.s.hi, -a.s.lo}, fs); break;
  case SX_NOT:
    out.s = (ival){-a.s.hi - 1, -a.s.lo - 1};
    out.u = (ival){umax(w) - a.u.hi, umax(w) - a.u.lo};
    break;
  case SX_UDIV:
    if (b.u.lo >= 1 && b.u.hi >= b.u.lo) out.u = (ival){a.u.lo / b.u.hi, a.u.hi / b.u.lo};
    break;
  case SX_SDIV: {
    ival q;
    if (div_iv(a.s, b.s, &q)) out.s = fit_or(q, fs);
    break;
  }
  case SX_UREM:
    if (b.u.lo >= 1) out.u = a.u.hi < b.u.lo ? a.u : (ival){0, mn(a.u.hi, b.u.hi - 1)};
    break;
  case SX_SREM: {
    i128 m = mx(b.s.hi, -b.s.lo) - 1;
    if (m < 0) break;
    if (a.s.lo >= 0) out.s = (ival){0, mn(a.s.hi, m)};
    else if (a.s.hi <= 0) out.s = (ival){mx(a.s.lo, -m), 0};
    else out.s = (ival){-m, m};
    break;
  }
  case SX_SHL:
    if (sx_is_const(e->b, &k) && k < w) {
      ival p = {(i128)1 << k, (i128)1 << k};
      out.s = fit_or(mul_iv(a.s, p), fs);
      out.u = fit_or(mul_iv(a.u, p), fu);
    }
    break;
  case SX_LSHR:
    if (sx_is_const(e->b, &k) && k < w) out.u = (ival){a.u.lo >> k, a.u.hi >> k};
    else out.u = (ival){0, a.u.hi};
    break;
  case SX_ASHR:
    if (sx_is_const(e->b, &k) && k < w) out.s = (ival){a.s.lo >> k, a.s.hi >> k};
    break;
  case SX_AND:
    out.u = (ival){0, mn(a.u.hi, b.u.hi)};
    if (a.s.lo >= 0 || b.s.lo >= 0) out.s = (ival){0, a.s.lo >= 0 && b.s.lo >= 0 ? mn(a.s.hi, b.s.hi) : a.s.lo >= 0 ? a.s.hi : b.s.hi};
    break;
  case SX_OR:
  case SX_XOR:
    out.u = (ival){0, pow2_above(mx(a.u.hi, b.u.hi))};
    if (a.s.lo >= 0 && b.s.lo >= 0) out.s = (ival){0, pow2_above(mx(a.s.hi, b.s.hi))};
    break;
  case SX_ZEXT:
    out.u = out.s = a.u;
    break;
  case SX_SEXT:
    out.s = a.s;
    out.u = u_from_s(a.s, w);
    break;
  case SX_TRUNC:
    out.u = fit_or(a.u, fu);
    out.s = fit_or(a.s, fs);
    break;
  case SX_ITE: {
    both c = get(r, e->c);
    out.s = (ival){mn(b.s.lo, c.s.lo), mx(b.s.hi, c.s.hi)};
    out.u = (ival){mn(b.u.lo, c.u.lo), mx(b.u.hi, c.u.hi)};
    /* the condition picks one arm for certain */
    both cond = get(r, e->a);
    if (cond.u.lo == 1) out = b;
    else if (cond.u.hi == 0) out = c;
    break;
  }
  default: break;
  }
  return out;
}

static void ensure(range_ctx *r, unsigned id) {
  if (id < r->cap) return;
  size_t n = r->cap ? r->cap : 1024;
  while (n <= id) n *= 2;
  both *ref = scan_alloc(n * sizeof *ref), *memo = scan_alloc(n * sizeof *memo);
  uint32_t *st = scan_alloc(n * sizeof *st), *has = scan_alloc(n * sizeof *has);
  if (r->cap) {
    memcpy(ref, r->ref, r->cap * sizeof *ref);
    memcpy(memo, r->memo, r->cap * sizeof *memo);
    memcpy(st, r->stamp, r->cap * sizeof *st);
    memcpy(has, r->has, r->cap * sizeof *has);
  }
  r->ref = ref;
  r->has = has;
  r->memo = memo;
  r->stamp = st;
  r->cap = n;
}

static both get(range_ctx *r, const sx *e) {
  ensure(r, e->id);
  if (r->stamp[e->id] == r->epoch) return r->memo[e->id];
  both v = compute(r, e);
  unsigned w = e->w;
  if (w > 1) {
    both *f = &r->ref[e->id];
    if (r->has[e->id]) {
      v.s = meet(v.s, f->s);
      v.u = meet(v.u, f->u);
    }
    v.s = meet(v.s, s_from_u(v.u, w));
    v.u = meet(v.u, u_from_s(v.s, w));
  }
  r->stamp[e->id] = r->epoch;
  r->memo[e->id] = v;
  return v;
}

/* narrows node e's reading (signed or not) to [lo, hi] */
static void narrow(range_ctx *r, const sx *e, bool sgn, i128 lo, i128 hi) {
  if (e->w == 1 || e->op == SX_CONST) return;
  ensure(r, e->id);
  both *f = &r->ref[e->id];
  if (!r->has[e->id]) {
    *f = (both){full_s(e->w), full_u(e->w)};
    r->has[e->id] = 1;
  }
  ival *t = sgn ? &f->s : &f->u;
  if (lo > t->lo) t->lo = lo, r->changed = true;
  if (hi < t->hi) t->hi = hi, r->changed = true;
}

static void use_atom(range_ctx *r, const sx *c, bool pos) {
  if (c->op == SX_NOT && c->w == 1) {
    use_atom(r, c->a, !pos);
    return;
  }
  if (c->op == SX_AND && c->w == 1 && pos) {
    use_atom(r, c->a, true);
    use_atom(r, c->b, true);
    return;
  }
  if (c->op == SX_OR && c->w == 1 && !pos) {
    use_atom(r, c->a, false);
    use_atom(r, c->b, false);
    return;
  }
  bool sgn = c->op == SX_SLT || c->op == SX_SLE;
  bool strict = c->op == SX_SLT || c->op == SX_ULT;
  const sx *a = c->a, *b = c->b;
  if (c->op == SX_EQ && pos && a->w > 1) {
    both x = get(r, a), y = get(r, b);
    narrow(r, a, true, y.s.lo, y.s.hi);
    narrow(r, a, false, y.u.lo, y.u.hi);
    narrow(r, b, true, x.s.lo, x.s.hi);
    narrow(r, b, false, x.u.lo, x.u.hi);
    return;
  }
  if (c->op != SX_SLT && c->op != SX_SLE && c->op != SX_ULT && c->op != SX_ULE) return;
  if (!pos) {
    /* !(a < b) is b <= a; !(a <= b) is b < a */
    const sx *t = a;
    a = b;
    b = t;
    strict = !strict;
  }
  both x = get(r, a), y = get(r, b);
  ival xa = sgn ? x.s : x.u, yb = sgn ? y.s : y.u;
  i128 d = strict ? 1 : 0;
  narrow(r, a, sgn, sgn ? smin(a->w) : 0, yb.hi - d);
  narrow(r, b, sgn, xa.lo + d, sgn ? smax(b->w) : umax(b->w));
}

range_ctx *range_new(const scan_query *q) {
  range_ctx *r = scan_alloc(sizeof *r);
  r->q = q;
  for (size_t i = 0; i < q->conj.n; i++) VEC_PUSH(r->atoms, q->conj.v[i]);
  for (int round = 0; round < 12; round++) {
    r->changed = false;
    r->epoch++;
    for (size_t i = 0; i < r->atoms.n; i++) use_atom(r, r->atoms.v[i], true);
    if (!r->changed) break;
  }
  r->epoch++;
  return r;
}

ival range_s(range_ctx *r, const sx *e) { return get(r, e).s; }
ival range_u(range_ctx *r, const sx *e) { return get(r, e).u; }

bool range_safe(range_ctx *r, const scan_query *q) {
  if (q->goal.k != G_OOB) return false;
  ival off = range_s(r, q->goal.off), w = range_u(r, q->goal.w), size = range_u(r, q->goal.size);
  if (off.lo > off.hi || size.lo > size.hi) return true; /* the conjuncts contradict each other */
  return off.lo >= 0 && off.hi + w.hi <= size.lo;
}
