/* Guards of accesses inside loops: the tests an access has passed in its
 * iteration before it runs, as a range of one value affine in the
 * iteration. A loop whose access sits under `if (0 <= d - tx && d - tx < B)`
 * touches memory only in the iterations the test lets through; ptx_hoist.c
 * checks the addresses of those iterations before the loop, where the
 * loop's whole range of iterations would leave the allocation (nw's
 * wavefront, a staircase of threads over one array). */
#include "ptx_ir.h"

#include <stdio.h>
#include <string.h>

/* a value the loop does not change: a literal (*lit set, *imm) or a
 * 32-bit register with no definition inside the loop (*reg) */
static int invariant(const ptx_fn *fn, const ptx_loop *l, const ptx_stmt *s, int k, int *lit, int64_t *imm,
                     const ptx_tok **reg) {
  *reg = NULL;
  if (ptx_opnd_int(s, k, imm)) return *lit = 1;
  *lit = 0;
  const ptx_tok *t = ptx_opnd_tok(s, k);
  int r = t ? ptx_tok_reg(fn, t) : -1, d;
  if (r < 0 || fn->regs.bits[r] != 32 || ptx_loop_defs_inside(fn, l, r, &d) != 0) return 0;
  *reg = t;
  return 1;
}

static int same_expr(const ptx_expr *a, const ptx_expr *b) {
  if (!a || !b) return a == b;
  return a->op == b->op && a->reg == b->reg && a->post == b->post && a->sext == b->sext && a->imm == b->imm &&
         same_expr(a->a, b->a) && same_expr(a->b, b->b);
}

/* The one definition of predicate p inside l that reaches statement s, made
 * earlier in the same iteration (it dominates s); -1 if none. */
static int pred_def(const ptx_fn *fn, const ptx_loop *l, int s, int p) {
  int d, r[2];
  if (p < 0 || ptx_loop_defs_inside(fn, l, p, &d) != 1 || ptx_reaching(fn, s, p, r, 2) != 1 || r[0] != d ||
      !ptx_stmt_dominates(fn, fn->def[d].stmt, s))
    return -1;
  return d;
}

/* The setp at statement si as a range of its V when its predicate holds
 * (holds = 1) or fails: "V cmp N", V a 32-bit register affine in the
 * iteration and N a value the loop does not change, as lo <= V <= hi with V
 * taken as signed. Added to g when g has no V yet or the same V. A setp
 * that says no range is remembered in l->no_range: every access below a
 * loop's branches asks about all of them, and one large unrolled loop
 * asked ten million times (the instrumenter ran 3.8 s -> 5.9 s on
 * bench/ptx_speed.sh's module). */
static void add_setp(ptx_fn *fn, const ptx_loop *l, int si, int holds, ptx_guard *g) {
  uint8_t *none = &l->no_range[si - l->first];
  if (*none >> holds & 1 || g->ntests == PTX_GUARD_TESTS) return;
  *none |= (uint8_t)(1u << holds); /* until a range is found below */
  const ptx_stmt *s = fn->st[si];
  int cmp, sgn;
  if (s->pred >= 0 || s->nopnd != 3 || !ptx_setp_cmp(s, &cmp, &sgn)) return;
  if (!ptx_op_has(s, ".s32") && !ptx_op_has(s, ".u32") && !ptx_op_has(s, ".b32")) return;
  /* V on the left; "N cmp V" mirrored */
  int vk = 1, lit;
  int64_t n;
  const ptx_tok *nreg;
  if (!invariant(fn, l, s, 2, &lit, &n, &nreg)) {
    if (!invariant(fn, l, s, 1, &lit, &n, &nreg)) return;
    vk = 2;
    cmp = ptx_cmp_mirror(cmp);
  }
  const ptx_tok *vt = ptx_opnd_tok(s, vk);
  int vr = vt ? ptx_tok_reg(fn, vt) : -1;
  if (vr < 0 || fn->regs.bits[vr] != 32) return;
  if (!holds) cmp = ptx_cmp_negate(cmp);
  if (cmp == CMP_NE) return;
  /* N as the 32-bit value the test compares: a literal folded, a register
   * sign-extended before the loop. V <=u N with 0 <= N < 2^31 is
   * 0 <= V <= N for V taken as signed (the negative ones are the large
   * unsigned values); V >=u N is no range. */
  int64_t k = lit ? (sgn ? (int64_t)(int32_t)n : (int64_t)(uint32_t)n) : 0;
  if (!sgn && (cmp == CMP_GT || cmp == CMP_GE || (lit && k >= (1ll << 31)))) return;
  ptx_expr *v = ptx_loop_value(fn, l, si, vr), *slope;
  if (!v || !v->has_iv || !(slope = ptx_loop_slope(fn, l, v)) || slope->op != PX_IMM || slope->imm == 0 ||
      slope->imm <= -(1ll << 31) || slope->imm >= (1ll << 31))
    return;
  if (!(v = ptx_loop_widen(fn, l, v, 1))) return;
  *none &= (uint8_t)~(1u << holds); /* a range, whether or not g takes it */
  if (g->v && !same_expr(g->v, v)) return;
  g->v = v;
  g->slope = slope->imm;
  g->test[g->ntests++] = si;
  int up = cmp == CMP_LT || cmp == CMP_LE || cmp == CMP_EQ, down = cmp == CMP_GT || cmp == CMP_GE || cmp == CMP_EQ;
  if (up) g->hi[g->nhi++] = (ptx_bound){nreg, cmp == CMP_LT ? k - 1 : k};
  if (down) g->lo[g->nlo++] = (ptx_bound){nreg, cmp == CMP_GT ? k + 1 : k};
  if (!sgn) {
    if (!down) g->lo[g->nlo++] = (ptx_bound){NULL, 0};
    if (!lit) g->nonneg[g->nnonneg++] = nreg;
  }
}

/* What predicate definition d says when it holds (or fails): a setp, or
 * the and / or / not of others that each say something on every path. */
static void add_pred(ptx_fn *fn, const ptx_loop *l, int d, int holds, ptx_guard *g, int depth) {
  int si = fn->def[d].stmt;
  const ptx_stmt *s = fn->st[si];
  if (depth > 4 || s->kind != ST_INSN || s->pred >= 0 || !ptx_opnd_tok(s, 0)) return;
  if (ptx_op_is(s, "setp")) {
    add_setp(fn, l, si, holds, g);
    return;
  }
  int both = (ptx_op_is(s, "and") && holds) || (ptx_op_is(s, "or") && !holds), not = ptx_op_is(s, "not");
  if (!ptx_op_has(s, ".pred") || !(both || not) || s->nopnd != (not ? 2 : 3)) return;
  for (int k = 1; k < s->nopnd; k++) {
    const ptx_tok *t = ptx_opnd_tok(s, k);
    int pd = t ? pred_def(fn, l, si, ptx_tok_reg(fn, t)) : -1;
    if (pd >= 0) add_pred(fn, l, pd, not ? !holds : holds, g, depth + 1);
  }
}

int ptx_loop_guard(ptx_fn *fn, const ptx_loop *l, int s, int pred_reg, int pred_neg, ptx_guard *g) {
  memset(g, 0, sizeof *g);
  int d = pred_def(fn, l, s, pred_reg);
  if (d >= 0) add_pred(fn, l, d, !pred_neg, g, 0);
  /* a block entered only from a conditional branch inside the loop runs
   * in the iterations that take that way (the header is entered round the
   * back edge too) */
  for (int x = fn->blk[s]; x >= 0 && l->in[x] && x != l->header; x = fn->b[x].idom) {
    if (fn->b[x].npred != 1) continue;
    int p = fn->b[x].pred[0];
    if (!l->in[p] || fn->b[p].nsucc != 2 || fn->b[p].succ[0] == fn->b[p].succ[1]) continue;
    const ptx_stmt *br = fn->st[fn->b[p].last];
    if (br->kind != ST_INSN || !ptx_op_is(br, "bra") || br->pred < 0) continue;
    d = pred_def(fn, l, fn->b[p].last, ptx_tok_reg(fn, &br->toks[br->pred]));
    /* succ[0] is the branch's target: taken when the predicate (negated by @!) holds */
    int taken = fn->b[p].succ[0] == x;
    if (d >= 0) add_pred(fn, l, d, taken ? !br->pred_neg : br->pred_neg, g, 0);
  }
  return g->ntests > 0;
}

static void dump_bound(FILE *f, const ptx_bound *b) {
  if (!b->reg) fprintf(f, "%lld", (long long)b->imm);
  else if (!b->imm) fprintf(f, "%.*s", (int)b->reg->len, b->reg->text);
  else fprintf(f, "%.*s%+lld", (int)b->reg->len, b->reg->text, (long long)b->imm);
}

void ptx_guard_dump(FILE *f, const ptx_fn *fn, int s, const ptx_guard *g) {
  fprintf(f, "    guard of line %d: tests at line", fn->st[s]->line);
  for (int i = 0; i < g->ntests; i++) fprintf(f, " %d", fn->st[g->test[i]]->line);
  fputs(", value at least", f);
  if (!g->nlo) fputs(" -", f);
  for (int i = 0; i < g->nlo; i++) fputc(' ', f), dump_bound(f, &g->lo[i]);
  fputs(", at most", f);
  if (!g->nhi) fputs(" -", f);
  for (int i = 0; i < g->nhi; i++) fputc(' ', f), dump_bound(f, &g->hi[i]);
  fprintf(f, ", step %lld per iteration%s\n", (long long)g->slope, g->nnonneg ? ", bound tested not negative" : "");
}
