/* Check elimination (CUSAFE §4.4): neighbouring checks of one pointer in a
 * basic block collapse into one range check [min, max); a check dominated by
 * a check of the same pointer value covering its range is dropped. The
 * failure stub re-tests each member, so a merged check still names the exact
 * access that failed.
 *
 * Stride chains, after the loops' pre-checks are planned (a merged check
 * could no longer be made before its loop): in a block, address registers
 * built one from another by adding the same register S (nvcc's fully
 * unrolled `for (y = 0; y < 32; y++) t[y][x] = g[y * n + x]` is 32 loads
 * through A, A + S, A + 2S, ...) are members of one check at the first,
 * whose addresses are A + k*S + imm. It tests the lowest and the highest k
 * with the members' whole range of imm, and |S| small enough that the
 * addresses between cannot wrap: then every member lies between two
 * addresses in bounds. */
#include "ptx_elim.h"

#include "ptx_family.h"

#include <gsan/abi.h>

#include <stdlib.h>
#include <string.h>

/* Does register reg hold the same value at statements a and b (a before b)?
 * In one block: when no statement from a up to b writes it, however many
 * definitions reach the block (a loop's induction pointer has two). */
static int same_value(const ptx_fn *fn, int reg, int a, int b) {
  if (reg < 0) return 1;
  if (fn->blk[a] == fn->blk[b]) {
    for (int i = a; i < b; i++)
      for (int d = fn->stmt_def0[i]; d < fn->stmt_def0[i + 1]; d++)
        if (fn->def[d].reg == reg) return 0;
    return 1;
  }
  int da, db;
  if (ptx_reaching(fn, a, reg, &da, 1) != 1 || ptx_reaching(fn, b, reg, &db, 1) != 1 || da != db) return 0;
  return fn->reg_ndefs[reg] == 1; /* one static definition: the value never changes */
}

/* Are x and y checked against the same bounds? Their address registers
 * may differ (stride chains), except without a root, where the address
 * itself is looked up: the same register value is the same allocation. */
static int same_bounds(const ptx_check *x, const ptx_check *y) {
  if (x->root.kind != y->root.kind || x->bits != y->bits || x->addr_sym != y->addr_sym) return 0;
  if (x->root.kind == ROOT_SYMBOL) return x->root.sym == y->root.sym && (x->space == GSAN_SPACE_GENERIC) == (y->space == GSAN_SPACE_GENERIC);
  if (x->root.kind == ROOT_ARENA) return x->root.def == y->root.def;
  if (x->root.kind == ROOT_FRAME) return 0; /* each access tests its own word */
  return x->addr_reg == y->addr_reg;
}

static int same_root(const ptx_check *x, const ptx_check *y) { return same_bounds(x, y) && x->addr_reg == y->addr_reg; }

static int same_guard(const ptx_fn *fn, const ptx_check *x, const ptx_check *y) {
  if (x->pred_reg < 0) return 1; /* an unguarded check covers guarded ones */
  return x->pred_reg == y->pred_reg && x->pred_neg == y->pred_neg && same_value(fn, x->pred_reg, x->stmt, y->stmt);
}

static int mergeable(const ptx_check *c) {
  if (c->removed || c->hoisted || c->always_fail || c->step_reg >= 0 || c->fam) return 0;
  for (int k = 0; k < c->nmem; k++)
    if (c->mem[k].width <= 0) return 0;
  return 1;
}

static int call_between(const ptx_fn *fn, int a, int b) {
  for (int i = a + 1; i < b; i++)
    if (fn->st[i]->kind == ST_INSN && ptx_op_is(fn->st[i], "call")) return 1;
  return 0;
}

/* A check's address register as head + k * step + imm, where each link
 * is an unpredicated add in the check's block: `add R, X, S` (one more
 * step) or `add R, X, imm`. from and sfrom are the first statements the
 * chain reads head and step at; step is -1 when no link adds a register. */
typedef struct chain {
  int head, step;
  int64_t k, imm;
  int from, sfrom;
} chain;

/* walk 0: the address register itself, no links followed */
static chain chain_of(const ptx_fn *fn, const ptx_check *c, int walk) {
  chain ch = {c->addr_reg, -1, 0, 0, c->stmt, c->stmt};
  if (!walk || c->addr_reg < 0) return ch;
  const char *sty = c->bits == 32 ? ".s32" : ".s64", *uty = c->bits == 32 ? ".u32" : ".u64";
  for (int links = 0; links < PTX_CHAIN_LINKS; links++) {
    int i = ptx_last_write(fn, ch.head, ch.from);
    if (i < 0) break;
    const ptx_stmt *s = fn->st[i];
    if (s->kind != ST_INSN || s->pred >= 0 || !ptx_op_is(s, "add") || s->nopnd != 3) break;
    if (!ptx_op_has(s, sty) && !ptx_op_has(s, uty)) break;
    const ptx_tok *x = ptx_opnd_tok(s, 1), *y = ptx_opnd_tok(s, 2);
    int xr = x ? ptx_tok_reg(fn, x) : -1, yr = y ? ptx_tok_reg(fn, y) : -1;
    int64_t v;
    if (xr < 0 || fn->regs.bits[xr] != c->bits) break;
    if (ptx_opnd_int(s, 2, &v)) {
      if (c->bits == 32) v = (int32_t)v;
      ch.imm += v;
    } else if (yr >= 0 && yr != xr && (ch.step < 0 || (ch.step == yr && same_value(fn, yr, i, ch.sfrom)))) {
      ch.step = yr;
      ch.k++;
      ch.sfrom = i;
    } else {
      break;
    }
    ch.head = xr;
    ch.from = i;
  }
  return ch;
}

static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/* Does register reg keep one value from statement a to b (a < b, one block)? */
static int unwritten(const ptx_fn *fn, int reg, int a, int b) { return reg < 0 || same_value(fn, reg, a, b); }

/* x's members as members of a check of head + k * step: c's chain */
static void rebase(ptx_check *x, const chain *c) {
  for (int k = 0; k < x->nmem; k++) x->mem[k].n = c->k, x->mem[k].imm += c->imm;
  x->lo += c->imm, x->hi += c->imm;
  x->nlo = x->nhi = c->k;
  x->addr_reg = c->head;
}

/* Neighbouring checks of one block fold into the first: the same bounds
 * and guard, no call between, and the same address register (chains 0)
 * or the same head and step (chains 1), unwritten from where the chains
 * read them to the last member. */
static void merge_neighbours(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st, int chains) {
  for (int i = 0; i < n; i++) {
    if (!mergeable(&c[i])) continue;
    /* without a root the address itself is looked up: no chains */
    if (chains && c[i].root.kind == ROOT_NONE) continue;
    chain ci = chain_of(fn, &c[i], chains);
    for (int j = i + 1; j < n; j++) {
      if (fn->blk[c[j].stmt] != fn->blk[c[i].stmt]) break;
      if (!mergeable(&c[j]) || !same_bounds(&c[i], &c[j])) continue;
      if (c[i].pred_reg != c[j].pred_reg || c[i].pred_neg != c[j].pred_neg) continue;
      if (c[i].pred_reg >= 0 && !same_value(fn, c[i].pred_reg, c[i].stmt, c[j].stmt)) continue;
      chain cj = chain_of(fn, &c[j], chains);
      int step = ci.step >= 0 ? ci.step : cj.step;
      if (ci.head != cj.head || (ci.step >= 0 && cj.step >= 0 && ci.step != cj.step)) continue;
      if (c[i].bits == 32 && (llabs(ci.imm) >= (1 << 30) || llabs(cj.imm) >= (1 << 30))) continue;
      /* at i's check, head and step hold the values every link read */
      int from = min3(c[i].stmt, ci.from, cj.from), sfrom = min3(c[i].stmt, ci.sfrom, cj.sfrom);
      if (!unwritten(fn, ci.head, from, c[j].stmt) || !unwritten(fn, step, sfrom, c[j].stmt)) continue;
      if (call_between(fn, c[i].stmt, c[j].stmt)) break;
      if (c[i].addr_reg != ci.head || ci.imm) { /* once: i's members relative to the head */
        rebase(&c[i], &ci);
        ci.k = 0, ci.imm = 0, ci.from = from, ci.sfrom = sfrom;
      }
      if (step >= 0) c[i].step_reg = ci.step = step;
      /* fold j into i: the merged range is checked at i's place */
      rebase(&c[j], &cj);
      ptx_member *mem = ptx_alloc(fn->a, (size_t)(c[i].nmem + c[j].nmem) * sizeof *mem);
      memcpy(mem, c[i].mem, (size_t)c[i].nmem * sizeof *mem);
      memcpy(mem + c[i].nmem, c[j].mem, (size_t)c[j].nmem * sizeof *mem);
      c[i].mem = mem;
      c[i].nmem += c[j].nmem;
      if (c[j].lo < c[i].lo) c[i].lo = c[j].lo;
      if (c[j].hi > c[i].hi) c[i].hi = c[j].hi;
      if (c[j].nlo < c[i].nlo) c[i].nlo = c[j].nlo;
      if (c[j].nhi > c[i].nhi) c[i].nhi = c[j].nhi;
      c[j].removed = 1;
      if (chains) st->removed_chained++;
      else st->removed_merged++;
    }
  }
}

void ptx_merge_chains(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st) { merge_neighbours(fn, c, n, st, 1); }

/* a check that can lead or join a clamped family: one fixed-width access
 * through a 64-bit register, with a root (ptx_family.c) */
static int family_candidate(const ptx_check *c) {
  return mergeable(c) && c->nmem == 1 && c->bits == 64 && c->addr_reg >= 0 &&
         (c->root.kind == ROOT_ARENA || c->root.kind == ROOT_SYMBOL);
}

/* Checks of a block after i's with i's bounds, guard, immediate and width,
 * no call between, and an address of the same shape as i's, evaluated at
 * i's check, join i when ptx_family.c finds the corners that cover them. */
void ptx_merge_families(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st) {
  ptx_fx **x = malloc(PTX_FAMILY_MEMBERS * sizeof *x), **memo = NULL;
  int *idx = malloc(PTX_FAMILY_MEMBERS * sizeof *idx);
  for (int i = 0; i < n && x && idx; i++) {
    if (!family_candidate(&c[i])) continue;
    const ptx_block *blk = &fn->b[fn->blk[c[i].stmt]];
    free(memo);
    memo = calloc((size_t)(blk->last - blk->first + 1), sizeof *memo);
    if (!memo) break;
    int nm = 0;
    x[nm] = ptx_family_expr(fn, memo, c[i].addr_reg, c[i].stmt, c[i].stmt);
    idx[nm++] = i;
    if (!x[0]) continue;
    /* a window of checks, so that a block of thousands costs linear time */
    for (int j = i + 1; j < n && j <= i + 4 * PTX_FAMILY_MEMBERS && nm < PTX_FAMILY_MEMBERS; j++) {
      if (fn->blk[c[j].stmt] != fn->blk[c[i].stmt]) break;
      if (call_between(fn, c[i].stmt, c[j].stmt)) break;
      if (!family_candidate(&c[j]) || !same_bounds(&c[i], &c[j])) continue;
      if (c[i].pred_reg != c[j].pred_reg || c[i].pred_neg != c[j].pred_neg) continue;
      if (c[i].pred_reg >= 0 && !same_value(fn, c[i].pred_reg, c[i].stmt, c[j].stmt)) continue;
      if (c[j].lo != c[i].lo || c[j].hi != c[i].hi || c[j].mem[0].width != c[i].mem[0].width) continue;
      ptx_fx *xj = ptx_family_expr(fn, memo, c[j].addr_reg, c[j].stmt, c[i].stmt);
      if (!ptx_family_same_shape(x[0], xj)) continue;
      x[nm] = xj;
      idx[nm++] = j;
    }
    if (nm < 3) continue;
    ptx_family *f = ptx_family_plan(fn->a, x, nm);
    if (!f || f->ncorner >= nm) continue;
    ptx_member *mem = ptx_alloc(fn->a, (size_t)nm * sizeof *mem);
    for (int k = 0; k < nm; k++) {
      mem[k] = c[idx[k]].mem[0];
      mem[k].x = x[k];
      if (k) c[idx[k]].removed = 1;
    }
    c[i].mem = mem;
    c[i].nmem = nm;
    c[i].fam = f;
    st->removed_family += nm - 1;
  }
  free(memo);
  free(x);
  free(idx);
}

void ptx_eliminate(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st) {
  merge_neighbours(fn, c, n, st, 0);
  /* dominated: an earlier check of the same value covering the range */
  for (int j = 0; j < n; j++) {
    if (c[j].removed || c[j].always_fail || c[j].mem[0].width == 0) continue;
    for (int i = 0; i < j; i++) {
      if (c[i].removed || c[i].always_fail || c[i].mem[0].width == 0 || !same_root(&c[i], &c[j])) continue;
      if (c[i].lo > c[j].lo || c[i].hi < c[j].hi) continue;
      if (!ptx_stmt_dominates(fn, c[i].stmt, c[j].stmt) || c[i].stmt == c[j].stmt) continue;
      if (!same_guard(fn, &c[i], &c[j]) || !same_value(fn, c[i].addr_reg, c[i].stmt, c[j].stmt)) continue;
      c[j].removed = 1;
      st->removed_dominated += c[j].nmem;
      break;
    }
  }
}
