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
  int8_t *cycle;    /* per block: -1 unknown, 1 on a cycle, 0 not */
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

/* Operands through which an instruction carries a pointer (walk_def follows
 * the same ones); returns their count. */
static int carried_operands(const ptx_stmt *s, int ops[2]) {
  if (ptx_op_is(s, "mov") || ptx_op_is(s, "cvta") || ptx_op_is(s, "cvt") || ptx_op_is(s, "sub")) {
    ops[0] = 1;
    return s->nopnd > 1;
  }
  if (ptx_op_is(s, "add") || ptx_op_is(s, "and") || ptx_op_is(s, "or") || ptx_op_is(s, "xor") || ptx_op_is(s, "selp")) {
    ops[0] = 1;
    ops[1] = 2;
    return s->nopnd >= 3 ? 2 : 0;
  }
  if (ptx_op_is(s, "mad")) {
    ops[0] = 3;
    return s->nopnd >= 4;
  }
  return 0;
}

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
  ptx_root root = {ROOT_ARENA, d, NULL};
  ptx_symbol *sym = o1 && s->opnd[1].hi - s->opnd[1].lo == 1 ? symbol_of(fn, o1) : NULL;
  int ops[2], nops = carried_operands(s, ops);
  if (ptx_op_is(s, "ld") || ptx_op_is(s, "ldu")) {
    /* a pointer loaded from memory or passed as a parameter */
    if (bits == 64 && s->nopnd == 2 && !ptx_tok_punct(&s->toks[s->opnd[0].lo], '{'))
      rs_add(&res, root, w->ptrreg[fn->def[d].reg]);
  } else if (sym && (ptx_op_is(s, "mov") || ptx_op_is(s, "cvta"))) {
    ptx_root r = {ROOT_SYMBOL, -1, sym};
    rs_add(&res, r, 1);
  } else if (nops && !(ptx_op_is(s, "cvt") && bits < 32)) {
    rset side[2] = {{0}, {0}};
    for (int k = 0; k < nops; k++)
      if (s->opnd[ops[k]].hi - s->opnd[ops[k]].lo == 1) walk_reg(w, si, &s->toks[s->opnd[ops[k]].lo], &side[k]);
    if (ptx_op_is(s, "cvta"))
      for (int i = 0; i < side[0].n; i++) side[0].ptrlike[i] = 1;
    /* pointer + offset: when both sides carry roots, the side that is used as
     * a pointer elsewhere (converted by cvta, dereferenced) is the pointer;
     * selp keeps both, since either may be taken */
    if (nops == 2 && !ptx_op_is(s, "selp") && side[0].n && side[1].n &&
        rs_any_ptrlike(&side[0]) != rs_any_ptrlike(&side[1])) {
      rs_union(&res, rs_any_ptrlike(&side[0]) ? &side[0] : &side[1]);
    } else {
      rs_union(&res, &side[0]);
      rs_union(&res, &side[1]);
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
  w->cycle = malloc((size_t)fn->nblk + 1);
  memset(w->cycle, -1, (size_t)fn->nblk + 1);
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
  free(w->cycle);
  free(w);
}

/* Can block b reach itself? Then its definitions may execute many times. */
static int on_cycle(walker *w, int b) {
  if (w->cycle[b] >= 0) return w->cycle[b];
  ptx_fn *fn = w->fn;
  char *seen = calloc((size_t)fn->nblk, 1);
  int *stack = malloc((size_t)fn->nblk * sizeof(int)), sp = 0, found = 0;
  for (int e = 0; e < fn->b[b].nsucc; e++)
    if (!seen[fn->b[b].succ[e]]) { seen[fn->b[b].succ[e]] = 1; stack[sp++] = fn->b[b].succ[e]; }
  while (sp && !found) {
    int k = stack[--sp];
    if (k == b) found = 1;
    for (int e = 0; e < fn->b[k].nsucc; e++)
      if (!seen[fn->b[k].succ[e]]) { seen[fn->b[k].succ[e]] = 1; stack[sp++] = fn->b[k].succ[e]; }
  }
  free(seen);
  free(stack);
  return w->cycle[b] = (int8_t)found;
}

static int reaches_root(walker *w, int e, int d) {
  if (w->state[e] != 2) return 1; /* not summarised: assume it does */
  for (int i = 0; i < w->memo[e].n; i++)
    if (w->memo[e].r[i].kind == ROOT_ARENA && w->memo[e].r[i].def == d) return 1;
  return w->memo[e].overflow;
}

/* Does the value of reg at statement s come from the latest execution of the
 * root definition d? It does when every definition on the way from d
 * dominates its use: a path from d to the use then passes that definition
 * again, so no older value survives a new execution of d. */
static int chain_fresh(walker *w, int s, int reg, int d, uint8_t *seen) {
  ptx_fn *fn = w->fn;
  int defs[16];
  int n = ptx_reaching(fn, s, reg, defs, 16);
  if (n > 16) return 0;
  for (int i = 0; i < n; i++) {
    int e = defs[i], es = fn->def[e].stmt;
    if (!reaches_root(w, e, d)) continue; /* an offset: its age does not matter */
    if (es == s || !ptx_stmt_dominates(fn, es, s)) return 0;
    if (e == d || seen[e]) continue;
    seen[e] = 1;
    const ptx_stmt *st = fn->st[es];
    int ops[2], nops = carried_operands(st, ops);
    for (int k = 0; k < nops; k++) {
      int r = ptx_tok_reg(fn, &st->toks[st->opnd[ops[k]].lo]);
      if (r >= 0 && !chain_fresh(w, es, r, d, seen)) return 0;
    }
  }
  return 1;
}

ptx_root ptx_find_root(ptx_rootwalk *w, int s, int reg) {
  ptx_root none = {ROOT_NONE, -1, NULL};
  ptx_fn *fn = w->fn;
  if (!fn->ok) return none;
  rset set = {0};
  int defs[16];
  int n = ptx_reaching(fn, s, reg, defs, 16);
  if (n > 16) return none;
  for (int i = 0; i < n; i++) walk_def(w, defs[i], &set);
  if (set.overflow || set.n == 0) return none;
  int pick = set.n == 1 ? 0 : -1, cnt = 0;
  if (pick < 0) {
    for (int i = 0; i < set.n; i++)
      if (set.ptrlike[i]) { pick = i; cnt++; }
    if (cnt != 1) return none;
  }
  ptx_root r = set.r[pick];
  /* a root defined on a cycle (a pointer loaded in a loop) has bounds for its
   * latest value only; an older copy of it is looked up where it is used */
  if (r.kind == ROOT_ARENA && on_cycle(w, fn->blk[fn->def[r.def].stmt])) {
    uint8_t *seen = calloc((size_t)fn->ndef + 1, 1);
    int fresh = chain_fresh(w, s, reg, r.def, seen);
    free(seen);
    if (!fresh) return none;
  }
  return r;
}
