/* scan_relax.c: a sound shortcut for proving accesses safe. Bit-vector
 * solvers prove "row < N and col < N imply row * N + col < N * N" slowly (a
 * multiplier circuit each side), real arithmetic does it at once. So where
 * the intervals show an operation cannot wrap, the term is translated to the
 * mathematical integer it equals, and the integers are relaxed to reals
 * (strict comparisons tightened first: a < b is a + 1 <= b between integers).
 * Divisions, remainders, shifts and masks by constants become the bounds that
 * define them; anything else becomes a fresh value within its interval. If
 * that over-approximation has no solution, neither has the exact query. A
 * satisfiable relaxation proves nothing: the bit-vector decider runs then. */
#include "scan_solve.h"

typedef __int128 i128;
enum { S = 0, U = 1 };

static struct {
  Z3_ast *memo[2];
  uint32_t *stamp[2];
  size_t cap;
  uint32_t epoch;
} X;

typedef struct {
  range_ctx *r;
  Z3_context C;
  Z3_solver s;
  Z3_sort real;
  int fresh;
} rx;

static Z3_ast num(rx *x, i128 v) {
  char buf[64], *p = buf + sizeof buf - 1;
  *p = 0;
  bool neg = v < 0;
  unsigned __int128 m = neg ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  do {
    *--p = (char)('0' + (int)(m % 10));
    m /= 10;
  } while (m);
  if (neg) *--p = '-';
  return Z3_mk_numeral(x->C, p, x->real);
}

/* a Z3 n-ary term of two operands */
static Z3_ast two(rx *x, Z3_ast (*mk)(Z3_context, unsigned, Z3_ast const[]), Z3_ast a, Z3_ast b) {
  Z3_ast v[2] = {a, b};
  return mk(x->C, 2, v);
}
static Z3_ast add(rx *x, Z3_ast a, Z3_ast b) { return two(x, Z3_mk_add, a, b); }
static Z3_ast mul(rx *x, Z3_ast a, Z3_ast b) { return two(x, Z3_mk_mul, a, b); }
static Z3_ast sub(rx *x, Z3_ast a, Z3_ast b) { return two(x, Z3_mk_sub, a, b); }
static Z3_ast and2(rx *x, Z3_ast a, Z3_ast b) { return two(x, Z3_mk_and, a, b); }
static Z3_ast or2(rx *x, Z3_ast a, Z3_ast b) { return two(x, Z3_mk_or, a, b); }
/* a < b between integers */
static Z3_ast lt(rx *x, Z3_ast a, Z3_ast b) { return Z3_mk_le(x->C, add(x, a, num(x, 1)), b); }
static Z3_ast le(rx *x, Z3_ast a, Z3_ast b) { return Z3_mk_le(x->C, a, b); }

static ival iv(rx *x, const sx *e, int in) { return in == S ? scan_range_s(x->r, e) : scan_range_u(x->r, e); }

/* a fresh real within [lo, hi] */
static Z3_ast fresh(rx *x, ival b) {
  Z3_ast v = Z3_mk_const(x->C, Z3_mk_string_symbol(x->C, scan_util_fmt("f%d", x->fresh++)), x->real);
  if (b.lo <= b.hi) {
    Z3_solver_assert(x->C, x->s, le(x, num(x, b.lo), v));
    Z3_solver_assert(x->C, x->s, le(x, v, num(x, b.hi)));
  }
  return v;
}

static bool fits(ival v, unsigned w, int in) {
  i128 lo = in == S ? -((i128)1 << (w - 1)) : 0, hi = in == S ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
  return v.lo >= lo && v.hi <= hi;
}

static Z3_ast T(rx *x, const sx *e, int in);
static Z3_ast B(rx *x, const sx *e);

/* q = floor(a / c) for a >= 0 or any a (floor is what >> does): c*q <= a <= c*q + c - 1 */
static Z3_ast floor_div(rx *x, Z3_ast a, i128 c, ival qr) {
  Z3_ast q = fresh(x, qr);
  Z3_ast cq = mul(x, num(x, c), q);
  Z3_solver_assert(x->C, x->s, le(x, cq, a));
  Z3_solver_assert(x->C, x->s, le(x, a, add(x, cq, num(x, c - 1))));
  return q;
}

static Z3_ast T_raw(rx *x, const sx *e, int in) {
  unsigned w = e->w;
  ival me = iv(x, e, in);
  uint64_t k;
  switch (e->op) {
  case SX_CONST: return num(x, in == S ? (i128)scan_expr_sext_val(e->k, w) : (i128)e->k);
  case SX_VAR: {
    scan_var *v = scan_expr_var_get((int)e->k);
    /* the real is the variable's natural reading; the other reading is the
       same number where it fits */
    int nat = v->sgn ? S : U;
    ival nv = iv(x, e, nat);
    if (nat != in && !fits(nv, w, in)) return fresh(x, me);
    Z3_ast c = Z3_mk_const(x->C, Z3_mk_int_symbol(x->C, (int)e->k), x->real);
    Z3_solver_assert(x->C, x->s, le(x, num(x, nv.lo), c));
    Z3_solver_assert(x->C, x->s, le(x, c, num(x, nv.hi)));
    return c;
  }
  case SX_ADD:
  case SX_SUB:
  case SX_MUL: {
    ival a = iv(x, e->a, in), b = iv(x, e->b, in), m;
    if (e->op == SX_ADD) m = (ival){a.lo + b.lo, a.hi + b.hi};
    else if (e->op == SX_SUB) m = (ival){a.lo - b.hi, a.hi - b.lo};
    else {
      i128 lim = (i128)1 << 62;
      if (a.lo < -lim || a.hi > lim || b.lo < -lim || b.hi > lim) return fresh(x, me);
      i128 c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      m = (ival){c[0], c[0]};
      for (int i = 1; i < 4; i++) m.lo = c[i] < m.lo ? c[i] : m.lo, m.hi = c[i] > m.hi ? c[i] : m.hi;
    }
    if (!fits(m, w, in)) return fresh(x, me);
    Z3_ast ta = T(x, e->a, in), tb = T(x, e->b, in);
    return e->op == SX_ADD ? add(x, ta, tb) : e->op == SX_SUB ? sub(x, ta, tb) : mul(x, ta, tb);
  }
  case SX_NEG:
    if (in == S && fits((ival){-iv(x, e->a, S).hi, -iv(x, e->a, S).lo}, w, S)) return Z3_mk_unary_minus(x->C, T(x, e->a, S));
    return fresh(x, me);
  case SX_UDIV:
  case SX_SDIV:
  case SX_LSHR:
  case SX_ASHR: {
    int din = e->op == SX_UDIV || e->op == SX_LSHR ? U : S;
    if (!scan_expr_is_const(e->b, &k)) return fresh(x, me);
    i128 c = e->op == SX_LSHR || e->op == SX_ASHR ? (k < w ? (i128)1 << k : 0) : (i128)(din == S ? scan_expr_sext_val(k, w) : (i128)k);
    ival a = iv(x, e->a, din);
    /* C's division truncates: the floor only for a non-negative dividend; shifts floor always */
    bool floor_ok = e->op == SX_LSHR || e->op == SX_ASHR || a.lo >= 0;
    if (c < 1 || !floor_ok) return fresh(x, me);
    if (din != in && !fits(iv(x, e, din), w, in)) return fresh(x, me);
    return floor_div(x, T(x, e->a, din), c, iv(x, e, din));
  }
  case SX_UREM:
  case SX_SREM:
  case SX_AND: {
    int din = e->op == SX_SREM ? S : U;
    if (e->op != SX_AND && !scan_expr_is_const(e->b, &k) && iv(x, e->b, din).lo >= 1 && iv(x, e->a, din).lo >= 0 &&
        fits(iv(x, e->a, din), w, in)) {
      /* a % b of a non-negative a by a divisor that is not zero: below the
         divisor, and at most a */
      Z3_ast r = fresh(x, me), ta = T(x, e->a, din), tb = T(x, e->b, din);
      Z3_solver_assert(x->C, x->s, lt(x, r, tb));
      Z3_solver_assert(x->C, x->s, le(x, r, ta));
      return r;
    }
    if (!scan_expr_is_const(e->b, &k)) return fresh(x, me);
    i128 c = e->op == SX_AND ? (i128)k + 1 : din == S ? (i128)scan_expr_sext_val(k, w) : (i128)k;
    bool mask = e->op != SX_AND || (k && !(k & (k + 1)));
    ival a = iv(x, e->a, din);
    if (c < 1 || !mask || a.lo < 0 || !fits(iv(x, e, din), w, in)) return fresh(x, me);
    Z3_ast ta = T(x, e->a, din);
    Z3_ast q = floor_div(x, ta, c, (ival){0, a.hi / c});
    return sub(x, ta, mul(x, num(x, c), q));
  }
  case SX_SHL: {
    if (!scan_expr_is_const(e->b, &k) || k >= w) return fresh(x, me);
    ival a = iv(x, e->a, in);
    i128 p = (i128)1 << k;
    if (!fits((ival){a.lo * p, a.hi * p}, w, in)) return fresh(x, me);
    return mul(x, T(x, e->a, in), num(x, p));
  }
  case SX_ZEXT: return T(x, e->a, U);
  case SX_SEXT:
    if (in == S || iv(x, e->a, S).lo >= 0) return T(x, e->a, S);
    return fresh(x, me);
  case SX_TRUNC:
    if (fits(iv(x, e->a, in), w, in)) return T(x, e->a, in);
    return fresh(x, me);
  case SX_ITE: return Z3_mk_ite(x->C, B(x, e->a), T(x, e->b, in), T(x, e->c, in));
  default: return fresh(x, me);
  }
}

static void ensure(size_t n) {
  if (n <= X.cap) return;
  size_t c = X.cap ? X.cap : 4096;
  while (c < n) c *= 2;
  for (int i = 0; i < 2; i++) {
    Z3_ast *m = scan_util_alloc(c * sizeof *m);
    uint32_t *st = scan_util_alloc(c * sizeof *st);
    if (X.cap) {
      memcpy(m, X.memo[i], X.cap * sizeof *m);
      memcpy(st, X.stamp[i], X.cap * sizeof *st);
    }
    X.memo[i] = m;
    X.stamp[i] = st;
  }
  X.cap = c;
}

static Z3_ast T(rx *x, const sx *e, int in) {
  if (e->w == 1) return Z3_mk_ite(x->C, B(x, e), num(x, 1), num(x, 0));
  /* where both readings are the same number, one term stands for both */
  if (in == U && iv(x, e, S).lo >= 0) in = S;
  ensure((size_t)e->id + 1);
  if (X.stamp[in][e->id] != X.epoch) {
    X.memo[in][e->id] = T_raw(x, e, in);
    X.stamp[in][e->id] = X.epoch;
  }
  return X.memo[in][e->id];
}

/* a comparison between integers, or its negation, with strict sides tightened:
   over the reals !(a <= b) would allow b < a < b + 1 */
static Z3_ast cmp(rx *x, const sx *e, int in, bool pos) {
  Z3_ast a = T(x, e->a, in), b = T(x, e->b, in);
  switch (e->op) {
  case SX_ULT:
  case SX_SLT: return pos ? lt(x, a, b) : le(x, b, a);
  case SX_ULE:
  case SX_SLE: return pos ? le(x, a, b) : lt(x, b, a);
  default: return pos ? Z3_mk_eq(x->C, a, b) : or2(x, lt(x, a, b), lt(x, b, a));
  }
}

static Z3_ast Bp(rx *x, const sx *e, bool pos);

/* negations pushed down to the comparisons, which tighten */
static Z3_ast B_raw(rx *x, const sx *e, bool pos) {
  switch (e->op) {
  case SX_CONST: return (e->k != 0) == pos ? Z3_mk_true(x->C) : Z3_mk_false(x->C);
  case SX_VAR: {
    Z3_ast v = Z3_mk_const(x->C, Z3_mk_int_symbol(x->C, (int)e->k), Z3_mk_bool_sort(x->C));
    return pos ? v : Z3_mk_not(x->C, v);
  }
  case SX_NOT: return Bp(x, e->a, !pos);
  case SX_AND: return pos ? and2(x, Bp(x, e->a, true), Bp(x, e->b, true)) : or2(x, Bp(x, e->a, false), Bp(x, e->b, false));
  case SX_OR: return pos ? or2(x, Bp(x, e->a, true), Bp(x, e->b, true)) : and2(x, Bp(x, e->a, false), Bp(x, e->b, false));
  case SX_XOR: {
    Z3_ast r = Z3_mk_xor(x->C, Bp(x, e->a, true), Bp(x, e->b, true));
    return pos ? r : Z3_mk_not(x->C, r);
  }
  case SX_ITE: return Z3_mk_ite(x->C, Bp(x, e->a, true), Bp(x, e->b, pos), Bp(x, e->c, pos));
  case SX_ULT:
  case SX_ULE: return cmp(x, e, U, pos);
  case SX_SLT:
  case SX_SLE: return cmp(x, e, S, pos);
  case SX_EQ:
    if (e->a->w == 1) {
      Z3_ast r = Z3_mk_iff(x->C, Bp(x, e->a, true), Bp(x, e->b, true));
      return pos ? r : Z3_mk_not(x->C, r);
    }
    /* the same bits: compare in a reading where both sides are exact */
    return cmp(x, e, iv(x, e->a, S).lo >= 0 && iv(x, e->b, S).lo >= 0 ? U : S, pos);
  default: {
    Z3_ast v = Z3_mk_const(x->C, Z3_mk_string_symbol(x->C, scan_util_fmt("g%d", x->fresh++)), Z3_mk_bool_sort(x->C));
    return pos ? v : Z3_mk_not(x->C, v);
  }
  }
}

/* memo: the slot of the signed reading holds a condition, of the unsigned its negation */
static Z3_ast Bp(rx *x, const sx *e, bool pos) {
  ensure((size_t)e->id + 1);
  int slot = pos ? S : U;
  if (X.stamp[slot][e->id] != X.epoch) {
    X.memo[slot][e->id] = B_raw(x, e, pos);
    X.stamp[slot][e->id] = X.epoch;
  }
  return X.memo[slot][e->id];
}

static Z3_ast B(rx *x, const sx *e) { return Bp(x, e, true); }

static Z3_ast goal(rx *x, const scan_goal *g) {
  if (g->k == G_EXPR) return B(x, g->expr);
  Z3_ast off = T(x, g->off, S), w = T(x, g->w, U), size = T(x, g->size, U);
  Z3_ast end = add(x, off, w), zero = num(x, 0);
  if (g->k == G_OOB) return and2(x, le(x, num(x, 1), w), or2(x, lt(x, off, zero), lt(x, size, end)));
  Z3_ast in = and2(x, le(x, zero, off), le(x, end, size));
  Z3_ast start = T(x, g->start, S);
  Z3_ast bad = Z3_mk_false(x->C);
  for (int i = 0; i < g->nafter; i++) {
    Z3_ast q = T(x, g->after[i], S);
    bad = or2(x, bad, and2(x, lt(x, start, q), lt(x, q, end)));
    bad = or2(x, bad, and2(x, and2(x, lt(x, q, start), lt(x, off, start)), lt(x, q, end)));
  }
  return and2(x, in, bad);
}

qres scan_relax_check(range_ctx *r, const scan_query *q, uint64_t rlimit) {
  if (scan_z3_budget_spent()) return Q_UNKNOWN;
  rx x = {r, scan_z3_begin(), NULL, NULL, 0};
  x.real = Z3_mk_real_sort(x.C);
  x.s = scan_z3_solver("QF_NRA", rlimit);
  X.epoch++;
  for (size_t i = 0; i < q->conj.n; i++) Z3_solver_assert(x.C, x.s, B(&x, q->conj.v[i]));
  Z3_solver_assert(x.C, x.s, goal(&x, &q->goal));
  Z3_lbool res = Z3_solver_check(x.C, x.s);
  scan_z3_release(x.s);
  scan_z3_end();
  return res == Z3_L_FALSE ? Q_UNSAT : Q_UNKNOWN;
}

void scan_relax_reset(void) { memset(&X, 0, sizeof X); }
