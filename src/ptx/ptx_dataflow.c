/* Reaching definitions. Most registers in compiler-written PTX have a single
 * definition, which reaches every use it dominates; only registers written
 * more than once (loop-carried values, merges) take part in the bit-vector
 * dataflow, which keeps it small on very large functions. */
#include "ptx_ir.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RD_WORDS (64u << 20) /* 512 MiB of bits is the most we will spend */

int ptx_fn_reaching_init(ptx_fn *fn) {
  fn->multi_idx = ptx_alloc(fn->a, (size_t)(fn->ndef + 1) * sizeof(int));
  int nm = 0;
  for (int i = 0; i < fn->ndef; i++)
    fn->multi_idx[i] = fn->reg_ndefs[fn->def[i].reg] > 1 ? nm++ : -1;
  fn->nmulti = nm;
  fn->words = (nm + 63) / 64;
  if (!nm) return 0;
  if ((uint64_t)fn->words * (uint64_t)fn->nblk * 3 > MAX_RD_WORDS) {
    fn->why = "function too large for reaching definitions";
    return -1;
  }
  int W = fn->words, nb = fn->nblk;
  uint64_t *gen = calloc((size_t)nb * W, 8), *kill = calloc((size_t)nb * W, 8);
  fn->rd_in = calloc((size_t)nb * W, 8);
  uint64_t *out = calloc((size_t)nb * W, 8);
  for (int k = 0; k < nb; k++) {
    ptx_block *b = &fn->b[k];
    uint64_t *g = gen + (size_t)k * W, *kl = kill + (size_t)k * W;
    for (int s = b->first; s >= 0 && s <= b->last; s++)
      for (int d = fn->stmt_def0[s]; d < fn->stmt_def0[s + 1]; d++) {
        int bit = fn->multi_idx[d];
        if (bit < 0) continue;
        int r = fn->def[d].reg;
        for (int e = 0; e < fn->reg_ndefs[r]; e++) {
          int ob = fn->multi_idx[fn->reg_defs[r][e]];
          g[ob / 64] &= ~(1ull << (ob % 64));
          kl[ob / 64] |= 1ull << (ob % 64);
        }
        g[bit / 64] |= 1ull << (bit % 64);
      }
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < fn->norder; i++) {
      int k = fn->order[i];
      uint64_t *in = fn->rd_in + (size_t)k * W, *o = out + (size_t)k * W;
      for (int e = 0; e < fn->b[k].npred; e++) {
        uint64_t *po = out + (size_t)fn->b[k].pred[e] * W;
        for (int w = 0; w < W; w++) in[w] |= po[w];
      }
      uint64_t *g = gen + (size_t)k * W, *kl = kill + (size_t)k * W;
      for (int w = 0; w < W; w++) {
        uint64_t v = g[w] | (in[w] & ~kl[w]);
        if (v != o[w]) { o[w] = v; changed = 1; }
      }
    }
  }
  free(gen); free(kill); free(out);
  return 0;
}

int ptx_reaching(const ptx_fn *fn, int s, int reg, int *out, int max) {
  if (reg < 0 || reg >= fn->regs.n) return 0;
  int nd = fn->reg_ndefs[reg];
  if (nd == 0) return 0;
  if (nd == 1) {
    out[0] = fn->reg_defs[reg][0];
    return 1;
  }
  int k = fn->blk[s];
  /* the last definition earlier in the same block wins */
  for (int i = s - 1; i >= fn->b[k].first; i--)
    for (int d = fn->stmt_def0[i]; d < fn->stmt_def0[i + 1]; d++)
      if (fn->def[d].reg == reg) {
        out[0] = d;
        return 1;
      }
  int cnt = 0;
  const uint64_t *in = fn->rd_in + (size_t)k * fn->words;
  for (int e = 0; e < nd; e++) {
    int d = fn->reg_defs[reg][e], bit = fn->multi_idx[d];
    if (in[bit / 64] >> (bit % 64) & 1) {
      if (cnt < max) out[cnt] = d;
      cnt++;
    }
  }
  return cnt;
}

int ptx_last_write(const ptx_fn *fn, int reg, int before) {
  int first = fn->b[fn->blk[before]].first;
  for (int i = before - 1; i >= first; i--)
    for (int d = fn->stmt_def0[i]; d < fn->stmt_def0[i + 1]; d++)
      if (fn->def[d].reg == reg) return i;
  return -1;
}

uint8_t *ptx_call_writes(const ptx_fn *fn) {
  uint8_t *w = calloc((size_t)(fn->regs.n ? fn->regs.n : 1), 1);
  if (!w) abort();
  for (int i = 0; i < fn->nst; i++) {
    const ptx_stmt *c = fn->st[i];
    if (c->kind != ST_INSN || !ptx_op_is(c, "call") || !c->nopnd || !ptx_tok_punct(&c->toks[c->opnd[0].lo], '('))
      continue;
    for (int k = c->opnd[0].lo; k < c->opnd[0].hi; k++) {
      int r = ptx_tok_reg(fn, &c->toks[k]);
      if (r >= 0) w[r] = 1;
    }
  }
  return w;
}
