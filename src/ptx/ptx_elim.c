/* Check elimination (CUSAFE §4.4): neighbouring checks of one pointer in a
 * basic block collapse into one range check [min, max); a check dominated by
 * a check of the same pointer value covering its range is dropped. The
 * failure stub re-tests each member, so a merged check still names the exact
 * access that failed. */
#include "ptx_instr.h"

#include <gsan/abi.h>

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

static int same_root(const ptx_check *x, const ptx_check *y) {
  if (x->root.kind != y->root.kind || x->bits != y->bits || x->addr_reg != y->addr_reg ||
      x->addr_sym != y->addr_sym)
    return 0;
  if (x->root.kind == ROOT_SYMBOL) return x->root.sym == y->root.sym && (x->space == GSAN_SPACE_GENERIC) == (y->space == GSAN_SPACE_GENERIC);
  if (x->root.kind == ROOT_ARENA) return x->root.def == y->root.def;
  if (x->root.kind == ROOT_FRAME) return 0; /* each access tests its own word */
  return 1; /* ROOT_NONE: same address register value means same allocation */
}

static int same_guard(const ptx_fn *fn, const ptx_check *x, const ptx_check *y) {
  if (x->pred_reg < 0) return 1; /* an unguarded check covers guarded ones */
  return x->pred_reg == y->pred_reg && x->pred_neg == y->pred_neg && same_value(fn, x->pred_reg, x->stmt, y->stmt);
}

static int mergeable(const ptx_check *c) {
  return !c->always_fail && c->nmem == 1 && c->mem[0].width > 0;
}

static int call_between(const ptx_fn *fn, int a, int b) {
  for (int i = a + 1; i < b; i++)
    if (fn->st[i]->kind == ST_INSN && ptx_op_is(fn->st[i], "call")) return 1;
  return 0;
}

void ptx_eliminate(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st) {
  /* neighbouring: same block, same pointer value, same guard, no call between */
  for (int i = 0; i < n; i++) {
    if (c[i].removed || !mergeable(&c[i])) continue;
    for (int j = i + 1; j < n; j++) {
      if (fn->blk[c[j].stmt] != fn->blk[c[i].stmt]) break;
      if (c[j].removed || !mergeable(&c[j]) || !same_root(&c[i], &c[j])) continue;
      if (c[i].pred_reg != c[j].pred_reg || c[i].pred_neg != c[j].pred_neg) continue;
      if (!same_value(fn, c[i].addr_reg, c[i].stmt, c[j].stmt)) continue;
      if (c[i].pred_reg >= 0 && !same_value(fn, c[i].pred_reg, c[i].stmt, c[j].stmt)) continue;
      if (call_between(fn, c[i].stmt, c[j].stmt)) break;
      /* fold j into i: the merged range is checked at i's place */
      ptx_member *mem = ptx_alloc(fn->a, (size_t)(c[i].nmem + 1) * sizeof *mem);
      memcpy(mem, c[i].mem, (size_t)c[i].nmem * sizeof *mem);
      mem[c[i].nmem] = c[j].mem[0];
      c[i].mem = mem;
      c[i].nmem++;
      if (c[j].lo < c[i].lo) c[i].lo = c[j].lo;
      if (c[j].hi > c[i].hi) c[i].hi = c[j].hi;
      c[j].removed = 1;
      st->removed_merged++;
    }
  }
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
