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

/* Tables per node id, shared by the contexts: only the newest context is in
   use at any time (a query's deciders run one after the other), and stamps
   say which entries are its own, so nothing is cleared or reallocated per
   query. */
static struct {
  both *ref;        /* narrowing from the conjuncts */
  uint32_t *owner;  /* the context whose narrowing ref is */
  both *memo;
  uint32_t *stamp;  /* the round memo was computed in */
  size_t cap;
  uint32_t serial, round;
} N;

struct range_ctx {
  const scan_query *q;
  uint32_t serial;
  uint32_t epoch;
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
    out.s = (ival){scan_expr_sext_val(e->k, w), scan_expr_sext_val(e->k, w)};
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
    if (scan_expr_is_const(e->b, &k) && k < w) {
      ival p = {(i128)1 << k, (i128)1 << k};
      out.s = fit_or(mul_iv(a.s, p), fs);
      out.u = fit_or(mul_iv(a.u, p), fu);
    }
    break;
  case SX_LSHR:
    if (scan_expr_is_const(e->b, &k) && k < w) out.u = (ival){a.u.lo >> k, a.u.hi >> k};
    else out.u = (ival){0, a.u.hi};
    break;
  case SX_ASHR:
    if (scan_expr_is_const(e->b, &k) && k < w) out.s = (ival){a.s.lo >> k, a.s.hi >> k};
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

static void ensure(unsigned id) {
  if (id < N.cap) return;
  size_t n = N.cap ? N.cap : 4096;
  while (n <= id) n *= 2;
  both *ref = scan_util_alloc(n * sizeof *ref), *memo = scan_util_alloc(n * sizeof *memo);
  uint32_t *st = scan_util_alloc(n * sizeof *st), *own = scan_util_alloc(n * sizeof *own);
  if (N.cap) {
    memcpy(ref, N.ref, N.cap * sizeof *ref);
    memcpy(memo, N.memo, N.cap * sizeof *memo);
    memcpy(st, N.stamp, N.cap * sizeof *st);
    memcpy(own, N.owner, N.cap * sizeof *own);
  }
  N.ref = ref;
  N.owner = own;
  N.memo = memo;
  N.stamp = st;
  N.cap = n;
}

static both get(range_ctx *r, const sx *e) {
  ensure(e->id);
  if (N.stamp[e->id] == r->epoch) return N.memo[e->id];
  both v = compute(r, e);
  unsigned w = e->w;
  if (w > 1) {
    both *f = &N.ref[e->id];
    if (N.owner[e->id] == r->serial) {
      v.s = meet(v.s, f->s);
      v.u = meet(v.u, f->u);
    }
    v.s = meet(v.s, s_from_u(v.u, w));
    v.u = meet(v.u, u_from_s(v.s, w));
  }
  N.stamp[e->id] = r->epoch;
  N.memo[e->id] = v;
  return v;
}

static void narrow(range_ctx *r, const sx *e, bool sgn, i128 lo, i128 hi, int depth);

/* what a bound on e says about its operands, where the operation can be
   undone exactly: a + b = e means a = e - b wherever that difference stays
   in a's range (wrapped or not, the bits agree); a * c = e only where the
   product cannot wrap; a / c = e puts a within c of e * c */
static void narrow_down(range_ctx *r, const sx *e, bool sgn, ival v, int depth) {
  if (depth > 24 || e->w == 1) return;
  unsigned w = e->w;
  uint64_t k;
  ival lim = sgn ? full_s(w) : full_u(w);
  switch (e->op) {
  case SX_ADD:
  case SX_SUB: {
    both a = get(r, e->a), b = get(r, e->b);
    ival av = sgn ? a.s : a.u, bv = sgn ? b.s : b.u;
    if (e->op == SX_ADD) {
      ival na = {v.lo - bv.hi, v.hi - bv.lo}, nb = {v.lo - av.hi, v.hi - av.lo};
      if (fits(na, lim)) narrow(r, e->a, sgn, na.lo, na.hi, depth + 1);
      if (fits(nb, lim)) narrow(r, e->b, sgn, nb.lo, nb.hi, depth + 1);
    } else {
      ival na = {v.lo + bv.lo, v.hi + bv.hi}, nb = {av.lo - v.hi, av.hi - v.lo};
      if (fits(na, lim)) narrow(r, e->a, sgn, na.lo, na.hi, depth + 1);
      if (fits(nb, lim)) narrow(r, e->b, sgn, nb.lo, nb.hi, depth + 1);
    }
    break;
  }
  case SX_MUL:
  case SX_SHL: {
    if (!scan_expr_is_const(e->b, &k)) break;
    i128 c = e->op == SX_SHL ? (k < w ? (i128)1 << k : 0) : sgn ? scan_expr_sext_val(k, w) : (i128)k;
    both a = get(r, e->a);
    ival av = sgn ? a.s : a.u;
    if (c < 1 || !fits(mul_iv(av, (ival){c, c}), lim)) break;
    /* ceiling and floor of v / c */
    i128 lo = v.lo >= 0 ? (v.lo + c - 1) / c : -((-v.lo) / c), hi = v.hi >= 0 ? v.hi / c : -((-v.hi + c - 1) / c);
    narrow(r, e->a, sgn, lo, hi, depth + 1);
    break;
  }
  case SX_SDIV:
  case SX_UDIV: {
    if (!scan_expr_is_const(e->b, &k) || (e->op == SX_SDIV) != sgn) break;
    i128 c = sgn ? scan_expr_sext_val(k, w) : (i128)k;
    if (c < 1) break;
    /* division truncates toward zero */
    i128 lo = v.lo > 0 ? v.lo * c : v.lo * c - (c - 1), hi = v.hi >= 0 ? v.hi * c + (c - 1) : v.hi * c;
    narrow(r, e->a, sgn, lo, hi, depth + 1);
    break;
  }
  case SX_SEXT:
    if (sgn) narrow(r, e->a, true, v.lo, v.hi, depth + 1);
    else if (v.hi <= smax(e->a->w)) narrow(r, e->a, true, v.lo, v.hi, depth + 1);
    break;
  case SX_ZEXT:
    if (!sgn || v.lo >= 0) narrow(r, e->a, false, v.lo, v.hi, depth + 1);
    break;
  default: break;
  }
}

/* narrows node e's reading (signed or not) to [lo, hi] */
static void narrow(range_ctx *r, const sx *e, bool sgn, i128 lo, i128 hi, int depth) {
  if (e->w == 1 || e->op == SX_CONST) return;
  ensure(e->id);
  both *f = &N.ref[e->id];
  if (N.owner[e->id] != r->serial) {
    *f = (both){full_s(e->w), full_u(e->w)};
    N.owner[e->id] = r->serial;
  }
  ival *t = sgn ? &f->s : &f->u;
  bool changed = false;
  if (lo > t->lo) t->lo = lo, changed = true;
  if (hi < t->hi) t->hi = hi, changed = true;
  if (!changed) return;
  r->changed = true;
  /* the node's memo is stale now; and so are its operands' */
  N.stamp[e->id] = 0;
  narrow_down(r, e, sgn, *t, depth);
}

/* a comparison the intervals already decide against */
static bool refuted(range_ctx *r, const sx *c, bool pos) {
  if (c->op == SX_NOT && c->w == 1) return refuted(r, c->a, !pos);
  bool sgn = c->op == SX_SLT || c->op == SX_SLE;
  if (c->op != SX_SLT && c->op != SX_SLE && c->op != SX_ULT && c->op != SX_ULE) return false;
  both x = get(r, c->a), y = get(r, c->b);
  ival a = sgn ? x.s : x.u, b = sgn ? y.s : y.u;
  bool strict = c->op == SX_SLT || c->op == SX_ULT;
  if (pos) return strict ? a.lo >= b.hi : a.lo > b.hi; /* a < b cannot hold */
  return strict ? a.hi < b.lo : a.hi <= b.lo;          /* b <= a cannot hold */
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
  /* a disjunction whose other side the intervals refute */
  if ((c->op == SX_OR && pos) || (c->op == SX_AND && !pos)) {
    if (refuted(r, c->a, pos)) use_atom(r, c->b, pos);
    else if (refuted(r, c->b, pos)) use_atom(r, c->a, pos);
    return;
  }
  bool sgn = c->op == SX_SLT || c->op == SX_SLE;
  bool strict = c->op == SX_SLT || c->op == SX_ULT;
  const sx *a = c->a, *b = c->b;
  if (c->op == SX_EQ && pos && a->w > 1) {
    both x = get(r, a), y = get(r, b);
    narrow(r, a, true, y.s.lo, y.s.hi, 0);
    narrow(r, a, false, y.u.lo, y.u.hi, 0);
    narrow(r, b, true, x.s.lo, x.s.hi, 0);
    narrow(r, b, false, x.u.lo, x.u.hi, 0);
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
  narrow(r, a, sgn, sgn ? smin(a->w) : 0, yb.hi - d, 0);
  narrow(r, b, sgn, xa.lo + d, sgn ? smax(b->w) : umax(b->w), 0);
}

range_ctx *scan_range_new(const scan_query *q) {
  range_ctx *r = scan_util_alloc(sizeof *r);
  r->q = q;
  r->serial = ++N.serial;
  for (size_t i = 0; i < q->conj.n; i++) VEC_PUSH(r->atoms, q->conj.v[i]);
  for (int round = 0; round < 12; round++) {
    r->changed = false;
    r->epoch = ++N.round;
    for (size_t i = 0; i < r->atoms.n; i++) use_atom(r, r->atoms.v[i], true);
    if (!r->changed) break;
  }
  r->epoch = ++N.round;
  return r;
}

ival scan_range_s(range_ctx *r, const sx *e) { return get(r, e).s; }
ival scan_range_u(range_ctx *r, const sx *e) { return get(r, e).u; }

bool scan_range_safe(range_ctx *r, const scan_query *q) {
  if (q->goal.k != G_OOB) return false;
  ival off = scan_range_s(r, q->goal.off), w = scan_range_u(r, q->goal.w), size = scan_range_u(r, q->goal.size);
  if (off.lo > off.hi || size.lo > size.hi) return true; /* the conjuncts contradict each other */
  return off.lo >= 0 && off.hi + w.hi <= size.lo;
}

void scan_range_reset(void) { memset(&N, 0, sizeof N); }
