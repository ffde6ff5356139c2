/* Clamped families: accesses of one block whose addresses are the same
 * expression with different constants added inside it. A 2D stencil with
 * replicated edges reads in[min(max(y+j, 0), h-1) * w + min(max(x+i, 0), w-1)]
 * for j, i in -3..3: 49 addresses, one expression, two varying constants.
 * Such an address is monotone in each constant (add, min, max, sign
 * extension, shifts and a multiply by an operand that does not vary keep
 * it so; a 32-bit add keeps it so while it does not wrap, which the check
 * tests), so every member lies between the lowest and the highest of the
 * members at the corners of the box the constants span. One check of the
 * corners, plus the no-wrap tests, covers the family when the corners are
 * members themselves (no address is tested that the program does not
 * access) and the addresses are less than 2^40 apart (the offsets between
 * the corners cannot wrap around the bounds).
 *
 * This file builds the expressions (ptx_family_expr), decides whether a
 * group is a family (ptx_family_plan) and writes expressions out as PTX
 * (ptx_family_value). ptx_elim.c forms the groups; ptx_emit.c writes the
 * check and its stub. docs/ptx.md has the argument in full. */
#include "ptx_family.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 24, MAX_NODES = 256 };
#define SPREAD_MAX (1ull << 40)
#define FAIL UINT64_MAX

typedef struct builder {
  ptx_fn *fn;
  ptx_fx **memo; /* per statement of the block: the node it defines */
  int first;     /* the block's first statement */
  int at;        /* where the expression is evaluated: the family's check */
  int nodes;
} builder;

static int64_t wrap(int64_t v, int bits) { return bits == 32 ? (int64_t)(int32_t)(uint32_t)v : v; }

static ptx_fx *node(builder *w, int op, int bits) {
  if (++w->nodes > MAX_NODES) return NULL;
  ptx_fx *x = ptx_alloc(w->fn->a, sizeof *x);
  x->op = op;
  x->bits = bits;
  x->reg = -1;
  return x;
}

static ptx_fx *imm_node(builder *w, int64_t v, int bits) {
  ptx_fx *x = node(w, FX_IMM, bits);
  if (x) x->imm = wrap(v, bits);
  return x;
}

/* x + v as a node of its own (nodes are shared between members) */
static ptx_fx *plus(builder *w, ptx_fx *x, int64_t v) {
  if (!x) return NULL;
  if (x->op == FX_IMM) return imm_node(w, x->imm + v, x->bits);
  ptx_fx *y = node(w, x->op, x->bits);
  if (!y) return NULL;
  *y = *x;
  y->add = wrap((int64_t)((uint64_t)x->add + (uint64_t)v), x->bits);
  return y;
}

/* Does reg hold at statement `at` the value it holds at statement use? */
static int same_at(const builder *w, int reg, int use) {
  if (use >= w->at) return ptx_last_write(w->fn, reg, use) < w->at;
  return ptx_last_write(w->fn, reg, w->at) < use;
}

static ptx_fx *build_reg(builder *w, int reg, int use, int bits, int depth);

/* operand k of statement si: a literal, or a register of the given width */
static ptx_fx *operand(builder *w, int si, int k, int bits, int depth) {
  const ptx_stmt *s = w->fn->st[si];
  int64_t v;
  if (ptx_opnd_int(s, k, &v)) return imm_node(w, v, bits);
  const ptx_tok *t = ptx_opnd_tok(s, k);
  int r = t ? ptx_tok_reg(w->fn, t) : -1;
  if (r < 0 || w->fn->regs.bits[r] != bits) return NULL;
  return build_reg(w, r, si, bits, depth);
}

static ptx_fx *binary(builder *w, int op, int bits, int sgn, ptx_fx *a, ptx_fx *b) {
  if (!a || !b) return NULL;
  ptx_fx *x = node(w, op, bits);
  if (!x) return NULL;
  x->sgn = sgn;
  x->a = a;
  x->b = b;
  return x;
}

/* The value statement si writes, from the operations an index goes
 * through: mov, cvta to global, add/sub, min/max, the widening cvt,
 * mul.lo/mul.wide/mad, shl by a literal. NULL for anything else. */
static ptx_fx *build_def(builder *w, int si, int depth) {
  ptx_fn *fn = w->fn;
  const ptx_stmt *s = fn->st[si];
  if (s->kind != ST_INSN || s->pred >= 0 || s->nopnd < 2 || !ptx_opnd_tok(s, 0)) return NULL;
  int dst = ptx_tok_reg(fn, ptx_opnd_tok(s, 0));
  if (dst < 0) return NULL;
  int bits = fn->regs.bits[dst];
  if (bits != 32 && bits != 64) return NULL;
  if (ptx_op_has(s, ".sat") || ptx_op_has(s, ".cc") || ptx_op_has(s, ".relu") || ptx_op_has(s, ".f32") ||
      ptx_op_has(s, ".f64"))
    return NULL;
  int sgn = ptx_op_has(s, ".s32") || ptx_op_has(s, ".s64");
  int d = depth + 1;
  if (s->nopnd == 2) {
    if (ptx_op_is(s, "mov") || (ptx_op_is(s, "cvta") && ptx_op_has(s, ".to") && ptx_op_has(s, ".global")))
      return operand(w, si, 1, bits, d);
    if (ptx_op_is(s, "cvt") && bits == 64 && (ptx_op_has(s, ".s64") || ptx_op_has(s, ".u64")) &&
        (ptx_op_has(s, ".s32") || ptx_op_has(s, ".u32"))) {
      ptx_fx *x = node(w, FX_CVT, 64);
      if (!x || !(x->a = operand(w, si, 1, 32, d))) return NULL;
      x->sgn = ptx_op_has(s, ".s32");
      return x;
    }
    return NULL;
  }
  int wide = ptx_op_has(s, ".wide"), ob = wide ? 32 : bits;
  if (wide && bits != 64) return NULL;
  if (s->nopnd == 3 && (ptx_op_is(s, "add") || ptx_op_is(s, "sub")) && !wide) {
    int sub = ptx_op_is(s, "sub");
    int64_t v;
    if (ptx_opnd_int(s, 2, &v)) return plus(w, operand(w, si, 1, bits, d), sub ? -v : v);
    if (!sub && ptx_opnd_int(s, 1, &v)) return plus(w, operand(w, si, 2, bits, d), v);
    return binary(w, sub ? FX_SUB : FX_ADD, bits, sgn, operand(w, si, 1, bits, d), operand(w, si, 2, bits, d));
  }
  if (s->nopnd == 3 && (ptx_op_is(s, "min") || ptx_op_is(s, "max")) && !wide)
    return binary(w, ptx_op_is(s, "min") ? FX_MIN : FX_MAX, bits, sgn, operand(w, si, 1, bits, d),
                  operand(w, si, 2, bits, d));
  if (s->nopnd == 3 && ptx_op_is(s, "shl") && !wide) {
    int64_t k;
    if (!ptx_opnd_int(s, 2, &k) || k <= 0 || k >= bits) return NULL;
    ptx_fx *x = node(w, FX_SHL, bits);
    if (!x || !(x->a = operand(w, si, 1, bits, d))) return NULL;
    x->imm = k;
    return x;
  }
  if ((ptx_op_is(s, "mul") && s->nopnd == 3) || (ptx_op_is(s, "mad") && s->nopnd == 4)) {
    if (!wide && !ptx_op_has(s, ".lo")) return NULL;
    ptx_fx *p = binary(w, wide ? FX_MULW : FX_MUL, bits, sgn, operand(w, si, 1, ob, d), operand(w, si, 2, ob, d));
    if (s->nopnd == 3 || !p) return p;
    return binary(w, FX_ADD, bits, sgn, p, operand(w, si, 3, bits, d));
  }
  return NULL;
}

/* reg as used at statement use: the expression of its last definition in
 * the block, or else the register itself if it holds the same value at
 * the check */
static ptx_fx *build_reg(builder *w, int reg, int use, int bits, int depth) {
  if (depth > MAX_DEPTH) return NULL;
  int si = ptx_last_write(w->fn, reg, use);
  const ptx_tok *d0 = si >= 0 ? ptx_opnd_tok(w->fn->st[si], 0) : NULL;
  if (si >= 0 && (!d0 || ptx_tok_reg(w->fn, d0) != reg)) si = -1; /* written, not as the result: no expression */
  /* cvta's source would do as well, but its own register is what the
   * program's address arithmetic reads: ptxas then shares the work */
  if (si >= 0 && !ptx_op_is(w->fn->st[si], "cvta")) {
    ptx_fx **m = &w->memo[si - w->first];
    if (!*m) *m = build_def(w, si, depth);
    if (*m) return *m;
  }
  if (!same_at(w, reg, use)) {
    if (si < 0 || !ptx_op_is(w->fn->st[si], "cvta")) return NULL;
    ptx_fx **m = &w->memo[si - w->first];
    if (!*m) *m = build_def(w, si, depth);
    return *m;
  }
  ptx_fx *x = node(w, FX_REG, bits);
  if (x) x->reg = reg;
  return x;
}

ptx_fx *ptx_family_expr(ptx_fn *fn, ptx_fx **memo, int reg, int use, int at) {
  builder w = {fn, memo, fn->b[fn->blk[at]].first, at, 0};
  return build_reg(&w, reg, use, fn->regs.bits[reg], 0);
}

int ptx_family_same_shape(const ptx_fx *a, const ptx_fx *b) {
  if (!a || !b) return a == b;
  if (a->op != b->op || a->bits != b->bits || a->sgn != b->sgn || a->reg != b->reg) return 0;
  if ((a->op == FX_IMM || a->op == FX_SHL) && a->imm != b->imm) return 0;
  return ptx_family_same_shape(a->a, b->a) && ptx_family_same_shape(a->b, b->b);
}

/* ---- is it a family? ---- */

static int count_pos(const ptx_fx *x) { return x ? 1 + count_pos(x->a) + count_pos(x->b) : 0; }

/* the constants added, node by node in preorder: a member's position */
static void positions(const ptx_fx *x, int64_t *v, int *k) {
  if (!x) return;
  v[(*k)++] = x->add;
  positions(x->a, v, k);
  positions(x->b, v, k);
}

typedef struct plan {
  const int64_t *lo, *hi; /* per position, over the members */
  ptx_family *f;
} plan;

/* a bound on |x| for x the same in every member, FAIL if none is known */
static uint64_t magnitude(const ptx_fx *x) {
  if (x->op == FX_IMM) return x->imm < 0 ? (uint64_t)0 - (uint64_t)x->imm : (uint64_t)x->imm;
  if (x->bits == 32) return 1ull << 31;
  if (x->op == FX_CVT && x->add == 0) return x->sgn ? 1ull << 31 : 1ull << 32;
  return FAIL;
}

/* How far apart x's values can be over the box (0: the same everywhere),
 * FAIL where x is not monotone in each constant or too spread; records
 * the 32-bit additions that must not wrap. */
static uint64_t spread(plan *p, ptx_fx *x, int *k) {
  int me = (*k)++;
  uint64_t sa = 0, sb = 0, s = 0;
  if (x->a && (sa = spread(p, x->a, k)) == FAIL) return FAIL;
  if (x->b && (sb = spread(p, x->b, k)) == FAIL) return FAIL;
  int vary = sa || sb;
  switch (x->op) {
  case FX_REG:
  case FX_IMM: break;
  case FX_ADD:
  case FX_SUB: /* 64-bit: exact modulo 2^64; 32-bit could wrap */
    if (vary && x->bits == 32) return FAIL;
    s = sa + sb;
    break;
  case FX_MIN:
  case FX_MAX: /* never wraps; monotone in the signed order the adds keep */
    if (vary && (x->bits != 32 || !x->sgn)) return FAIL;
    s = sa > sb ? sa : sb;
    break;
  case FX_CVT:
    if (vary && !x->sgn) return FAIL;
    s = sa;
    break;
  case FX_MULW:
  case FX_MUL: {
    if (!vary) break;
    if ((sa && sb) || (x->op == FX_MULW ? !x->sgn : x->bits == 32)) return FAIL;
    uint64_t m = magnitude(sa ? x->b : x->a), v = sa ? sa : sb;
    if (m == FAIL || (m && v > SPREAD_MAX / m)) return FAIL;
    s = v * m;
    break;
  }
  case FX_SHL:
    if (vary && x->bits == 32) return FAIL;
    if (sa > (SPREAD_MAX >> x->imm)) return FAIL;
    s = sa << x->imm;
    break;
  default: return FAIL;
  }
  uint64_t d = (uint64_t)p->hi[me] - (uint64_t)p->lo[me];
  if (d) {
    if (x->bits == 32) { /* x = core + c: test that core + lo .. core + hi do not wrap */
      if (s || p->f->ntest == PTX_FAMILY_DIMS) return FAIL;
      p->f->test[p->f->ntest].x = x;
      p->f->test[p->f->ntest].lo = p->lo[me];
      p->f->test[p->f->ntest].hi = p->hi[me];
      p->f->ntest++;
    }
    s += d;
  } else if (x->bits == 32 && s && x->add) {
    return FAIL; /* a constant added to a varying 32-bit value could wrap */
  }
  return s > SPREAD_MAX ? FAIL : s;
}

ptx_family *ptx_family_plan(ptx_arena *a, ptx_fx **x, int n) {
  int np = count_pos(x[0]);
  if (n < 2 || n > PTX_FAMILY_MEMBERS || np <= 0) return NULL;
  int64_t *pos = malloc((size_t)n * (size_t)np * sizeof *pos), *lo = malloc((size_t)np * 2 * sizeof *lo), *hi = lo + np;
  ptx_family *f = NULL;
  if (!pos || !lo) goto out;
  for (int m = 0; m < n; m++) {
    int k = 0;
    positions(x[m], pos + (size_t)m * np, &k);
  }
  int var[PTX_FAMILY_DIMS], nvar = 0;
  for (int k = 0; k < np; k++) {
    lo[k] = hi[k] = pos[k];
    for (int m = 1; m < n; m++) {
      int64_t v = pos[(size_t)m * np + k];
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
    if (lo[k] == hi[k]) continue;
    if (nvar == PTX_FAMILY_DIMS || (uint64_t)hi[k] - (uint64_t)lo[k] > (1u << 20)) goto out;
    var[nvar++] = k;
  }
  f = ptx_alloc(a, sizeof *f);
  plan p = {lo, hi, f};
  int k = 0;
  if (spread(&p, x[0], &k) == FAIL) goto fail;
  /* the corners must be members */
  for (int c = 0; c < 1 << nvar; c++) {
    int found = -1;
    for (int m = 0; m < n && found < 0; m++) {
      int ok = 1;
      for (int v = 0; v < nvar && ok; v++)
        ok = pos[(size_t)m * np + var[v]] == ((c >> v & 1) ? hi[var[v]] : lo[var[v]]);
      if (ok) found = m;
    }
    if (found < 0) goto fail;
    f->corner[f->ncorner++] = found;
  }
  goto out;
fail:
  f = NULL;
out:
  free(pos);
  free(lo);
  return f;
}

/* ---- as PTX ---- */

static const char *fresh(ptx_fstate *fs, int bits) {
  return bits == 32 ? ptx_printf(fs->fn.a, "%%gsan_r%d", fs->nr32++) : ptx_printf(fs->fn.a, "%%gsan_rd%d", fs->nrd++);
}

static const char *core(ptx_fstate *fs, ptx_buf *b, ptx_fx *x) {
  ptx_arena *a = fs->fn.a;
  if (x->gen == fs->family.gen && x->core) return x->core;
  if (x->gen != fs->family.gen) x->gen = fs->family.gen, x->txt = NULL;
  const char *r;
  if (x->op == FX_REG) {
    r = fs->fn.regs.name[x->reg];
  } else if (x->op == FX_IMM) {
    r = ptx_printf(a, "%lld", (long long)x->imm);
  } else {
    const char *oa = ptx_family_value(fs, b, x->a), *ob = x->b ? ptx_family_value(fs, b, x->b) : NULL;
    char t = x->sgn ? 's' : 'u';
    r = fresh(fs, x->bits);
    switch (x->op) {
    case FX_ADD: ptx_bprintf(b, "\tadd.s%d \t%s, %s, %s;\n", x->bits, r, oa, ob); break;
    case FX_SUB: ptx_bprintf(b, "\tsub.s%d \t%s, %s, %s;\n", x->bits, r, oa, ob); break;
    case FX_MIN: ptx_bprintf(b, "\tmin.%c%d \t%s, %s, %s;\n", t, x->bits, r, oa, ob); break;
    case FX_MAX: ptx_bprintf(b, "\tmax.%c%d \t%s, %s, %s;\n", t, x->bits, r, oa, ob); break;
    case FX_CVT: ptx_bprintf(b, "\tcvt.%c64.%c32 \t%s, %s;\n", t, t, r, oa); break;
    case FX_MULW: ptx_bprintf(b, "\tmul.wide.%c32 \t%s, %s, %s;\n", t, r, oa, ob); break;
    case FX_MUL: ptx_bprintf(b, "\tmul.lo.s%d \t%s, %s, %s;\n", x->bits, r, oa, ob); break;
    default: ptx_bprintf(b, "\tshl.b%d \t%s, %s, %lld;\n", x->bits, r, oa, (long long)x->imm); break;
    }
  }
  return x->core = r;
}

const char *ptx_family_core(ptx_fstate *fs, ptx_buf *b, ptx_fx *x) { return core(fs, b, x); }

const char *ptx_family_value(ptx_fstate *fs, ptx_buf *b, ptx_fx *x) {
  const char *c = core(fs, b, x); /* starts x's generation */
  if (x->txt) return x->txt;
  if (!x->add) return x->txt = c;
  const char *r = fresh(fs, x->bits);
  ptx_bprintf(b, "\tadd.s%d \t%s, %s, %lld;\n", x->bits, r, c, (long long)x->add);
  return x->txt = r;
}
