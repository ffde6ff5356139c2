/* scan_expr.c: the expression trees of the model. Terms are bit-vectors as
 * wide as the C types they stand for, hash-consed (one node per distinct
 * term, so equal terms are equal pointers and caches key on ids), and folded
 * where both sides are constants, with the same semantics Z3 gives them
 * (wrap-around, division by zero as SMT-LIB defines it). Also the symbolic
 * variables the terms range over, with the facts that always hold for them. */
#include "scan_solve.h"

#include <stdlib.h>

static struct {
  const sx **bucket;
  size_t cap, n;
  uint32_t next_id;
} H;

uint64_t scan_expr_mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

int64_t scan_expr_sext_val(uint64_t k, unsigned w) {
  if (w >= 64) return (int64_t)k;
  k &= scan_expr_mask(w);
  return (k >> (w - 1)) & 1 ? (int64_t)(k | ~scan_expr_mask(w)) : (int64_t)k;
}

unsigned scan_expr_count(void) { return H.next_id; }

static uint32_t node_hash(sx_op op, unsigned w, const sx *a, const sx *b, const sx *c, uint64_t k) {
  uint64_t h = (uint64_t)op * 0x9E3779B97F4A7C15ull ^ w;
  h = (h ^ (a ? a->id + 1 : 0)) * 0xff51afd7ed558ccdull;
  h = (h ^ (b ? b->id + 1 : 0)) * 0xc4ceb9fe1a85ec53ull;
  h = (h ^ (c ? c->id + 1 : 0)) * 0xff51afd7ed558ccdull;
  h = (h ^ k) * 0xc4ceb9fe1a85ec53ull;
  return (uint32_t)(h ^ (h >> 32));
}

static unsigned depth_of(const sx *e) { return e ? e->depth : 0; }

static const sx *mk(sx_op op, unsigned w, const sx *a, const sx *b, const sx *c, uint64_t k) {
  unsigned depth = 0;
  if (a) {
    depth = depth_of(a) > depth_of(b) ? depth_of(a) : depth_of(b);
    depth = 1 + (depth > depth_of(c) ? depth : depth_of(c));
    if (depth > SX_MAX_DEPTH)
      return scan_expr_opaque(w, false, (scan_loc){NULL, 0, 0},
                         scan_util_fmt("an expression more than %d operations deep, past what the model follows", SX_MAX_DEPTH));
  }
  if (2 * (H.n + 1) > H.cap) {
    size_t ncap = H.cap ? 2 * H.cap : 4096;
    const sx **nb = scan_util_alloc(ncap * sizeof *nb);
    for (size_t i = 0; i < H.cap; i++)
      for (const sx *e = H.bucket[i], *next; e; e = next) {
        next = e->chain;
        sx *m = (sx *)e;
        m->chain = nb[e->hash & (ncap - 1)];
        nb[e->hash & (ncap - 1)] = m;
      }
    H.bucket = nb;
    H.cap = ncap;
  }
  uint32_t h = node_hash(op, w, a, b, c, k);
  for (const sx *e = H.bucket[h & (H.cap - 1)]; e; e = e->chain)
    if (e->hash == h && e->op == op && e->w == w && e->a == a && e->b == b && e->c == c && e->k == k) return e;
  sx *e = scan_util_alloc(sizeof *e);
  e->op = op;
  e->w = (uint8_t)w;
  e->a = a;
  e->b = b;
  e->c = c;
  e->k = k;
  e->depth = (uint16_t)depth;
  e->hash = h;
  e->id = H.next_id++;
  e->chain = H.bucket[h & (H.cap - 1)];
  H.bucket[h & (H.cap - 1)] = e;
  H.n++;
  return e;
}

const sx *scan_expr_const(unsigned w, uint64_t k) { return mk(SX_CONST, w, NULL, NULL, NULL, k & scan_expr_mask(w)); }
const sx *scan_expr_true(void) { return scan_expr_const(1, 1); }
const sx *scan_expr_false(void) { return scan_expr_const(1, 0); }

bool scan_expr_is_const(const sx *e, uint64_t *k) {
  if (e->op != SX_CONST) return false;
  if (k) *k = e->k;
  return true;
}
bool scan_expr_is_true(const sx *e) { return e->op == SX_CONST && e->w == 1 && e->k == 1; }
bool scan_expr_is_false(const sx *e) { return e->op == SX_CONST && e->w == 1 && e->k == 0; }

const sx *scan_expr_var(int var) {
  scan_var *v = scan_expr_var_get(var);
  return mk(SX_VAR, v->w, NULL, NULL, NULL, (uint64_t)var);
}

static bool commutative(sx_op op) {
  return op == SX_ADD || op == SX_MUL || op == SX_AND || op == SX_OR || op == SX_XOR || op == SX_EQ;
}

static uint64_t fold(sx_op op, unsigned w, uint64_t x, uint64_t y) {
  uint64_t m = scan_expr_mask(w);
  int64_t sx_ = scan_expr_sext_val(x, w), sy = scan_expr_sext_val(y, w);
  switch (op) {
  case SX_ADD: return (x + y) & m;
  case SX_SUB: return (x - y) & m;
  case SX_MUL: return (x * y) & m;
  case SX_UDIV: return y ? x / y : m;
  case SX_UREM: return y ? x % y : x;
  case SX_SDIV:
    if (!sy) return sx_ < 0 ? 1 : m;
    if (sy == -1) return (uint64_t)(-(uint64_t)sx_) & m; /* INT_MIN / -1 wraps */
    return (uint64_t)(sx_ / sy) & m;
  case SX_SREM:
    if (!sy) return x;
    if (sy == -1) return 0;
    return (uint64_t)(sx_ % sy) & m;
  case SX_SHL: return y >= w ? 0 : (x << y) & m;
  case SX_LSHR: return y >= w ? 0 : x >> y;
  case SX_ASHR: return y >= w ? (sx_ < 0 ? m : 0) : (uint64_t)(sx_ >> y) & m;
  case SX_AND: return x & y;
  case SX_OR: return x | y;
  case SX_XOR: return x ^ y;
  case SX_EQ: return x == y;
  case SX_ULT: return x < y;
  case SX_ULE: return x <= y;
  case SX_SLT: return sx_ < sy;
  case SX_SLE: return sx_ <= sy;
  default: abort();
  }
}

static bool is_cmp(sx_op op) { return op >= SX_EQ && op <= SX_SLE; }

const sx *scan_expr_bin(sx_op op, const sx *a, const sx *b) {
  unsigned w = a->w;
  if (a->w != b->w) {
    fprintf(stderr, "gsan scan: internal error: operands of width %u and %u\n", a->w, b->w);
    abort();
  }
  unsigned rw = is_cmp(op) ? 1 : w;
  uint64_t x = 0, y = 0;
  bool ca = scan_expr_is_const(a, &x), cb = scan_expr_is_const(b, &y);
  if (ca && cb) return scan_expr_const(rw, fold(op, w, x, y));
  /* canonical order: a constant second, otherwise by id */
  if (commutative(op) && (ca || (!cb && a->id > b->id))) {
    const sx *t = a;
    a = b;
    b = t;
    bool tc = ca;
    ca = cb;
    cb = tc;
    uint64_t tk = x;
    x = y;
    y = tk;
  }
  uint64_t m = scan_expr_mask(w);
  switch (op) {
  case SX_ADD:
  case SX_OR:
  case SX_XOR:
    if (cb && y == 0) return a;
    if (op == SX_OR && cb && y == m) return b;
    if (op == SX_OR && a == b) return a;
    if (op == SX_XOR && a == b) return scan_expr_const(w, 0);
    /* (x + c1) + c2 */
    if (op == SX_ADD && cb && a->op == SX_ADD && a->b->op == SX_CONST)
      return scan_expr_bin(SX_ADD, a->a, scan_expr_const(w, a->b->k + y));
    break;
  case SX_SUB:
    if (cb && y == 0) return a;
    if (a == b) return scan_expr_const(w, 0);
    if (cb) return scan_expr_bin(SX_ADD, a, scan_expr_const(w, (uint64_t)0 - y));
    break;
  case SX_MUL:
    if (cb && y == 0) return b;
    if (cb && y == 1) return a;
    break;
  case SX_AND:
    if (cb && y == 0) return b;
    if (cb && y == m) return a;
    if (a == b) return a;
    if (w == 1 && ((a->op == SX_NOT && a->a == b) || (b->op == SX_NOT && b->a == a))) return scan_expr_false();
    break;
  case SX_UDIV:
  case SX_SDIV:
    if (cb && y == 1) return a;
    break;
  case SX_UREM:
  case SX_SREM:
    if (cb && y == 1) return scan_expr_const(w, 0);
    break;
  case SX_SHL:
  case SX_LSHR:
  case SX_ASHR:
    if (cb && y == 0) return a;
    break;
  case SX_EQ:
    if (a == b) return scan_expr_true();
    if (w == 1 && cb) return y ? a : scan_expr_not(a);
    break;
  case SX_ULT:
  case SX_SLT:
    if (a == b) return scan_expr_false();
    if (op == SX_ULT && cb && y == 0) return scan_expr_false();
    break;
  case SX_ULE:
  case SX_SLE:
    if (a == b) return scan_expr_true();
    if (op == SX_ULE && ca && x == 0) return scan_expr_true();
    break;
  default:
    break;
  }
  return mk(op, rw, a, b, NULL, 0);
}

const sx *scan_expr_un(sx_op op, const sx *a) {
  uint64_t x;
  if (scan_expr_is_const(a, &x)) return scan_expr_const(a->w, op == SX_NOT ? ~x : (uint64_t)0 - x);
  if (a->op == op) return a->a; /* double negation */
  if (op == SX_NOT && a->w == 1 && a->op == SX_EQ && a->b->w == 1 && a->b->op == SX_CONST)
    return scan_expr_bin(SX_EQ, a->a, scan_expr_const(1, !a->b->k));
  return mk(op, a->w, a, NULL, NULL, 0);
}

const sx *scan_expr_ext(sx_op op, const sx *a, unsigned w) {
  if (a->w == w) return a;
  uint64_t x;
  if (scan_expr_is_const(a, &x)) {
    if (op == SX_SEXT) return scan_expr_const(w, (uint64_t)scan_expr_sext_val(x, a->w));
    return scan_expr_const(w, x);
  }
  if (op == SX_TRUNC) {
    if (w > a->w) abort();
    if ((a->op == SX_ZEXT || a->op == SX_SEXT) && a->a->w == w) return a->a;
    if ((a->op == SX_ZEXT || a->op == SX_SEXT) && a->a->w < w) return scan_expr_ext(a->op, a->a, w);
    if (a->op == SX_TRUNC) return scan_expr_ext(SX_TRUNC, a->a, w);
  } else {
    if (w < a->w) abort();
    if (a->op == SX_ZEXT || (a->op == op)) return scan_expr_ext(a->op, a->a, w);
  }
  return mk(op, w, a, NULL, NULL, 0);
}

const sx *scan_expr_ite(const sx *c, const sx *a, const sx *b) {
  if (scan_expr_is_true(c)) return a;
  if (scan_expr_is_false(c)) return b;
  if (a == b) return a;
  if (a->w == 1 && scan_expr_is_true(a) && scan_expr_is_false(b)) return c;
  if (a->w == 1 && scan_expr_is_false(a) && scan_expr_is_true(b)) return scan_expr_not(c);
  if (c->op == SX_NOT) return scan_expr_ite(c->a, b, a);
  return mk(SX_ITE, a->w, c, a, b, 0);
}

const sx *scan_expr_not(const sx *a) { return scan_expr_un(SX_NOT, a); }

/* does the conjunction a contain the conjunct b? */
static bool has_conjunct(const sx *a, const sx *b) {
  for (int depth = 0; depth < 64; depth++) {
    if (a == b) return true;
    if (a->op != SX_AND || a->w != 1) return false;
    if (a->b == b) return true;
    if (has_conjunct(a->b, b)) return true;
    a = a->a;
  }
  return false;
}

const sx *scan_expr_and(const sx *a, const sx *b) {
  if (scan_expr_is_true(a)) return b;
  if (scan_expr_is_true(b)) return a;
  if (scan_expr_is_false(a) || scan_expr_is_false(b)) return scan_expr_false();
  if (has_conjunct(a, b)) return a;
  if (has_conjunct(b, a)) return b;
  return scan_expr_bin(SX_AND, a, b);
}

/* (r & c) | (r & !c) is r: the join of the two arms of an if */
const sx *scan_expr_or(const sx *a, const sx *b) {
  if (scan_expr_is_false(a)) return b;
  if (scan_expr_is_false(b)) return a;
  if (scan_expr_is_true(a) || scan_expr_is_true(b)) return scan_expr_true();
  if (a == b) return a;
  if (a == scan_expr_not(b)) return scan_expr_true();
  if (has_conjunct(a, b)) return b;
  if (has_conjunct(b, a)) return a;
  if (a->op == SX_AND && b->op == SX_AND && a->w == 1) {
    if (a->a == b->a && a->b == scan_expr_not(b->b)) return a->a;
    if (a->b == b->b && a->a == scan_expr_not(b->a)) return a->b;
    if (a->a == b->a) return scan_expr_and(a->a, scan_expr_or(a->b, b->b));
  }
  return scan_expr_bin(SX_OR, a, b);
}

void scan_expr_conjuncts(const sx *e, sx_vec *out) {
  if (e->op == SX_AND && e->w == 1) {
    scan_expr_conjuncts(e->a, out);
    scan_expr_conjuncts(e->b, out);
    return;
  }
  if (!scan_expr_is_true(e)) VEC_PUSH(*out, e);
}

/* node marks for walks: a node is visited once per epoch */
static struct {
  uint32_t *mark;
  size_t cap;
  uint32_t epoch;
} W;

static bool visit_once(const sx *e) {
  if (e->id >= W.cap) {
    size_t ncap = W.cap ? W.cap : 4096;
    while (ncap <= e->id) ncap *= 2;
    uint32_t *nm = scan_util_alloc(ncap * sizeof *nm);
    if (W.cap) memcpy(nm, W.mark, W.cap * sizeof *nm);
    W.mark = nm;
    W.cap = ncap;
  }
  if (W.mark[e->id] == W.epoch) return false;
  W.mark[e->id] = W.epoch;
  return true;
}

static void vars_rec(const sx *e, int_vec *out, unsigned char *seen) {
  if (!visit_once(e)) return;
  if (e->op == SX_VAR) {
    if (!seen[e->k]) {
      seen[e->k] = 1;
      VEC_PUSH(*out, (int)e->k);
    }
    return;
  }
  if (e->a) vars_rec(e->a, out, seen);
  if (e->b) vars_rec(e->b, out, seen);
  if (e->c) vars_rec(e->c, out, seen);
}

void scan_expr_vars(const sx *e, int_vec *out, unsigned char *seen) {
  W.epoch++;
  vars_rec(e, out, seen);
}

static const char *op_text(sx_op op) {
  switch (op) {
  case SX_ADD: return "+";
  case SX_SUB: return "-";
  case SX_MUL: return "*";
  case SX_UDIV:
  case SX_SDIV: return "/";
  case SX_UREM:
  case SX_SREM: return "%";
  case SX_SHL: return "<<";
  case SX_LSHR:
  case SX_ASHR: return ">>";
  case SX_AND: return "&";
  case SX_OR: return "|";
  case SX_XOR: return "^";
  case SX_EQ: return "==";
  case SX_ULT:
  case SX_SLT: return "<";
  case SX_ULE:
  case SX_SLE: return "<=";
  default: return "?";
  }
}

/* C's precedence levels (lower binds tighter) for the operators printed */
static int prec(const sx *e) {
  while (e->op == SX_ZEXT || e->op == SX_SEXT || e->op == SX_TRUNC) e = e->a;
  switch (e->op) {
  case SX_MUL: case SX_UDIV: case SX_SDIV: case SX_UREM: case SX_SREM: return 5;
  case SX_ADD: case SX_SUB: return 6;
  case SX_SHL: case SX_LSHR: case SX_ASHR: return 7;
  case SX_ULT: case SX_ULE: case SX_SLT: case SX_SLE: return 9;
  case SX_EQ: return 10;
  case SX_AND: return e->w == 1 ? 14 : 11;
  case SX_XOR: return 12;
  case SX_OR: return e->w == 1 ? 15 : 13;
  case SX_ITE: return 16;
  default: return 0;
  }
}

static void print_rec(scan_buf *b, const sx *e, int depth);

/* a child in parentheses where C would bind it otherwise */
static void print_child(scan_buf *b, const sx *parent, const sx *child, bool right, int depth) {
  int pp = prec(parent), pc = prec(child);
  while (child->op == SX_ZEXT || child->op == SX_SEXT || child->op == SX_TRUNC) child = child->a;
  bool assoc = child->op == parent->op && (parent->op == SX_ADD || parent->op == SX_MUL || parent->op == SX_AND || parent->op == SX_OR);
  bool paren = pc > pp || (right && pc == pp && !assoc);
  if (paren) scan_util_buf_add(b, "(");
  print_rec(b, child, depth + 1);
  if (paren) scan_util_buf_add(b, ")");
}

static void print_rec(scan_buf *b, const sx *e, int depth) {
  while (e->op == SX_ZEXT || e->op == SX_SEXT || e->op == SX_TRUNC) e = e->a;
  if (depth > 12) {
    scan_util_buf_add(b, "...");
    return;
  }
  switch (e->op) {
  case SX_CONST: {
    int64_t s = scan_expr_sext_val(e->k, e->w);
    if (e->w == 1) scan_util_buf_add(b, e->k ? "true" : "false");
    else if (s < 0 && s > -(1ll << 20)) scan_util_buf_add(b, "%lld", (long long)s);
    else scan_util_buf_add(b, "%llu", (unsigned long long)e->k);
    return;
  }
  case SX_VAR: scan_util_buf_add(b, "%s", scan_expr_var_get((int)e->k)->name); return;
  case SX_NOT:
  case SX_NEG:
    scan_util_buf_add(b, e->op == SX_NEG ? "-" : e->w == 1 ? "!" : "~");
    if (prec(e->a)) scan_util_buf_add(b, "(");
    print_rec(b, e->a, depth + 1);
    if (prec(e->a)) scan_util_buf_add(b, ")");
    return;
  case SX_ITE:
    print_child(b, e, e->a, false, depth);
    scan_util_buf_add(b, " ? ");
    print_child(b, e, e->b, false, depth);
    scan_util_buf_add(b, " : ");
    print_child(b, e, e->c, true, depth);
    return;
  default: {
    const char *t = e->w == 1 && e->op == SX_AND ? "&&" : e->w == 1 && e->op == SX_OR ? "||" : op_text(e->op);
    int64_t neg = e->op == SX_ADD && e->b->op == SX_CONST ? scan_expr_sext_val(e->b->k, e->w) : 0;
    if (neg < 0 && neg > -(1ll << 20)) {
      /* x + -1 reads x - 1 */
      print_child(b, e, e->a, false, depth);
      scan_util_buf_add(b, " - %lld", (long long)-neg);
      return;
    }
    print_child(b, e, e->a, false, depth);
    scan_util_buf_add(b, " %s ", t);
    print_child(b, e, e->b, true, depth);
  }
  }
}

void scan_expr_print(scan_buf *b, const sx *e) { print_rec(b, e, 0); }

/* ---- variables ---- */
static VEC(scan_var *) vars;

int scan_expr_var_new(scan_vkind k, const char *name, unsigned w, bool sgn, scan_loc loc) {
  scan_var *v = scan_util_alloc(sizeof *v);
  v->kind = k;
  v->name = name;
  v->w = w;
  v->sgn = sgn;
  v->loc = loc;
  v->launch = -1;
  VEC_PUSH(vars, v);
  return (int)vars.n - 1;
}

scan_var *scan_expr_var_get(int id) { return vars.v[id]; }
unsigned scan_expr_var_count(void) { return (unsigned)vars.n; }
void scan_expr_var_fact(int id, const sx *fact) {
  if (!scan_expr_is_true(fact)) VEC_PUSH(vars.v[id]->facts, fact);
}

void scan_expr_var_inv_fact(int id, const sx *fact) {
  if (!scan_expr_is_true(fact)) VEC_PUSH(vars.v[id]->inv_facts, fact);
}

const sx *scan_expr_opaque(unsigned w, bool sgn, scan_loc loc, const char *why) {
  int v = scan_expr_var_new(VK_OPAQUE, "?", w, sgn, loc);
  scan_expr_var_get(v)->why = why;
  return scan_expr_var(v);
}

/* ---- evaluation under an assignment (for witnesses) ---- */
static struct {
  uint64_t *memo;
  uint32_t *stamp;
  size_t cap;
  uint32_t epoch;
} EV;

static uint64_t eval_rec(const sx *e, const uint64_t *vals) {
  if (EV.stamp[e->id] == EV.epoch) return EV.memo[e->id];
  uint64_t r;
  switch (e->op) {
  case SX_CONST: r = e->k; break;
  case SX_VAR: r = vals[e->k] & scan_expr_mask(e->w); break;
  case SX_ITE: r = eval_rec(e->a, vals) ? eval_rec(e->b, vals) : eval_rec(e->c, vals); break;
  case SX_NOT: r = ~eval_rec(e->a, vals) & scan_expr_mask(e->w); break;
  case SX_NEG: r = ((uint64_t)0 - eval_rec(e->a, vals)) & scan_expr_mask(e->w); break;
  case SX_ZEXT: r = eval_rec(e->a, vals); break;
  case SX_SEXT: r = (uint64_t)scan_expr_sext_val(eval_rec(e->a, vals), e->a->w) & scan_expr_mask(e->w); break;
  case SX_TRUNC: r = eval_rec(e->a, vals) & scan_expr_mask(e->w); break;
  default: {
    uint64_t x = eval_rec(e->a, vals), y = eval_rec(e->b, vals);
    r = fold(e->op, e->a->w, x, y);
  }
  }
  EV.stamp[e->id] = EV.epoch;
  EV.memo[e->id] = r;
  return r;
}

uint64_t scan_expr_eval(const sx *e, const uint64_t *values) {
  if (H.next_id > EV.cap) {
    size_t n = EV.cap ? EV.cap : 4096;
    while (n < H.next_id) n *= 2;
    uint64_t *m = scan_util_alloc(n * sizeof *m);
    uint32_t *st = scan_util_alloc(n * sizeof *st);
    if (EV.cap) {
      memcpy(m, EV.memo, EV.cap * sizeof *m);
      memcpy(st, EV.stamp, EV.cap * sizeof *st);
    }
    EV.memo = m;
    EV.stamp = st;
    EV.cap = n;
  }
  EV.epoch++;
  return eval_rec(e, values);
}

void scan_expr_reset(void) {
  memset(&H, 0, sizeof H);
  memset(&W, 0, sizeof W);
  memset(&vars, 0, sizeof vars);
  memset(&EV, 0, sizeof EV);
}
