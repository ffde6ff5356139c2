/* Root-pointer analysis (cuCatch, GPUArmor §6.2): walks an address back
 * through its reaching definitions and the arithmetic that carries a pointer
 * (add, sub, mad, mov, cvta, cvt, selp, and, or, xor) to where the pointer
 * came from: a parameter, a load from memory, a variable. The runtime lookup
 * for that root then happens once, where the root is defined. */
#include "ptx_ir.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROOTS 4

typedef struct rset {
  int n;
  int overflow;   /* more roots than tracked: ambiguous */
  ptx_root r[MAX_ROOTS];
  int ptrlike[MAX_ROOTS];
} rset;

struct ptx_rootwalk {
  ptx_fn *fn;
  uint8_t *state;   /* per def: 0 new, 1 in progress, 2 done */
  rset *memo;
  uint8_t *ptrreg;  /* per register: used as an address or converted with cvta */
};
typedef struct ptx_rootwalk walker;

static int same_root(const ptx_root *a, const ptx_root *b) {
  return a->kind == b->kind && (a->kind == ROOT_SYMBOL ? a->sym == b->sym : a->def == b->def);
}

static void rs_add(rset *s, ptx_root r, int ptrlike) {
  for (int i = 0; i < s->n; i++)
    if (same_root(&s->r[i], &r)) { s->ptrlike[i] |= ptrlike; return; }
  if (s->n == MAX_ROOTS) { s->overflow = 1; return; }
  s->r[s->n] = r;
  s->ptrlike[s->n++] = ptrlike;
}

static void rs_union(rset *s, const rset *o) {
  if (o->overflow) s->overflow = 1;
  for (int i = 0; i < o->n; i++) rs_add(s, o->r[i], o->ptrlike[i]);
}

static int rs_any_ptrlike(const rset *s) {
  for (int i = 0; i < s->n; i++)
    if (s->ptrlike[i]) return 1;
  return 0;
}

static ptx_symbol *symbol_of(ptx_fn *fn, const ptx_tok *t) {
  if (t->kind != TK_IDENT || t->text[0] == '%') return NULL;
  ptx_symbol *s = ptx_find_symbol(&fn->syms, t->text, t->len);
  return s ? s : ptx_find_symbol(&fn->m->symbols, t->text, t->len);
}

static void walk_reg(walker *w, int stmt, const ptx_tok *t, rset *out);

static void walk_def(walker *w, int d, rset *out) {
  if (w->state[d] == 2) { rs_union(out, &w->memo[d]); return; }
  if (w->state[d] == 1) return; /* a cycle: the other paths decide */
  w->state[d] = 1;
  ptx_fn *fn = w->fn;
  int si = fn->def[d].stmt;
  const ptx_stmt *s = fn->st[si];
  rset res = {0};
  const ptx_tok *o1 = s->nopnd > 1 ? &s->toks[s->opnd[1].lo] : NULL;
  int bits = fn->regs.bits[fn->def[d].reg];
  ptx_root root = {ROOT_ARENA, d, NULL, 0};
  if (ptx_op_is(s, "ld") || ptx_op_is(s, "ldu")) {
    /* a pointer loaded from memory or passed as a parameter */
    if (bits == 64 && s->nopnd == 2 && !ptx_tok_punct(&s->toks[s->opnd[0].lo], '{'))
      rs_add(&res, root, w->ptrreg[fn->def[d].reg]);
  } else if (ptx_op_is(s, "mov") || ptx_op_is(s, "cvta") || ptx_op_is(s, "cvt")) {
    ptx_symbol *sym = o1 && s->opnd[1].hi - s->opnd[1].lo == 1 ? symbol_of(fn, o1) : NULL;
    if (sym) {
      ptx_root r = {ROOT_SYMBOL, -1, sym, sym->space};
      rs_add(&res, r, 1);
    } else if (o1 && s->opnd[1].hi - s->opnd[1].lo == 1 && !(ptx_op_is(s, "cvt") && bits < 32)) {
      rset sub = {0};
      walk_reg(w, si, o1, &sub);
      if (ptx_op_is(s, "cvta"))
        for (int i = 0; i < sub.n; i++) sub.ptrlike[i] = 1;
      rs_union(&res, &sub);
    }
  } else if (ptx_op_is(s, "add") || ptx_op_is(s, "sub") || ptx_op_is(s, "and") || ptx_op_is(s, "or") ||
             ptx_op_is(s, "xor")) {
    rset a = {0}, b = {0};
    if (s->nopnd >= 3) {
      walk_reg(w, si, &s->toks[s->opnd[1].lo], &a);
      if (!ptx_op_is(s, "sub")) walk_reg(w, si, &s->toks[s->opnd[2].lo], &b);
    }
    /* pointer + offset: when both sides carry roots, the side that is used as
     * a pointer elsewhere (converted by cvta, dereferenced) is the pointer */
    if (a.n && b.n && rs_any_ptrlike(&a) != rs_any_ptrlike(&b)) {
      rs_union(&res, rs_any_ptrlike(&a) ? &a : &b);
    } else {
      rs_union(&res, &a);
      rs_union(&res, &b);
    }
  } else if (ptx_op_is(s, "mad")) {
    if (s->nopnd >= 4) walk_reg(w, si, &s->toks[s->opnd[3].lo], &res);
  } else if (ptx_op_is(s, "selp")) {
    if (s->nopnd >= 3) {
      walk_reg(w, si, &s->toks[s->opnd[1].lo], &res);
      walk_reg(w, si, &s->toks[s->opnd[2].lo], &res);
    }
  }
  /* everything else (mul.wide, shl, special registers, immediates) is an
   * offset or an integer: a leaf without a root */
  w->memo[d] = res;
  w->state[d] = 2;
  rs_union(out, &res);
}

static void walk_reg(walker *w, int stmt, const ptx_tok *t, rset *out) {
  int r = ptx_tok_reg(w->fn, t);
  if (r < 0) return;
  int defs[16];
  int n = ptx_reaching(w->fn, stmt, r, defs, 16);
  if (n > 16) { out->overflow = 1; return; }
  for (int i = 0; i < n; i++) walk_def(w, defs[i], out);
}

ptx_rootwalk *ptx_roots_new(ptx_fn *fn) {
  walker *w = calloc(1, sizeof *w);
  w->fn = fn;
  w->state = calloc((size_t)fn->ndef + 1, 1);
  w->memo = calloc((size_t)fn->ndef + 1, sizeof *w->memo);
  w->ptrreg = calloc((size_t)fn->regs.n + 1, 1);
  for (int i = 0; i < fn->nst; i++) {
    const ptx_stmt *s = fn->st[i];
    if (s->kind != ST_INSN) continue;
    if (ptx_op_is(s, "cvta") && s->nopnd > 1) {
      int r = ptx_tok_reg(fn, &s->toks[s->opnd[1].lo]);
      if (r >= 0) w->ptrreg[r] = 1;
    }
    for (int k = 0; k < s->nopnd; k++)
      if (ptx_tok_punct(&s->toks[s->opnd[k].lo], '[') && s->opnd[k].hi - s->opnd[k].lo > 1) {
        int r = ptx_tok_reg(fn, &s->toks[s->opnd[k].lo + 1]);
        if (r >= 0) w->ptrreg[r] = 1;
      }
  }
  return w;
}

void ptx_roots_free(ptx_rootwalk *w) {
  if (!w) return;
  free(w->state);
  free(w->memo);
  free(w->ptrreg);
  free(w);
}

ptx_root ptx_find_root(ptx_rootwalk *w, int s, int reg) {
  ptx_root none = {ROOT_NONE, -1, NULL, 0};
  ptx_fn *fn = w->fn;
  if (!fn->ok) return none;
  rset set = {0};
  int defs[16];
  int n = ptx_reaching(fn, s, reg, defs, 16);
  if (n > 16) return none;
  for (int i = 0; i < n; i++) walk_def(w, defs[i], &set);
  if (set.overflow || set.n == 0) return none;
  if (set.n == 1) return set.r[0];
  int pick = -1, cnt = 0;
  for (int i = 0; i < set.n; i++)
    if (set.ptrlike[i]) { pick = i; cnt++; }
  return cnt == 1 ? set.r[pick] : none;
}
