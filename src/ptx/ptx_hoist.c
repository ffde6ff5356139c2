/* Loop versioning (CUSAFE §4.4, loop-inductive and loop-invariant checks).
 * A check inside a loop whose address is affine in the iteration number k
 * (ptx_loops.c) is made once, before the loop: at k = 0 and at the last k
 * the latch allows, plus the slope between two iterations, so that no
 * address can wrap around between the two ends. When every such test passes,
 * the thread runs a copy of the loop without those checks; otherwise it
 * runs the original loop with all of them, which reports the exact access
 * that fails, as before. Accesses the pre-check does not cover (pointers
 * loaded in the loop, unknown indices) keep their checks in both copies.
 *
 *   <pre-check>          @!bad bra copy-of-header
 *   ...checked loop...   (its statements, the header among them)
 *                        bra.uni join
 *   ...copy, labels renamed...
 *   join:
 *
 * The choice is per thread; in a loop with barriers or .aligned
 * instructions it is the CTA's, reduced with bar.red (ptx_loops.c says
 * when that is sound). Loops with calls are never copied. */
#include "ptx_hoist.h"

#include "ptx_emit.h"

#include <stdlib.h>
#include <string.h>

typedef struct vloop {
  const ptx_loop *l;
  int id;                 /* names the labels of this loop's copy */
  ptx_buf *pre, *post;    /* per statement of the copy: checks, root lookups */
} vloop;

typedef struct ptx_hoist {
  ptx_loop *loops;
  int nloops;
  vloop *v;
  int nv;
} ptx_hoist;

enum { K0, KL }; /* the iteration an expression is evaluated at: the first, the last */

/* Loops of fewer iterations run checked: their pre-check would cost more
 * than the checks it saves (a CSR row of a few non-zeros per lane). */
#define HOIST_MIN_ITER 4

#define GUARDS_KEPT 16

/* a guard whose range is computed already: checks under one guard share it */
typedef struct kept_guard {
  const ptx_guard *g;
  const char *v0, *lo, *hi;
} kept_guard;

typedef struct pre {
  ptx_fstate *fs;
  ptx_buf *b;
  const ptx_loop *l;
  const char *k;          /* the last iteration's number (64-bit register) */
  kept_guard g[GUARDS_KEPT];
  int ng;
} pre;

static int loop_of(const ptx_hoist *h, const ptx_fn *fn, int s) {
  for (int i = 0; i < h->nloops; i++)
    if (s >= h->loops[i].first && s <= h->loops[i].last && h->loops[i].in[fn->blk[s]]) return i;
  return -1;
}

/* Can c be made before its loop? Its bounds must be known there and its
 * address affine in the iteration (or fixed). Sets c->hx. */
static int hoistable(ptx_fstate *fs, const ptx_loop *l, ptx_check *c) {
  ptx_fn *fn = &fs->fn;
  if (c->removed || c->always_fail || c->root.kind == ROOT_NONE || c->root.kind == ROOT_FRAME) return 0;
  for (int k = 0; k < c->nmem; k++)
    if (c->mem[k].width == 0) return 0;
  if (c->root.kind == ROOT_ARENA) {
    int ds = fn->def[c->root.def].stmt;
    if ((ds >= l->first && ds <= l->last) || !ptx_stmt_dominates(fn, ds, l->pre_dom)) return 0;
  }
  c->hx = NULL;
  c->hguard = NULL;
  if (c->addr_reg < 0) return 1; /* a variable's address: fixed */
  ptx_expr *e = ptx_loop_value(fn, l, c->stmt, c->addr_reg);
  if (!e || (e->has_iv && l->trip.iv < 0)) return 0;
  if (e->op == PX_INV) return 1; /* the register itself, the same in every iteration */
  /* a 32-bit (shared, local) address: computed in 64 bits, tested not to wrap */
  if (c->bits == 32 && !(e = ptx_loop_widen(fn, l, e, 0))) return 0;
  c->hx = e;
  if (!e->has_iv) return 1;
  c->hslope = ptx_loop_slope(fn, l, e);
  if (!c->hslope) return 0;
  if (c->hslope->op != PX_IMM) return 1;
  if (c->hslope->imm <= -(1ll << 31) || c->hslope->imm >= (1ll << 31)) return 0;
  /* under a guard whose value steps by a divisor of the address's step:
   * the address is then a function of the guarded value */
  ptx_guard g;
  if (ptx_loop_guard(fn, l, c->stmt, c->pred_reg, c->pred_neg, &g) && c->hslope->imm % g.slope == 0 &&
      c->hslope->imm / g.slope > -(1ll << 30) && c->hslope->imm / g.slope < (1ll << 30)) {
    c->hguard = ptx_alloc(fn->a, sizeof g);
    *c->hguard = g;
  }
  return 1;
}

void ptx_hoist_plan(ptx_fstate *fs) {
  if (fs->o->no_elim || fs->o->recover || !fs->fn.ok) return;
  ptx_hoist *h = calloc(1, sizeof *h);
  fs->hoist = h;
  h->nloops = ptx_loops_find(&fs->fn, &h->loops);
  if (!h->nloops) return;
  int *count = calloc((size_t)h->nloops, sizeof(int));
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    int li = loop_of(h, &fs->fn, c->stmt);
    if (li >= 0 && hoistable(fs, &h->loops[li], c)) {
      c->hoisted = 1;
      count[li]++;
      fs->st->checks_guarded += c->hguard != NULL;
    }
  }
  h->v = calloc((size_t)h->nloops, sizeof *h->v);
  for (int li = 0; li < h->nloops; li++) {
    if (!count[li]) continue;
    vloop *v = &h->v[h->nv];
    v->l = &h->loops[li];
    v->id = h->nv++;
    int n = v->l->last - v->l->first + 1;
    v->pre = calloc((size_t)n, sizeof *v->pre);
    v->post = calloc((size_t)n, sizeof *v->post);
    fs->st->loops_versioned++;
    fs->st->checks_hoisted += count[li];
  }
  free(count);
}

static const char *rd(ptx_fstate *fs) { return ptx_printf(fs->fn.a, "%%gsan_rd%d", fs->nrd++); }

/* bad |= (a cmp b), compared as type (s64 unless given) */
static void bad_if(pre *p, const char *cmp, const char *type, const char *a, const char *b) {
  ptx_bprintf(p->b, "\tsetp.%s.or.%s \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n", cmp, type, P_HOIST, a, b, P_HOIST);
}

static const char *eval(pre *p, ptx_expr *e, int kk);

/* a 32-bit counter's step as a 32-bit operand: the literal, or the register
 * (as ptx_loops.c's step32 read it: +ext(r) or 0 - ext(r)) */
static const char *step32_txt(pre *p, const ptx_expr *step) {
  ptx_fn *fn = &p->fs->fn;
  if (step->op == PX_IMM) return ptx_printf(fn->a, "%d", (int)step->imm);
  if (step->op == PX_EXT) return fn->regs.name[step->a->reg];
  ptx_bprintf(p->b, "\tneg.s32 \t%%gsan_r%d, %s;\n", R_H2, fn->regs.name[step->b->a->reg]);
  return ptx_printf(fn->a, "%%gsan_r%d", R_H2);
}

/* The number of the last iteration the latch allows, k (< 2^31), into a
 * 64-bit register; bad when it cannot be computed. The latch compares
 * V_j = V_0 + j*s with N after iteration j and goes round again while the
 * test holds, so k is the first j for which it fails. Arithmetic in the
 * counter's own width (a 32-bit division is a fraction of a 64-bit one);
 * only the test that V_k did not wrap is done in 64 bits. */
static const char *trip_count(pre *p) {
  const ptx_trip *t = &p->l->trip;
  ptx_fn *fn = &p->fs->fn;
  ptx_buf *b = p->b;
  int w = t->bits, sg = t->is_signed;
  ptx_expr *step = p->l->ivs[t->iv].step;
  int64_t s = step->op == PX_IMM ? step->imm : 0; /* 0: in a register */
  const char *i = fn->regs.name[p->l->ivs[t->iv].reg], *n = ptx_strndup(fn->a, t->n->text, t->n->len);
  const char *k = rd(p->fs);
  /* registers of the counter's width: V_0, the distance, the step's size */
  const char *v0, *d, *m;
  /* a 32-bit step in a register, as a 32-bit operand (read once) */
  const char *st32 = w == 32 && (t->post || !s) ? step32_txt(p, step) : NULL;
  if (w == 32) {
    v0 = ptx_printf(fn->a, "%%gsan_r%d", R_H0);
    d = ptx_printf(fn->a, "%%gsan_r%d", R_H1);
    m = ptx_printf(fn->a, "%%gsan_r%d", R_H2);
    ptx_bprintf(b, "\tmov.b32 \t%s, %s;\n", v0, i);
    if (t->post) ptx_bprintf(b, "\tadd.s32 \t%s, %s, %s;\n", v0, v0, st32);
  } else {
    v0 = rd(p->fs);
    d = rd(p->fs);
    m = rd(p->fs);
    ptx_bprintf(b, "\tadd.s64 \t%s, %s, %s;\n", v0, i, t->post ? eval(p, step, K0) : "0");
  }
  if (t->c) /* V = counter + c, in the counter's own (wrapping) arithmetic */
    ptx_bprintf(b, "\t%s.s%d \t%s, %s, %.*s;\n", t->c_neg ? "sub" : "add", w, v0, v0, (int)t->c->len, t->c->text);
  int up = t->cmp == CMP_LT || t->cmp == CMP_LE || (t->cmp == CMP_NE && s > 0);
  /* m = |s|: a literal, or a register that must point the right way */
  if (s) {
    ptx_bprintf(b, "\tmov.b%d \t%s, %lld;\n", w, m, (long long)(s < 0 ? -s : s));
  } else {
    const char *st = w == 32 ? st32 : eval(p, step, K0);
    ptx_bprintf(b, "\t%s.s%d \t%s, %s;\n", up ? "mov" : "neg", w, m, st);
    ptx_bprintf(b, "\tsetp.le.or.s%d \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n", w, P_HOIST, m, P_HOIST);
    if (w == 64) bad_if(p, "ge", "s64", m, "2147483648");
    ptx_bprintf(b, "\tmax.s%d \t%s, %s, 1;\n", w, m, m); /* a bad step must still not divide by 0 */
  }
  ptx_bprintf(b, "\tsub.s%d \t%s, %s, %s;\n", w, d, up ? n : v0, up ? v0 : n);
  if (t->cmp == CMP_NE) {
    /* modular: the exit is V_j == N, j = (N - V_0) / s when s divides it */
    ptx_bprintf(b, "\trem.u%d \t%s, %s, %s;\n\tsetp.ne.or.u%d \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n", w, m, d, m, w,
                P_HOIST, m, P_HOIST);
    ptx_bprintf(b, "\tdiv.u%d \t%s, %s, %lld;\n", w, d, d, (long long)(s < 0 ? -s : s));
    if (w == 32) ptx_bprintf(b, "\tcvt.u64.u32 \t%s, %s;\n", k, d);
    else ptx_bprintf(b, "\tmov.b64 \t%s, %s;\n", k, d);
    bad_if(p, "ge", "u64", k, "2147483648");
    return k;
  }
  /* ordered: none after the first when the test already fails at V_0;
   * otherwise the distance left (> 0), divided by the step, rounded up for
   * a strict test and plus one for the others */
  static const char *stop[] = {[CMP_LT] = "ge", [CMP_LE] = "gt", [CMP_GT] = "le", [CMP_GE] = "lt"};
  ptx_bprintf(b, "\tsetp.%s.%s%d \t%%gsan_p%d, %s, %s;\n", stop[t->cmp], sg ? "s" : "u", w, P_TRIP, v0, n);
  if (t->cmp == CMP_LT || t->cmp == CMP_GT) ptx_bprintf(b, "\tadd.s%d \t%s, %s, -1;\n", w, d, d);
  ptx_bprintf(b, "\tdiv.u%d \t%s, %s, %s;\n\tadd.s%d \t%s, %s, 1;\n", w, d, d, m, w, d, d);
  if (w == 32) ptx_bprintf(b, "\tcvt.u64.u32 \t%s, %s;\n", k, d);
  else ptx_bprintf(b, "\tmov.b64 \t%s, %s;\n", k, d);
  ptx_bprintf(b, "\tselp.b64 \t%s, 0, %s, %%gsan_p%d;\n", k, k, P_TRIP);
  bad_if(p, "ge", "u64", k, "2147483648");
  /* the counter must not wrap before the test fails: V_k stays in its type */
  const char *vx = rd(p->fs), *v64 = v0, *s64 = eval(p, step, K0);
  if (w == 32) {
    v64 = rd(p->fs);
    ptx_bprintf(b, "\tcvt.%s64.%s32 \t%s, %s;\n", sg ? "s" : "u", sg ? "s" : "u", v64, v0);
  }
  ptx_bprintf(b, "\tmad.lo.s64 \t%s, %s, %s, %s;\n", vx, k, s64, v64);
  if (w == 32) {
    if (up) bad_if(p, "gt", "s64", vx, sg ? "2147483647" : "4294967295");
    else bad_if(p, "lt", "s64", vx, sg ? "-2147483648" : "0");
  } else {
    bad_if(p, up ? "lt" : "gt", sg ? "s64" : "u64", vx, v64);
  }
  return k;
}

/* induction variable iv after k-or-0 (+post) steps, as a 64-bit value; a
 * 32-bit one widened (sx: by sign) first */
static const char *iv_at(pre *p, int iv, int post, int sx, int kk) {
  const ptx_iv *v = &p->l->ivs[iv];
  ptx_fn *fn = &p->fs->fn;
  const char *x = fn->regs.name[v->reg];
  ptx_buf *b = p->b;
  if (v->bits == 32) {
    const char *wx = rd(p->fs);
    ptx_bprintf(b, "\tcvt.%s64.%s32 \t%s, %s;\n", sx ? "s" : "u", sx ? "s" : "u", wx, x);
    x = wx;
  }
  if (kk == K0 && !post) return x;
  const char *r = rd(p->fs), *step = eval(p, v->step, K0);
  if (kk == KL) {
    const char *j = post ? rd(p->fs) : p->k;
    if (post) ptx_bprintf(b, "\tadd.s64 \t%s, %s, 1;\n", j, p->k);
    ptx_bprintf(b, "\tmad.lo.s64 \t%s, %s, %s, %s;\n", r, j, step, x);
  } else {
    ptx_bprintf(b, "\tadd.s64 \t%s, %s, %s;\n", r, x, step);
  }
  return r;
}

/* e's value at iteration kk as a 64-bit operand. sx >= 0: e is 32-bit
 * arithmetic under a widening (1 by sign, 0 by zero), computed here in 64
 * bits as if it did not wrap; its PX_EXT tests that. */
static const char *eval_x(pre *p, ptx_expr *e, int kk, int sx) {
  ptx_fn *fn = &p->fs->fn;
  if (!e->has_iv && e->txt) return e->txt;
  const char *r = NULL;
  switch (e->op) {
  case PX_IMM: r = ptx_printf(fn->a, "%lld", (long long)e->imm); break;
  case PX_INV:
    r = fn->regs.name[e->reg];
    if (sx >= 0) {
      r = rd(p->fs);
      ptx_bprintf(p->b, "\tcvt.%s64.%s32 \t%s, %s;\n", sx ? "s" : "u", sx ? "s" : "u", r, fn->regs.name[e->reg]);
    }
    break;
  case PX_IV: r = iv_at(p, e->reg, e->post, sx, kk); break;
  case PX_EXT:
    r = eval_x(p, e->a, kk, e->sext);
    /* the 32-bit register holds this value only if it did not wrap: a
     * register itself, before any step, is what it is */
    if (e->a->op != PX_INV && !(e->a->op == PX_IV && !e->a->post && kk == K0)) {
      const char *t = rd(p->fs);
      if (e->sext) ptx_bprintf(p->b, "\tadd.s64 \t%s, %s, 2147483648;\n", t, r);
      else ptx_bprintf(p->b, "\tmov.b64 \t%s, %s;\n", t, r);
      bad_if(p, "ge", "u64", t, "4294967296");
    }
    break;
  case PX_SHL: {
    const char *a = eval_x(p, e->a, kk, sx);
    r = rd(p->fs);
    ptx_bprintf(p->b, "\tshl.b64 \t%s, %s, %lld;\n", r, a, (long long)e->imm);
    break;
  }
  default: {
    static const char *ops[] = {[PX_ADD] = "add.s64", [PX_SUB] = "sub.s64", [PX_MUL] = "mul.lo.s64"};
    const char *a = eval_x(p, e->a, kk, sx), *bb = eval_x(p, e->b, kk, sx);
    r = rd(p->fs);
    ptx_bprintf(p->b, "\t%s \t%s, %s, %s;\n", ops[e->op], r, a, bb);
  }
  }
  if (!e->has_iv) e->txt = r;
  return r;
}

static const char *eval(pre *p, ptx_expr *e, int kk) { return eval_x(p, e, kk, -1); }

/* the address c covers at iteration kk: its register's value plus c->lo.
 * A 32-bit address is its 32-bit arithmetic computed in 64 bits, not
 * tested for wrapping: test_ends reduces it modulo 2^32. */
static const char *addr_at(pre *p, const ptx_check *c, int kk) {
  const char *a = c->bits == 32 ? eval_x(p, c->hx->a, kk, 0) : eval(p, c->hx, kk);
  if (!c->lo) return a;
  const char *r = rd(p->fs);
  ptx_bprintf(p->b, "\tadd.s64 \t%s, %s, %lld;\n", r, a, (long long)c->lo);
  return r;
}

/* a guard's bound as a 64-bit operand: its register sign-extended, plus its literal */
static const char *bound_at(pre *p, const ptx_bound *bd) {
  ptx_fn *fn = &p->fs->fn;
  if (!bd->reg) return ptx_printf(fn->a, "%lld", (long long)bd->imm);
  const char *r = rd(p->fs);
  ptx_bprintf(p->b, "\tcvt.s64.s32 \t%s, %.*s;\n", r, (int)bd->reg->len, bd->reg->text);
  if (bd->imm) ptx_bprintf(p->b, "\tadd.s64 \t%s, %s, %lld;\n", r, r, (long long)bd->imm);
  return r;
}

static int same_tests(const ptx_guard *a, const ptx_guard *b) {
  return a->ntests == b->ntests && !memcmp(a->test, b->test, (size_t)a->ntests * sizeof a->test[0]);
}

/* The values g's V takes in the iterations it lets through lie in [*lo,
 * *hi]: V's values at the two ends of the loop (tested not to wrap, so
 * every value between is taken as the 32-bit tests see it), narrowed to
 * the guard's bounds. *v0 is V at k = 0. Computed once per guard. */
static void guard_range(pre *p, const ptx_guard *g, const char **v0, const char **lo, const char **hi) {
  for (int i = 0; i < p->ng; i++)
    if (same_tests(p->g[i].g, g)) {
      *v0 = p->g[i].v0, *lo = p->g[i].lo, *hi = p->g[i].hi;
      return;
    }
  const char *a = eval(p, g->v, K0), *z = eval(p, g->v, KL);
  *v0 = a;
  *lo = g->slope > 0 ? a : z;
  *hi = g->slope > 0 ? z : a;
  for (int i = 0; i < g->nnonneg; i++)
    bad_if(p, "lt", "s32", ptx_strndup(p->fs->fn.a, g->nonneg[i]->text, g->nonneg[i]->len), "0");
  for (int i = 0; i < g->nlo + g->nhi; i++) {
    const char *r = rd(p->fs), **end = i < g->nlo ? lo : hi;
    ptx_bprintf(p->b, "\t%s.s64 \t%s, %s, %s;\n", i < g->nlo ? "max" : "min", r, *end,
                bound_at(p, i < g->nlo ? &g->lo[i] : &g->hi[i - g->nlo]));
    *end = r;
  }
  if (p->ng < GUARDS_KEPT) p->g[p->ng++] = (kept_guard){g, *v0, *lo, *hi};
}

/* bad |= c's access at one of its n ends (1 or 2) leaves its bounds. The
 * ends are 64-bit values; a 32-bit address is its end's value modulo 2^32,
 * so two ends must lie less than 2^31 apart: then, both in bounds, every
 * iteration's address is a value between them (an offset that wrapped
 * between the ends would differ from the other end's by more than the
 * window). Why not test the 64-bit values: the shared window starts at a
 * small address and nvcc folds negative offsets into base registers, so a
 * register's 32-bit value plus its steps often passes 2^32 where no
 * address wraps; every such pre-check failed (nw's tile loop). */
static void test_ends(pre *p, const ptx_check *c, const char *const *ends, int n) {
  ptx_fstate *fs = p->fs;
  if (c->bits == 64) {
    for (int e = 0; e < n; e++) ptx_emit_test_or(fs, p->b, c, ends[e], 64, P_HOIST);
    return;
  }
  if (n == 2) {
    const char *d = rd(fs);
    ptx_bprintf(p->b, "\tsub.s64 \t%s, %s, %s;\n\tadd.s64 \t%s, %s, 2147483648;\n", d, ends[1], ends[0], d, d);
    bad_if(p, "ge", "u64", d, "4294967296");
  }
  for (int e = 0; e < n; e++) {
    ptx_bprintf(p->b, "\tcvt.u32.u64 \t%%gsan_r%d, %s;\n", R_L2, ends[e]);
    ptx_emit_test_or(fs, p->b, c, ptx_printf(fs->fn.a, "%%gsan_r%d", R_L2), 32, P_HOIST);
  }
}

/* does e widen a 32-bit value (whose wrap eval tests)? */
static int has_ext(const ptx_expr *e) { return e && (e->op == PX_EXT || has_ext(e->a) || has_ext(e->b)); }

/* A check under a guard, at the two ends of its guard's range. The address
 * steps by q = slope / (V's step) for each step of V, so in an iteration
 * that passes, it is a0 + q * (V - V0): between its values at V = lo and
 * V = hi. An iteration the guard stops touches nothing, whatever its
 * address would have been: an access the loop's first or last iteration
 * skips no longer fails the pre-check. */
static void guarded_test(pre *p, const ptx_check *c) {
  ptx_fstate *fs = p->fs;
  const ptx_guard *g = c->hguard;
  const char *v0, *lo, *hi;
  guard_range(p, g, &v0, &lo, &hi);
  /* a0: the address at k = 0 as 64-bit arithmetic (a 32-bit one modulo
   * 2^32, test_ends). A 64-bit one is what the plain pre-check computes,
   * its 32-bit parts tested not to wrap at both ends of the loop. */
  const char *a0 = addr_at(p, c, K0);
  if (c->bits == 64 && has_ext(c->hx)) eval(p, c->hx, KL);
  int64_t q = c->hslope->imm / g->slope;
  const char *bounds[2] = {lo, hi}, *ends[2];
  for (int e = 0; e < 2; e++) {
    const char *r = ends[e] = rd(fs);
    ptx_bprintf(p->b, "\tsub.s64 \t%s, %s, %s;\n\tmad.lo.s64 \t%s, %s, %lld, %s;\n", r, bounds[e], v0, r, r,
                (long long)q, a0);
  }
  test_ends(p, c, ends, 2);
}

/* a label of the loop, as its copy names it; NULL when t is not one */
static const char *copy_label(ptx_fstate *fs, const vloop *v, const ptx_tok *t) {
  for (int i = v->l->first; i <= v->l->last; i++) {
    const ptx_stmt *s = fs->fn.st[i];
    if (s->kind == ST_LABEL && s->toks[0].len == t->len && memcmp(s->toks[0].text, t->text, t->len) == 0)
      return ptx_printf(fs->m->arena, "$L__gsan_f%d_%.*s", v->id, (int)t->len, t->text);
  }
  return NULL;
}

static void emit_precheck(ptx_fstate *fs, vloop *v, ptx_buf *b) {
  pre p = {.fs = fs, .b = b, .l = v->l};
  const ptx_loop *l = v->l;
  const ptx_tok *h = &fs->fn.st[fs->fn.b[l->header].first]->toks[0];
  ptx_bprintf(b, "\t// gsan: the loop at PTX line %d, checked before it runs\n\tsetp.ne.u32 \t%%gsan_p%d, 0, 0;\n",
              fs->fn.st[l->first]->line, P_HOIST);
  /* the last iteration first: a loop of a few iterations costs less checked
   * than its pre-check would, so its thread goes straight to it (not in a
   * loop the CTA chooses for: every thread must reach the bar.red) */
  for (int i = 0; i < fs->nc && !p.k; i++) {
    ptx_check *c = &fs->c[i];
    if (c->hoisted && c->hx && c->hx->has_iv && c->stmt >= l->first && c->stmt <= l->last) p.k = trip_count(&p);
  }
  if (p.k && !l->cta_uniform)
    ptx_bprintf(b, "\tsetp.lt.u64 \t%%gsan_p%d, %s, %d;\n\t@%%gsan_p%d bra \t%.*s;\n", P_TRIP, p.k, HOIST_MIN_ITER - 1,
                P_TRIP, (int)h->len, h->text);
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (!c->hoisted || c->stmt < l->first || c->stmt > l->last) continue;
    if (!c->hx) { /* the address register itself */
      ptx_emit_test_or(fs, b, c, ptx_emit_check_addr(fs, b, c), c->bits, P_HOIST);
      continue;
    }
    if (!c->hx->has_iv) { /* the same address in every iteration */
      const char *a = addr_at(&p, c, K0);
      test_ends(&p, c, &a, 1);
      continue;
    }
    if (c->hguard) {
      guarded_test(&p, c);
      continue;
    }
    const char *ends[2] = {addr_at(&p, c, K0), addr_at(&p, c, KL)};
    /* the slope, |D| < 2^31 (tested when planning if a literal): with
     * k < 2^31 no address wraps between the ends */
    if (c->hslope->op != PX_IMM) {
      const char *d = rd(fs);
      ptx_bprintf(b, "\tadd.s64 \t%s, %s, 2147483648;\n", d, eval(&p, c->hslope, K0));
      bad_if(&p, "ge", "u64", d, "4294967296");
    }
    test_ends(&p, c, ends, 2);
  }
  /* a loop with barriers: the CTA runs one copy, the fast one only if
   * every thread passed (every thread reaches this point: ptx_loops.c) */
  if (l->cta_uniform) ptx_bprintf(b, "\tbar.red.or.pred \t%%gsan_p%d, 0, %%gsan_p%d;\n", P_HOIST, P_HOIST);
  ptx_bprintf(b, "\t@!%%gsan_p%d bra \t%s;\n", P_HOIST, copy_label(fs, v, h));
}

void ptx_hoist_checks(ptx_fstate *fs, ptx_buf *pre, ptx_buf *stub, int *next_id) {
  ptx_hoist *h = fs->hoist;
  for (int vi = 0; h && vi < h->nv; vi++) {
    vloop *v = &h->v[vi];
    emit_precheck(fs, v, &pre[v->l->pre_at]);
    for (int i = 0; i < fs->nc; i++) {
      ptx_check *c = &fs->c[i];
      if (c->removed || c->hoisted || c->stmt < v->l->first || c->stmt > v->l->last) continue;
      ptx_emit_check(fs, &v->pre[c->stmt - v->l->first], c, *next_id);
      ptx_emit_stub(fs, &stub[c->stmt], c, *next_id);
      ++*next_id;
    }
  }
}

void ptx_hoist_lookups(ptx_fstate *fs) {
  ptx_hoist *h = fs->hoist;
  for (int vi = 0; h && vi < h->nv; vi++) {
    vloop *v = &h->v[vi];
    for (int r = 0; r < fs->nroots; r++) {
      int at = fs->fn.def[fs->roots[r].def].stmt;
      if (at >= v->l->first && at <= v->l->last)
        ptx_emit_root_lookup(fs, &v->post[at - v->l->first], &fs->roots[r], fs->fn.st[at], v->id + 1);
    }
  }
}

static ptx_stmt *copy_stmt(ptx_fstate *fs, const vloop *v, const ptx_stmt *s) {
  ptx_stmt *c = ptx_alloc(fs->m->arena, sizeof *c);
  *c = *s;
  c->toks = ptx_alloc(fs->m->arena, (size_t)s->ntok * sizeof *c->toks);
  memcpy(c->toks, s->toks, (size_t)s->ntok * sizeof *c->toks);
  int first = -1, last = -1; /* the tokens that may name a label */
  if (s->kind == ST_LABEL) first = last = 0;
  else if (s->kind == ST_INSN && ptx_op_is(s, "bra") && s->nopnd > 0) first = s->opnd[0].lo, last = s->opnd[0].hi - 1;
  for (int k = first; k >= 0 && k <= last; k++) {
    const char *name = c->toks[k].kind == TK_IDENT ? copy_label(fs, v, &c->toks[k]) : NULL;
    if (name) {
      c->toks[k].text = name;
      c->toks[k].len = (uint32_t)strlen(name);
    }
  }
  return c;
}

void ptx_hoist_tail(ptx_fstate *fs, int stmt, ptx_vec *out) {
  ptx_hoist *h = fs->hoist;
  for (int vi = 0; h && vi < h->nv; vi++) {
    vloop *v = &h->v[vi];
    if (v->l->last != stmt) continue;
    int scope = fs->fn.st[stmt]->scope;
    ptx_buf t = {0};
    ptx_bprintf(&t, "\tbra.uni \t$L__gsan_join_%d;\n", v->id);
    ptx_emit_text(fs, out, &t, scope);
    for (int i = v->l->first; i <= v->l->last; i++) {
      ptx_emit_text(fs, out, &v->pre[i - v->l->first], scope);
      ptx_vec_push(out, copy_stmt(fs, v, fs->fn.st[i]));
      ptx_emit_text(fs, out, &v->post[i - v->l->first], scope);
    }
    ptx_bprintf(&t, "$L__gsan_join_%d:\n", v->id);
    ptx_emit_text(fs, out, &t, scope);
    free(t.p);
  }
}

void ptx_hoist_free(ptx_fstate *fs) {
  ptx_hoist *h = fs->hoist;
  if (!h) return;
  for (int vi = 0; vi < h->nv; vi++) {
    vloop *v = &h->v[vi];
    int n = v->l->last - v->l->first + 1;
    for (int i = 0; i < n; i++) {
      free(v->pre[i].p);
      free(v->post[i].p);
    }
    free(v->pre);
    free(v->post);
  }
  free(h->v);
  free(h->loops);
  free(h);
  fs->hoist = NULL;
}
