/* Loops and induction variables, so that a loop's accesses can be checked
 * before it runs (CUSAFE §4.4: loop-inductive and loop-invariant checks).
 * Finds the innermost natural loops that the instrumenter can copy as text,
 * the registers that step by a loop-invariant amount once per iteration, the
 * latch's exit test as a trip-count recipe, and the value a register holds at
 * a statement as an expression over the iteration's induction values and
 * loop-invariant registers. ptx_hoist.c evaluates those expressions before
 * the loop, for the first and the last iteration. */
#include "ptx_ir.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 24 /* of an expression: deeper ones are not worth a pre-check */

typedef struct walk {
  ptx_fn *fn;
  const ptx_loop *l;
  int *iv_of;      /* register -> index in ivs, -1; NULL while finding them */
  const uint8_t *cand; /* while finding them: the candidates, taken as induction variables */
  int nodes;
} walk;

static int stmt_in(const ptx_loop *l, const ptx_fn *fn, int s) { return s >= 0 && l->in[fn->blk[s]]; }

/* definitions of reg inside the loop: their count, the last one in *d */
int ptx_loop_defs_inside(const ptx_fn *fn, const ptx_loop *l, int reg, int *d) {
  int n = 0;
  for (int e = 0; e < fn->reg_ndefs[reg]; e++)
    if (stmt_in(l, fn, fn->def[fn->reg_defs[reg][e]].stmt)) { *d = fn->reg_defs[reg][e]; n++; }
  return n;
}

static ptx_expr *node(walk *w, int op) {
  if (++w->nodes > 64) return NULL;
  ptx_expr *e = ptx_alloc(w->fn->a, sizeof *e);
  e->op = op;
  e->reg = -1;
  return e;
}

static ptx_expr *imm(walk *w, int64_t v) {
  ptx_expr *e = node(w, PX_IMM);
  if (e) e->imm = v;
  return e;
}

static ptx_expr *bin(walk *w, int op, ptx_expr *a, ptx_expr *b) {
  if (!a || !b) return NULL;
  if (op == PX_MUL && a->has_iv && b->has_iv) return NULL; /* not affine in the iteration */
  if (a->op == PX_IMM && b->op == PX_IMM) /* folded, with the wrap of 64-bit arithmetic */
    return imm(w, op == PX_ADD   ? (int64_t)((uint64_t)a->imm + (uint64_t)b->imm)
                  : op == PX_SUB ? (int64_t)((uint64_t)a->imm - (uint64_t)b->imm)
                                 : (int64_t)((uint64_t)a->imm * (uint64_t)b->imm));
  if (b->op == PX_IMM && b->imm == 0 && op != PX_MUL) return a;
  if (a->op == PX_IMM && a->imm == 0 && op == PX_ADD) return b;
  ptx_expr *e = node(w, op);
  if (!e) return NULL;
  e->a = a;
  e->b = b;
  e->has_iv = a->has_iv || b->has_iv;
  return e;
}


/* an integer literal (not a float, not a symbol) */
static int tok_int(const ptx_tok *t, int64_t *v) {
  if (t->kind != TK_NUMBER || memchr(t->text, '.', t->len)) return 0;
  if (t->len > 1 && t->text[0] == '0' && (t->text[1] == 'f' || t->text[1] == 'F' || t->text[1] == 'd' || t->text[1] == 'D'))
    return 0;
  char buf[40];
  if (t->len >= sizeof buf) return 0;
  memcpy(buf, t->text, t->len);
  buf[t->len] = 0;
  char *end;
  *v = (int64_t)strtoull(buf, &end, 0);
  return *end == 0 || ((*end == 'U' || *end == 'u') && end[1] == 0);
}

static ptx_expr *value(walk *w, int s, const ptx_tok *t, int bits, int depth);

/* a 32-bit operand widened to 64 bits: the value of a 32-bit expression,
 * which the pre-check tests did not wrap */
static ptx_expr *ext(walk *w, int s, const ptx_tok *t, int sext, int depth) {
  ptx_expr *v = value(w, s, t, 32, depth);
  if (!v) return NULL;
  if (v->op == PX_IMM) /* the literal as a 32-bit value, extended */
    return imm(w, sext ? (int64_t)(int32_t)v->imm : (int64_t)(uint32_t)v->imm);
  ptx_expr *e = node(w, PX_EXT);
  if (!e) return NULL;
  e->sext = sext;
  e->a = v;
  e->has_iv = v->has_iv;
  return e;
}

const ptx_tok *ptx_opnd_tok(const ptx_stmt *s, int k) {
  return k < s->nopnd && s->opnd[k].hi - s->opnd[k].lo == 1 ? &s->toks[s->opnd[k].lo] : NULL;
}

/* operand k as an integer literal, also a negative one ("-4" is two tokens) */
int ptx_opnd_int(const ptx_stmt *s, int k, int64_t *v) {
  if (k >= s->nopnd) return 0;
  int lo = s->opnd[k].lo, n = s->opnd[k].hi - lo;
  if (n == 1) return tok_int(&s->toks[lo], v);
  if (n == 2 && ptx_tok_punct(&s->toks[lo], '-') && tok_int(&s->toks[lo + 1], v)) {
    *v = -*v;
    return 1;
  }
  return 0;
}

/* operand k of statement s (at s), a register or a literal (a 32-bit
 * one as the signed value the 32-bit arithmetic adds) */
static ptx_expr *operand(walk *w, const ptx_stmt *s, int si, int k, int bits, int depth) {
  int64_t v;
  if (ptx_opnd_int(s, k, &v)) return imm(w, bits == 32 ? (int64_t)(int32_t)v : v);
  const ptx_tok *t = ptx_opnd_tok(s, k);
  return t ? value(w, si, t, bits, depth) : NULL;
}

/* the same, a 32-bit operand widened */
static ptx_expr *operand_ext(walk *w, const ptx_stmt *s, int si, int k, int sext, int depth) {
  int64_t v;
  if (ptx_opnd_int(s, k, &v)) return imm(w, sext ? (int64_t)(int32_t)v : (int64_t)(uint32_t)v);
  const ptx_tok *t = ptx_opnd_tok(s, k);
  return t ? ext(w, si, t, sext, depth) : NULL;
}

/* The value definition d computes, in terms of the values at statement
 * d. Only the arithmetic that moves an address affinely: mov, add, sub,
 * mul.lo, mad.lo and shl by a constant, and the widening cvt, mul.wide and
 * mad.wide. 32-bit arithmetic is taken as if it did not wrap; the
 * pre-check tests that where the value is widened (PX_EXT), which is the
 * only way a 32-bit value reaches an address. */
static ptx_expr *eval_def(walk *w, int d, int bits, int depth) {
  ptx_fn *fn = w->fn;
  int si = fn->def[d].stmt;
  const ptx_stmt *s = fn->st[si];
  if (s->pred >= 0 || s->nopnd < 2 || ptx_opnd_tok(s, 0) == NULL) return NULL;
  int sx = ptx_op_has(s, ".s32");
  /* cvta between generic and global: the same number for global memory */
  if ((ptx_op_is(s, "mov") || (ptx_op_is(s, "cvta") && ptx_op_has(s, ".global") && bits == 64)) && s->nopnd == 2)
    return operand(w, s, si, 1, bits, depth);
  if (ptx_op_is(s, "cvt") && s->nopnd == 2 && bits == 64 && (ptx_op_has(s, ".s64") || ptx_op_has(s, ".u64")) &&
      (ptx_op_has(s, ".s32") || ptx_op_has(s, ".u32")) && !ptx_op_has(s, ".sat"))
    return operand_ext(w, s, si, 1, sx, depth);
  if (s->nopnd != 3 && !(s->nopnd == 4 && ptx_op_is(s, "mad"))) return NULL;
  int wide = ptx_op_has(s, ".wide");
  if (wide && (bits != 64 || !(ptx_op_has(s, ".s32") || ptx_op_has(s, ".u32")))) return NULL;
  if (!wide && bits == 64 && !(ptx_op_has(s, ".s64") || ptx_op_has(s, ".u64") || ptx_op_has(s, ".b64"))) return NULL;
  if (!wide && bits == 32 && !(ptx_op_has(s, ".s32") || ptx_op_has(s, ".u32") || ptx_op_has(s, ".b32"))) return NULL;
  if (ptx_op_has(s, ".sat") || ptx_op_has(s, ".cc")) return NULL;
  if (ptx_op_is(s, "add") && !wide)
    return bin(w, PX_ADD, operand(w, s, si, 1, bits, depth), operand(w, s, si, 2, bits, depth));
  if (ptx_op_is(s, "sub") && !wide)
    return bin(w, PX_SUB, operand(w, s, si, 1, bits, depth), operand(w, s, si, 2, bits, depth));
  if (ptx_op_is(s, "shl")) {
    int64_t k;
    ptx_expr *x = operand(w, s, si, 1, bits, depth), *e;
    if (!x || !ptx_opnd_int(s, 2, &k) || k < 0 || k > bits - 2 || !(e = node(w, PX_SHL))) return NULL;
    e->a = x;
    e->imm = k;
    e->has_iv = x->has_iv;
    return e;
  }
  if (ptx_op_is(s, "mul") || ptx_op_is(s, "mad")) {
    ptx_expr *p;
    if (wide) p = bin(w, PX_MUL, operand_ext(w, s, si, 1, sx, depth), operand_ext(w, s, si, 2, sx, depth));
    else if (ptx_op_has(s, ".lo")) p = bin(w, PX_MUL, operand(w, s, si, 1, bits, depth), operand(w, s, si, 2, bits, depth));
    else return NULL;
    if (ptx_op_is(s, "mul")) return s->nopnd == 3 ? p : NULL;
    return bin(w, PX_ADD, p, operand(w, s, si, 3, bits, depth));
  }
  return NULL;
}

static int iv_index(const walk *w, int reg) {
  if (w->iv_of) return w->iv_of[reg];
  return w->cand[reg] ? reg : -1; /* while finding them: the register stands for itself */
}

/* The value register reg holds when statement s executes. */
static ptx_expr *value_reg(walk *w, int s, int reg, int depth) {
  ptx_fn *fn = w->fn;
  int din, nin = ptx_loop_defs_inside(fn, w->l, reg, &din);
  int defs[16], n = nin ? ptx_reaching(fn, s, reg, defs, 16) : 0;
  if (nin && (n < 1 || n > 16)) return NULL;
  int inside = 0;
  for (int i = 0; i < n; i++) inside += stmt_in(w->l, fn, fn->def[defs[i]].stmt);
  if (inside == 0) { /* only values from before the loop reach s */
    ptx_expr *e = node(w, PX_INV);
    if (e) e->reg = reg;
    return e;
  }
  int iv = iv_index(w, reg);
  if (iv >= 0) { /* the induction variable, before or after this iteration's step */
    ptx_expr *e = node(w, PX_IV);
    if (!e) return NULL;
    e->reg = iv;
    e->post = inside == n;
    e->has_iv = 1;
    return e;
  }
  /* one definition, earlier in this iteration on every path (a register
   * with a single definition reaches everywhere, also around the back edge) */
  int ds = n == 1 ? fn->def[defs[0]].stmt : -1;
  if (n != 1 || ds == s || !ptx_stmt_dominates(fn, ds, s)) return NULL;
  return eval_def(w, defs[0], fn->regs.bits[reg], depth + 1);
}

/* The value of operand t (a register or an integer literal) when statement
 * s executes. */
static ptx_expr *value(walk *w, int s, const ptx_tok *t, int bits, int depth) {
  if (depth > MAX_DEPTH) return NULL;
  int64_t v;
  if (tok_int(t, &v)) return imm(w, v);
  int reg = ptx_tok_reg(w->fn, t);
  if (reg < 0 || w->fn->regs.bits[reg] != bits) return NULL;
  return value_reg(w, s, reg, depth);
}

/* Is e = IV(self) + (an iteration-free step)? Sets *step. */
static int split_step(walk *w, ptx_expr *e, int self, ptx_expr **step) {
  if (!e) return 0;
  if (e->op == PX_IV) {
    if (e->reg != self || e->post) return 0;
    *step = imm(w, 0);
    return *step != NULL;
  }
  if (e->op == PX_ADD || e->op == PX_SUB) {
    ptx_expr *in, *rest, *sub;
    if (e->a->has_iv && !e->b->has_iv) in = e->a, rest = e->b;
    else if (e->op == PX_ADD && e->b->has_iv && !e->a->has_iv) in = e->b, rest = e->a;
    else return 0;
    if (!split_step(w, in, self, &sub)) return 0;
    *step = bin(w, e->op, sub, rest);
    return *step != NULL;
  }
  return 0;
}

/* 32-bit induction: add/sub of the register itself and an immediate or a
 * loop-invariant register (a grid-stride loop's stride); the step as a
 * 64-bit value (a 32-bit add of s is an add of s sign-extended) */
static ptx_expr *step32(walk *w, int d, int reg) {
  ptx_fn *fn = w->fn;
  const ptx_stmt *s = fn->st[fn->def[d].stmt];
  if (s->pred >= 0 || s->nopnd != 3 || ptx_op_has(s, ".sat") || ptx_op_has(s, ".cc")) return NULL;
  int sub = ptx_op_is(s, "sub");
  if (!ptx_op_is(s, "add") && !sub) return NULL;
  const ptx_tok *a = ptx_opnd_tok(s, 1), *b = ptx_opnd_tok(s, 2);
  int other;
  if (a && ptx_tok_reg(fn, a) == reg) other = 2;
  else if (!sub && b && ptx_tok_reg(fn, b) == reg) other = 1;
  else return NULL;
  int64_t k;
  if (ptx_opnd_int(s, other, &k)) {
    k = (int32_t)k;
    return k ? imm(w, sub ? -k : k) : NULL;
  }
  const ptx_tok *t = ptx_opnd_tok(s, other);
  int r = t ? ptx_tok_reg(fn, t) : -1, dd;
  if (r < 0 || fn->regs.bits[r] != 32 || ptx_loop_defs_inside(fn, w->l, r, &dd) != 0) return NULL;
  ptx_expr *v = node(w, PX_INV), *e = node(w, PX_EXT);
  if (!v || !e) return NULL;
  v->reg = r;
  e->sext = 1;
  e->a = v;
  return sub ? bin(w, PX_SUB, imm(w, 0), e) : e;
}

/* Induction variables: one unpredicated definition inside the loop, in a
 * block every iteration passes, whose value is the register's own value
 * plus an iteration-free step. Candidates are taken as induction variables
 * while their steps are worked out; those whose step turns out not to be
 * their own value plus a constant amount drop out, until none does. */
static void find_ivs(ptx_fn *fn, ptx_loop *l) {
  int nr = fn->regs.n;
  uint8_t *cand = calloc((size_t)nr + 1, 1);
  int *defd = malloc(((size_t)nr + 1) * sizeof(int));
  ptx_expr **step = calloc((size_t)nr + 1, sizeof *step);
  for (int r = 0; r < nr; r++) {
    int d;
    /* one definition inside, and one before it: the register carries a value round the loop */
    if ((fn->regs.bits[r] != 32 && fn->regs.bits[r] != 64) || ptx_loop_defs_inside(fn, l, r, &d) != 1 || fn->reg_ndefs[r] < 2)
      continue;
    int ds = fn->def[d].stmt;
    if (fn->st[ds]->pred >= 0 || !ptx_dominates(fn, fn->blk[ds], l->latch)) continue;
    cand[r] = 1;
    defd[r] = d;
  }
  walk w = {fn, l, NULL, cand, 0};
  for (int changed = 1; changed;) {
    changed = 0;
    for (int r = 0; r < nr; r++) {
      if (!cand[r]) continue;
      w.nodes = 0;
      ptx_expr *st = NULL;
      int ok;
      if (fn->regs.bits[r] == 32) {
        ok = (st = step32(&w, defd[r], r)) != NULL;
      } else {
        ok = split_step(&w, eval_def(&w, defd[r], 64, 0), r, &st);
        /* a step through another candidate is not iteration-free */
        ok = ok && !st->has_iv;
      }
      if (!ok) { cand[r] = 0; changed = 1; }
      else step[r] = st;
    }
  }
  l->ivs = ptx_alloc(fn->a, (size_t)(nr + 1) * sizeof *l->ivs);
  for (int r = 0; r < nr; r++)
    if (cand[r]) {
      l->ivs[l->nivs].reg = r;
      l->ivs[l->nivs].bits = fn->regs.bits[r];
      l->ivs[l->nivs].step = step[r];
      l->nivs++;
    }
  free(cand);
  free(defd);
  free(step);
}

int ptx_cmp_mirror(int cmp) {
  static const int m[] = {[CMP_LT] = CMP_GT, [CMP_LE] = CMP_GE, [CMP_GT] = CMP_LT,
                          [CMP_GE] = CMP_LE, [CMP_NE] = CMP_NE, [CMP_EQ] = CMP_EQ};
  return m[cmp];
}

int ptx_cmp_negate(int cmp) {
  static const int n[] = {[CMP_LT] = CMP_GE, [CMP_LE] = CMP_GT, [CMP_GT] = CMP_LE,
                          [CMP_GE] = CMP_LT, [CMP_NE] = CMP_EQ, [CMP_EQ] = CMP_NE};
  return n[cmp];
}

int ptx_setp_cmp(const ptx_stmt *s, int *cmp, int *sgn) {
  static const struct { const char *q; int cmp, sgn; } t[] = {
      {".lt", CMP_LT, -1}, {".le", CMP_LE, -1}, {".gt", CMP_GT, -1}, {".ge", CMP_GE, -1}, {".ne", CMP_NE, -1},
      {".eq", CMP_EQ, -1},
      {".lo", CMP_LT, 0},  {".ls", CMP_LE, 0},  {".hi", CMP_GT, 0},  {".hs", CMP_GE, 0},  {NULL, 0, 0}};
  for (int i = 0; t[i].q; i++)
    if (ptx_op_has(s, t[i].q)) {
      *cmp = t[i].cmp;
      int signed_type = ptx_op_has(s, ".s32") || ptx_op_has(s, ".s64");
      int unsigned_type = ptx_op_has(s, ".u32") || ptx_op_has(s, ".u64") || ptx_op_has(s, ".b32") || ptx_op_has(s, ".b64");
      if (!signed_type && !unsigned_type) return 0;
      *sgn = t[i].sgn == 0 ? 0 : signed_type;
      return 1;
    }
  return 0;
}

/* The compared value V of the latch's test: an induction variable of the
 * test's width, or one plus or minus a loop-invariant register or literal
 * (an add the compiler put beside the test). Sets the induction variable,
 * the statement at which its value counts (for before/after its step) and
 * the addend. */
static int compared(ptx_fn *fn, ptx_loop *l, int at, const ptx_tok *t, int bits, ptx_trip *tr) {
  int r = ptx_tok_reg(fn, t), d, dd;
  if (r < 0) return 0;
  for (int i = 0; i < l->nivs; i++)
    if (l->ivs[i].reg == r && l->ivs[i].bits == bits) {
      tr->iv = i;
      tr->at = at;
      return 1;
    }
  if (ptx_loop_defs_inside(fn, l, r, &d) != 1) return 0;
  const ptx_stmt *s = fn->st[fn->def[d].stmt];
  int sub = ptx_op_is(s, "sub");
  if (s->pred >= 0 || s->nopnd != 3 || (!ptx_op_is(s, "add") && !sub) || ptx_op_has(s, ".sat") || ptx_op_has(s, ".cc") ||
      !ptx_stmt_dominates(fn, fn->def[d].stmt, at))
    return 0;
  for (int side = 1; side <= 2; side++) {
    const ptx_tok *x = ptx_opnd_tok(s, side), *c = ptx_opnd_tok(s, 3 - side);
    int xr = x ? ptx_tok_reg(fn, x) : -1, cr = c ? ptx_tok_reg(fn, c) : -1;
    int64_t k;
    if (!x || !c || (sub && side == 2)) continue;
    if (!tok_int(c, &k) && (cr < 0 || fn->regs.bits[cr] != bits || ptx_loop_defs_inside(fn, l, cr, &dd) != 0)) continue;
    for (int i = 0; i < l->nivs; i++)
      if (l->ivs[i].reg == xr && l->ivs[i].bits == bits) {
        tr->iv = i;
        tr->at = fn->def[d].stmt;
        tr->c = c;
        tr->c_neg = sub;
        return 1;
      }
  }
  return 0;
}

/* The loop's exit test: a block every iteration passes (it dominates the
 * latch) that ends in "@[!]%p bra T" with %p = setp.cmp V, N, and leaves
 * the loop on one of its two ways: to T, or by falling through. Normalised
 * to "goes round again while V cmp N". Another exit can only leave sooner,
 * which keeps the count an upper bound. */
static int exit_test(ptx_fn *fn, ptx_loop *l, int b, ptx_trip *out) {
  ptx_trip t = {-1, 0, 0, 0, 0, NULL, 0, NULL, 0};
  if (!l->in[b] || !ptx_dominates(fn, b, l->latch) || fn->b[b].nsucc != 2) return 0;
  const ptx_stmt *br = fn->st[fn->b[b].last];
  if (br->kind != ST_INSN || !ptx_op_is(br, "bra") || br->pred < 0) return 0;
  int taken = fn->b[b].succ[0], fall = fn->b[b].succ[1], d;
  if (l->in[taken] == l->in[fall]) return 0; /* not an exit */
  int stay_if_taken = l->in[taken], p = ptx_tok_reg(fn, &br->toks[br->pred]);
  if (p < 0 || ptx_loop_defs_inside(fn, l, p, &d) != 1 || fn->blk[fn->def[d].stmt] != b) return 0;
  const ptx_stmt *s = fn->st[fn->def[d].stmt];
  int cmp, sgn;
  if (!ptx_op_is(s, "setp") || s->pred >= 0 || s->nopnd != 3 || ptx_opnd_tok(s, 0) == NULL || !ptx_setp_cmp(s, &cmp, &sgn)) return 0;
  int bits = ptx_op_has(s, ".s64") || ptx_op_has(s, ".u64") || ptx_op_has(s, ".b64") ? 64 : 32;
  const ptx_tok *v = ptx_opnd_tok(s, 1), *n = ptx_opnd_tok(s, 2);
  if (!v || !n) return 0;
  if (!compared(fn, l, fn->def[d].stmt, v, bits, &t)) {
    if (!compared(fn, l, fn->def[d].stmt, n, bits, &t)) return 0;
    const ptx_tok *x = v; /* N op V: mirror the comparison */
    v = n;
    n = x;
    cmp = ptx_cmp_mirror(cmp);
  }
  int64_t k;
  int nr = ptx_tok_reg(fn, n), dn;
  if (!tok_int(n, &k) && (nr < 0 || fn->regs.bits[nr] != bits || ptx_loop_defs_inside(fn, l, nr, &dn) != 0)) return 0;
  if (br->pred_neg == stay_if_taken) { /* round again while the test fails */
    if (cmp == CMP_NE) return 0;
    cmp = ptx_cmp_negate(cmp);
  } else if (cmp == CMP_EQ) {
    return 0; /* round again while equal: once or twice, not worth it */
  }
  /* a step in a register has its sign and size tested before the loop */
  const ptx_expr *step = l->ivs[t.iv].step;
  if (step->op == PX_IMM) {
    int64_t st = step->imm;
    if (st <= -(1ll << 31) || st >= (1ll << 31)) return 0; /* keeps k * step within 62 bits */
    if ((cmp == CMP_LT || cmp == CMP_LE) && st <= 0) return 0;
    if ((cmp == CMP_GT || cmp == CMP_GE) && st >= 0) return 0;
    uint64_t m = (uint64_t)(st < 0 ? -st : st);
    if (cmp == CMP_NE && (m & (m - 1))) return 0; /* the exit divides by the step: powers of two only */
  } else if (cmp == CMP_NE) {
    return 0;
  }
  /* the counter's value where V is formed: before or after its step */
  int defs[16], nd = ptx_reaching(fn, t.at, l->ivs[t.iv].reg, defs, 16), inside = 0;
  if (nd < 1 || nd > 16) return 0;
  for (int i = 0; i < nd; i++) inside += stmt_in(l, fn, fn->def[defs[i]].stmt);
  t.post = inside == nd;
  t.cmp = cmp;
  t.is_signed = sgn;
  t.bits = bits;
  t.n = n;
  *out = t;
  return 1;
}

static void find_trip(ptx_fn *fn, ptx_loop *l) {
  l->trip.iv = -1;
  for (int b = 0; b < fn->nblk; b++)
    if (exit_test(fn, l, b, &l->trip)) return;
}

/* __syncthreads(): barrier 0 of the whole CTA, no thread count */
static int cta_barrier(const ptx_stmt *s) {
  int64_t id;
  return (ptx_op_is(s, "bar") || ptx_op_is(s, "barrier")) && ptx_op_has(s, ".sync") && !ptx_op_has(s, ".warp") &&
         s->nopnd == 1 && ptx_opnd_int(s, 0, &id) && id == 0;
}

/* Can the loop's statements be copied, and must every thread of the CTA
 * then choose the same copy? Labels, .loc/.pragma and instructions other
 * than calls and indirect branches can be copied. The copy is chosen per
 * thread unless the loop holds a barrier or an .aligned (warp-collective)
 * instruction: those must be executed by all threads at one instruction,
 * so the choice becomes the CTA's (ptx_hoist.c: bar.red before the loop).
 * That is sound only if every thread of the CTA reaches the pre-check:
 * when a __syncthreads() in the loop comes before any way out of it, every
 * thread that enters must reach it, so every thread enters. Other barriers
 * (named, counted, arrive, warp) are not copied. Returns -1 (no), 0 (per
 * thread) or 1 (per CTA). */
static int copy_mode(const ptx_fn *fn, int first, int last, const uint8_t *in) {
  int aligned = 0, nbar = 0, bar[8];
  for (int i = first; i <= last; i++) {
    const ptx_stmt *s = fn->st[i];
    if (s->kind == ST_LABEL) continue;
    if (s->kind == ST_DIRECTIVE) {
      if (ptx_tok_is(&s->toks[0], ".loc") || ptx_tok_is(&s->toks[0], ".pragma")) continue;
      return -1;
    }
    if (s->kind != ST_INSN || ptx_op_is(s, "call") || ptx_op_is(s, "brx")) return -1;
    if (cta_barrier(s)) {
      if (nbar < 8) bar[nbar++] = fn->blk[i];
      continue;
    }
    if (ptx_op_is(s, "bar") || ptx_op_is(s, "barrier")) return -1;
    aligned |= ptx_op_has(s, ".aligned");
  }
  if (!nbar) return aligned ? -1 : 0;
  for (int k = 0; k < nbar; k++) {
    int first_out = 1; /* this barrier's block dominates every block leaving the loop */
    for (int b = fn->blk[first]; b <= fn->blk[last] && first_out; b++)
      for (int e = 0; e < fn->b[b].nsucc; e++)
        if (!in[fn->b[b].succ[e]] && !ptx_dominates(fn, bar[k], b)) first_out = 0;
    if (first_out) return 1;
  }
  return -1;
}

/* Where the pre-check goes: on the one edge from outside into the header
 * that can carry code. A block falling into the header gets it before the
 * header's first statement; a block ending in an unconditional branch to
 * the header, before that branch. Other entries run the checked copy. Sets
 * at (the statement before which it goes) and dom (a statement the
 * pre-check's inputs must dominate); 0 if there is no such edge. */
static int entry_edge(const ptx_fn *fn, int h, const uint8_t *in, int *at, int *dom) {
  for (int e = 0; e < fn->b[h].npred; e++) {
    int p = fn->b[h].pred[e];
    if (in[p]) continue;
    const ptx_stmt *last = fn->st[fn->b[p].last];
    int branch = last->kind == ST_INSN && ptx_op_is(last, "bra");
    if (p == h - 1 && !(branch && last->pred < 0)) {
      *at = fn->b[h].first;
      *dom = fn->b[p].last;
      return 1;
    }
    if (branch && last->pred < 0 && fn->b[p].nsucc == 1) {
      *at = *dom = fn->b[p].last;
      return 1;
    }
  }
  return 0;
}

int ptx_loops_find(ptx_fn *fn, ptx_loop **out) {
  *out = NULL;
  if (!fn->ok) return 0;
  int nb = fn->nblk, nl = 0;
  /* back edges l -> h (h dominates l), one per header */
  int *latch = malloc((size_t)nb * sizeof(int));
  for (int k = 0; k < nb; k++) latch[k] = -1;
  for (int k = 0; k < nb; k++)
    for (int e = 0; e < fn->b[k].nsucc; e++) {
      int h = fn->b[k].succ[e];
      if (fn->b[k].rpo < 0 || !ptx_dominates(fn, h, k)) continue;
      latch[h] = latch[h] == -1 ? k : -2; /* -2: several latches */
    }
  ptx_loop *loops = NULL;
  uint8_t *in = malloc((size_t)nb);
  int *stack = malloc((size_t)nb * sizeof(int));
  for (int h = 1; h < nb; h++) {
    int lt = latch[h];
    if (lt < 0) continue; /* none, or several */
    /* the body: blocks reaching the latch without passing the header */
    memset(in, 0, (size_t)nb);
    int sp = 0, size = 1, ok = 1, lo = h, hi = h;
    in[h] = 1;
    if (!in[lt]) { in[lt] = 1; stack[sp++] = lt; size++; }
    while (sp) {
      int k = stack[--sp];
      lo = k < lo ? k : lo;
      hi = k > hi ? k : hi;
      for (int e = 0; e < fn->b[k].npred; e++) {
        int p = fn->b[k].pred[e];
        if (!in[p]) { in[p] = 1; stack[sp++] = p; size++; }
      }
    }
    /* contiguous (a rotated loop's header may sit inside), innermost */
    if (size != hi - lo + 1) ok = 0;
    for (int k = lo; k <= hi && ok; k++) {
      if (!in[k]) ok = 0;
      for (int e = 0; e < fn->b[k].nsucc && ok; e++) {
        int t = fn->b[k].succ[e];
        if (in[t] && ptx_dominates(fn, t, k) && !(k == lt && t == h)) ok = 0;
      }
    }
    /* the range is entered only at its header; the first block may fall
     * into the range from before it only if it is the header */
    int at = -1, dom = -1;
    if (ok && (lo == 0 || !entry_edge(fn, h, in, &at, &dom))) ok = 0;
    /* the copy is entered by a jump to its header's label */
    if (ok && fn->st[fn->b[h].first]->kind != ST_LABEL) ok = 0;
    int mode = ok ? copy_mode(fn, fn->b[lo].first, fn->b[hi].last, in) : -1;
    if (mode < 0) continue;
    loops = realloc(loops, (size_t)(nl + 1) * sizeof *loops);
    ptx_loop *l = &loops[nl++];
    memset(l, 0, sizeof *l);
    l->header = h;
    l->latch = lt;
    l->cta_uniform = mode;
    l->first = fn->b[lo].first;
    l->last = fn->b[hi].last;
    l->pre_at = at;
    l->pre_dom = dom;
    l->in = ptx_alloc(fn->a, (size_t)nb);
    memcpy(l->in, in, (size_t)nb);
    l->no_range = ptx_alloc(fn->a, (size_t)(l->last - l->first + 1));
    find_ivs(fn, l);
    find_trip(fn, l);
  }
  free(latch);
  free(in);
  free(stack);
  *out = loops;
  return nl;
}

ptx_expr *ptx_loop_value(ptx_fn *fn, const ptx_loop *l, int s, int reg) {
  if (reg < 0 || reg >= fn->regs.n) return NULL;
  int *iv_of = malloc(((size_t)fn->regs.n + 1) * sizeof(int));
  for (int r = 0; r < fn->regs.n; r++) iv_of[r] = -1;
  for (int i = 0; i < l->nivs; i++) iv_of[l->ivs[i].reg] = i;
  walk w = {fn, l, iv_of, NULL, 0};
  ptx_expr *e = value_reg(&w, s, reg, 0);
  free(iv_of);
  return e;
}

static ptx_expr *slope(walk *w, ptx_expr *e) {
  if (!e) return NULL;
  switch (e->op) {
  case PX_IMM:
  case PX_INV: return imm(w, 0);
  case PX_IV: return w->l->ivs[e->reg].step;
  case PX_EXT: return slope(w, e->a); /* no wrap: the pre-check tests the ends */
  case PX_ADD:
  case PX_SUB: return bin(w, e->op, slope(w, e->a), slope(w, e->b));
  case PX_MUL: return e->a->has_iv ? bin(w, PX_MUL, slope(w, e->a), e->b) : bin(w, PX_MUL, e->a, slope(w, e->b));
  case PX_SHL: {
    ptx_expr *a = slope(w, e->a), *r;
    if (!a) return NULL;
    if (a->op == PX_IMM) return imm(w, (int64_t)((uint64_t)a->imm << e->imm));
    if (!(r = node(w, PX_SHL))) return NULL;
    r->a = a;
    r->imm = e->imm;
    return r;
  }
  }
  return NULL;
}

ptx_expr *ptx_loop_widen(ptx_fn *fn, const ptx_loop *l, ptx_expr *e, int sext) {
  walk w = {fn, l, NULL, NULL, 0};
  ptx_expr *x = node(&w, PX_EXT);
  if (!x) return NULL;
  x->sext = sext;
  x->a = e;
  x->has_iv = e->has_iv;
  return x;
}

/* Affine in k: e(k+1) - e(k) is the same for every k (modulo 2^64). A
 * 32-bit induction variable under EXT grows by its step only while it does
 * not wrap, which the pre-check tests at both ends. */
ptx_expr *ptx_loop_slope(ptx_fn *fn, const ptx_loop *l, ptx_expr *e) {
  walk w = {fn, l, NULL, NULL, 0};
  return slope(&w, e);
}

static void dump_expr(FILE *f, const ptx_fn *fn, const ptx_loop *l, const ptx_expr *e) {
  static const char *ops[] = {[PX_ADD] = " + ", [PX_SUB] = " - ", [PX_MUL] = " * "};
  switch (e->op) {
  case PX_IMM: fprintf(f, "%lld", (long long)e->imm); break;
  case PX_INV: fprintf(f, "%s", fn->regs.name[e->reg]); break;
  case PX_IV: fprintf(f, "%s{k%s}", fn->regs.name[l->ivs[e->reg].reg], e->post ? "+1" : ""); break;
  case PX_EXT: fprintf(f, "%cext(", e->sext ? 's' : 'z'); dump_expr(f, fn, l, e->a); fputc(')', f); break;
  case PX_SHL: fputc('(', f); dump_expr(f, fn, l, e->a); fprintf(f, " << %lld)", (long long)e->imm); break;
  default:
    fputc('(', f);
    dump_expr(f, fn, l, e->a);
    fputs(ops[e->op], f);
    dump_expr(f, fn, l, e->b);
    fputc(')', f);
  }
}

void ptx_loop_dump(FILE *f, const ptx_fn *fn, const ptx_loop *l) {
  static const char *cmps[] = {"<", "<=", ">", ">=", "!=", "=="};
  fprintf(f, "  loop: blocks %d-%d, lines %d-%d%s\n", l->header, l->latch, fn->st[l->first]->line, fn->st[l->last]->line,
          l->cta_uniform ? ", one copy per CTA (barriers)" : "");
  for (int i = 0; i < l->nivs; i++) {
    fprintf(f, "    induction %s (%d bits), step ", fn->regs.name[l->ivs[i].reg], l->ivs[i].bits);
    dump_expr(f, fn, l, l->ivs[i].step);
    fputc('\n', f);
  }
  if (l->trip.iv < 0) {
    fprintf(f, "    trip count: unknown\n");
    return;
  }
  fprintf(f, "    again while %s%s", fn->regs.name[l->ivs[l->trip.iv].reg], l->trip.post ? "'" : "");
  if (l->trip.c) fprintf(f, " %c %.*s", l->trip.c_neg ? '-' : '+', (int)l->trip.c->len, l->trip.c->text);
  fprintf(f, " %s %.*s (%s %d-bit)\n", cmps[l->trip.cmp], (int)l->trip.n->len, l->trip.n->text,
          l->trip.is_signed ? "signed" : "unsigned", l->trip.bits);
}
