/* scan_z3.c: the exact decider. Every term becomes a Z3 bit-vector of its
 * C type's width (conditions become Booleans), so a 32-bit index that wraps
 * wraps in the solver too; a satisfying assignment is the witness. Terms are
 * translated once per context (hash-consed ids index the cache). */
#include "scan_solve.h"

#include <stdlib.h>
#include <string.h>

static Z3_context C;
static Z3_ast *cache;
static uint32_t *cache_gen;
static uint32_t gen = 1;
static size_t ncache;
/* The run's budget (--budget): the resource units every question used so
   far, summed. Each context is one question's, so its count at the end is
   what that question used; a question never gets more than what is left. */
static uint64_t spent, ctx_units;
/* The tests of loop invariants (scan_check_implied), and the questions
   asked again with them, draw on a budget of their own, half of --budget
   (the tests stop at a quarter), so that they never take from the
   accesses' questions: on HeCBench, sharing one budget turned findings in
   programs that spend theirs (depixel, floydwarshall2) into unknowns. */
static uint64_t side_spent;
static bool side;

void scan_z3_side(bool on) { side = on; }

static uint64_t *ledger(void) { return side ? &side_spent : &spent; }
static uint64_t ledger_budget(void) { return side ? scan_main_options.budget / 2 : scan_main_options.budget; }

static void on_error(Z3_context c, Z3_error_code e) {
  fprintf(stderr, "gsan scan: internal error: Z3: %s\n", Z3_get_error_msg(c, e));
  exit(2);
}

/* Each question gets a context of its own: in one context that had seen
   thousands of questions, the same question took several times longer (and
   the bit-vector search for wrap-around witnesses varied with the history). */
Z3_context scan_z3_begin(void) {
  Z3_config cfg = Z3_mk_config();
  C = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(C, on_error);
  gen++;
  return C;
}

void scan_z3_end(void) {
  *ledger() += ctx_units;
  ctx_units = 0;
  Z3_del_context(C);
  C = NULL;
}

bool scan_z3_budget_spent(void) { return *ledger() + scan_main_options.rlimit / 64 >= ledger_budget(); }
uint64_t scan_z3_spent(void) { return spent; }
uint64_t scan_z3_side_spent(void) { return side_spent; }

Z3_solver scan_z3_solver(const char *logic, uint64_t rlimit) {
  Z3_solver s;
  if (rlimit > ledger_budget() - *ledger()) rlimit = ledger_budget() - *ledger();
  if (logic && !strcmp(logic, "QF_BV")) {
    /* one-shot questions: simplify, bit-blast, SAT, without the incremental
       core the logic's default solver brings (seen several times slower to
       find the large witnesses of wrap-around) */
    static const char *const steps[] = {"simplify", "propagate-values", "solve-eqs", "bit-blast", "sat"};
    Z3_tactic t = Z3_mk_tactic(C, steps[0]);
    Z3_tactic_inc_ref(C, t);
    for (size_t i = 1; i < sizeof steps / sizeof *steps; i++) {
      Z3_tactic n = Z3_mk_tactic(C, steps[i]);
      Z3_tactic_inc_ref(C, n);
      Z3_tactic both = Z3_tactic_and_then(C, t, n);
      Z3_tactic_inc_ref(C, both);
      Z3_tactic_dec_ref(C, t);
      Z3_tactic_dec_ref(C, n);
      t = both;
    }
    s = Z3_mk_solver_from_tactic(C, t);
    Z3_tactic_dec_ref(C, t);
  } else {
    s = logic ? Z3_mk_solver_for_logic(C, Z3_mk_string_symbol(C, logic)) : Z3_mk_solver(C);
  }
  Z3_solver_inc_ref(C, s);
  Z3_params p = Z3_mk_params(C);
  Z3_params_inc_ref(C, p);
  Z3_params_set_uint(C, p, Z3_mk_string_symbol(C, "rlimit"), (unsigned)(rlimit > 0xffffffffu ? 0xffffffffu : rlimit));
  Z3_params_set_uint(C, p, Z3_mk_string_symbol(C, "timeout"), scan_main_options.timeout_ms);
  Z3_solver_set_params(C, s, p);
  Z3_params_dec_ref(C, p);
  return s;
}

void scan_z3_release(Z3_solver s) {
  Z3_stats st = Z3_solver_get_statistics(C, s);
  Z3_stats_inc_ref(C, st);
  for (unsigned i = 0; i < Z3_stats_size(C, st); i++) {
    if (strcmp(Z3_stats_get_key(C, st, i), "rlimit count")) continue;
    uint64_t n = Z3_stats_is_uint(C, st, i) ? Z3_stats_get_uint_value(C, st, i)
                                            : (uint64_t)Z3_stats_get_double_value(C, st, i);
    if (n > ctx_units) ctx_units = n; /* the context's count: solvers of one context add up in it */
  }
  Z3_stats_dec_ref(C, st);
  Z3_solver_dec_ref(C, s);
}

static Z3_ast enc(const sx *e);

/* a width-1 term as a bit-vector, or a wider one as is */
static Z3_ast bv(const sx *e) {
  Z3_ast t = enc(e);
  if (e->w != 1) return t;
  Z3_sort s1 = Z3_mk_bv_sort(C, 1);
  return Z3_mk_ite(C, t, Z3_mk_unsigned_int64(C, 1, s1), Z3_mk_unsigned_int64(C, 0, s1));
}

static Z3_ast bool_of_bv1(Z3_ast t) { return Z3_mk_eq(C, t, Z3_mk_unsigned_int64(C, 1, Z3_mk_bv_sort(C, 1))); }

static Z3_ast enc_raw(const sx *e) {
  unsigned w = e->w;
  bool logic = w == 1;
  Z3_ast a, b;
  switch (e->op) {
  case SX_CONST: return logic ? (e->k ? Z3_mk_true(C) : Z3_mk_false(C)) : Z3_mk_unsigned_int64(C, e->k, Z3_mk_bv_sort(C, w));
  case SX_VAR: {
    Z3_symbol s = Z3_mk_int_symbol(C, (int)e->k);
    return Z3_mk_const(C, s, logic ? Z3_mk_bool_sort(C) : Z3_mk_bv_sort(C, w));
  }
  case SX_NOT: return logic ? Z3_mk_not(C, enc(e->a)) : Z3_mk_bvnot(C, enc(e->a));
  case SX_NEG: return logic ? enc(e->a) : Z3_mk_bvneg(C, enc(e->a));
  case SX_ZEXT: return Z3_mk_zero_ext(C, w - e->a->w, bv(e->a));
  case SX_SEXT: return Z3_mk_sign_ext(C, w - e->a->w, bv(e->a));
  case SX_TRUNC: {
    Z3_ast t = Z3_mk_extract(C, w - 1, 0, bv(e->a));
    return logic ? bool_of_bv1(t) : t;
  }
  case SX_ITE: return Z3_mk_ite(C, enc(e->a), enc(e->b), enc(e->c));
  case SX_EQ:
    if (e->a->w == 1) return Z3_mk_iff(C, enc(e->a), enc(e->b));
    return Z3_mk_eq(C, enc(e->a), enc(e->b));
  case SX_ULT: return Z3_mk_bvult(C, bv(e->a), bv(e->b));
  case SX_ULE: return Z3_mk_bvule(C, bv(e->a), bv(e->b));
  case SX_SLT: return Z3_mk_bvslt(C, bv(e->a), bv(e->b));
  case SX_SLE: return Z3_mk_bvsle(C, bv(e->a), bv(e->b));
  case SX_AND:
    if (logic) {
      Z3_ast v[2] = {enc(e->a), enc(e->b)};
      return Z3_mk_and(C, 2, v);
    }
    return Z3_mk_bvand(C, enc(e->a), enc(e->b));
  case SX_OR:
    if (logic) {
      Z3_ast v[2] = {enc(e->a), enc(e->b)};
      return Z3_mk_or(C, 2, v);
    }
    return Z3_mk_bvor(C, enc(e->a), enc(e->b));
  case SX_XOR: return logic ? Z3_mk_xor(C, enc(e->a), enc(e->b)) : Z3_mk_bvxor(C, enc(e->a), enc(e->b));
  default: break;
  }
  a = bv(e->a);
  b = bv(e->b);
  Z3_ast r;
  switch (e->op) {
  case SX_ADD: r = Z3_mk_bvadd(C, a, b); break;
  case SX_SUB: r = Z3_mk_bvsub(C, a, b); break;
  case SX_MUL: r = Z3_mk_bvmul(C, a, b); break;
  case SX_UDIV: r = Z3_mk_bvudiv(C, a, b); break;
  case SX_SDIV: r = Z3_mk_bvsdiv(C, a, b); break;
  case SX_UREM: r = Z3_mk_bvurem(C, a, b); break;
  case SX_SREM: r = Z3_mk_bvsrem(C, a, b); break;
  case SX_SHL: r = Z3_mk_bvshl(C, a, b); break;
  case SX_LSHR: r = Z3_mk_bvlshr(C, a, b); break;
  case SX_ASHR: r = Z3_mk_bvashr(C, a, b); break;
  default: abort();
  }
  return logic ? bool_of_bv1(r) : r;
}

static Z3_ast enc(const sx *e) {
  if (e->id >= ncache) {
    size_t n = ncache ? ncache : 4096;
    while (n <= e->id) n *= 2;
    Z3_ast *nc = scan_util_alloc(n * sizeof *nc);
    uint32_t *ng = scan_util_alloc(n * sizeof *ng);
    if (ncache) {
      memcpy(nc, cache, ncache * sizeof *nc);
      memcpy(ng, cache_gen, ncache * sizeof *ng);
    }
    cache = nc;
    cache_gen = ng;
    ncache = n;
  }
  if (cache_gen[e->id] != gen) {
    cache[e->id] = enc_raw(e);
    cache_gen[e->id] = gen;
  }
  return cache[e->id];
}

static Z3_ast mk_or(Z3_ast *v, unsigned n) { return n == 1 ? v[0] : Z3_mk_or(C, n, v); }

/* the goal: out of [0, size) for a width-byte access at off; or, inside the
   array, reaching into another partition: the start of one after it, or below
   its start into one before it (bytes no partition holds are the array's) */
static Z3_ast enc_goal(const scan_goal *g) {
  if (g->k == G_EXPR) return enc(g->expr);
  Z3_ast off = enc(g->off), w = enc(g->w), size = enc(g->size);
  Z3_ast zero = Z3_mk_unsigned_int64(C, 0, Z3_mk_bv_sort(C, 64));
  if (g->k == G_OOB) {
    Z3_ast d[3] = {Z3_mk_bvslt(C, off, zero), Z3_mk_bvugt(C, w, size), Z3_mk_bvugt(C, off, Z3_mk_bvsub(C, size, w))};
    Z3_ast c[2] = {Z3_mk_not(C, Z3_mk_eq(C, w, zero)), mk_or(d, 3)};
    return Z3_mk_and(C, 2, c);
  }
  /* G_PART: inside the array (the allocation check passed) but outside the partition */
  Z3_ast in[3] = {Z3_mk_bvsge(C, off, zero), Z3_mk_bvule(C, w, size), Z3_mk_bvule(C, off, Z3_mk_bvsub(C, size, w))};
  Z3_ast start = enc(g->start), end = Z3_mk_bvadd(C, off, w);
  VEC(Z3_ast) d = {0};
  for (int i = 0; i < g->nafter; i++) {
    Z3_ast q = enc(g->after[i]);
    /* up to the start of a partition after it, or below its start into one before it */
    Z3_ast up[2] = {Z3_mk_bvsgt(C, q, start), Z3_mk_bvsgt(C, end, q)};
    Z3_ast down[3] = {Z3_mk_bvslt(C, q, start), Z3_mk_bvslt(C, off, start), Z3_mk_bvsgt(C, end, q)};
    VEC_PUSH(d, Z3_mk_and(C, 2, up));
    VEC_PUSH(d, Z3_mk_and(C, 3, down));
  }
  if (!d.n) return Z3_mk_false(C);
  Z3_ast all[4] = {in[0], in[1], in[2], mk_or(d.v, (unsigned)d.n)};
  return Z3_mk_and(C, 4, all);
}

qres scan_z3_check(const scan_query *q, uint64_t rlimit, uint64_t *values) {
  if (scan_z3_budget_spent()) return Q_UNKNOWN;
  scan_z3_begin();
  Z3_solver s = scan_z3_solver("QF_BV", rlimit);
  for (size_t i = 0; i < q->conj.n; i++) Z3_solver_assert(C, s, enc(q->conj.v[i]));
  Z3_solver_assert(C, s, enc_goal(&q->goal));
  Z3_lbool r = Z3_solver_check(C, s);
  qres res = r == Z3_L_TRUE ? Q_SAT : r == Z3_L_FALSE ? Q_UNSAT : Q_UNKNOWN;
  if (res == Q_SAT && values) {
    Z3_model m = Z3_solver_get_model(C, s);
    Z3_model_inc_ref(C, m);
    for (size_t i = 0; i < q->vars.n; i++) {
      int v = q->vars.v[i];
      Z3_ast val;
      values[v] = 0;
      if (!Z3_model_eval(C, m, enc(scan_expr_var(v)), true, &val)) continue;
      if (scan_expr_var_get(v)->w == 1) {
        values[v] = Z3_get_bool_value(C, val) == Z3_L_TRUE;
      } else {
        uint64_t u = 0;
        if (Z3_get_numeral_uint64(C, val, &u)) values[v] = u;
      }
    }
    Z3_model_dec_ref(C, m);
  }
  scan_z3_release(s);
  scan_z3_end();
  return res;
}

void scan_z3_reset(void) {
  cache = NULL;
  cache_gen = NULL;
  ncache = 0;
  gen = 1;
  spent = ctx_units = side_spent = 0;
  side = false;
}
