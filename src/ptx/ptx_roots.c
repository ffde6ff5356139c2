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

/* --frame-arrays: the arrays of the function's local depots. nvcc forms
 * each local array's address once, as the depot plus a constant
 * (add.u64 %rd2, %SPL, 64; generic: add.u64 %rd2, %SP, 64 after
 * cvta.local %SP, %SPL), and indexes from there; an array then spans from
 * its constant to the next such constant of the same depot, or the depot's
 * end. Accesses written [%SPL+imm] form no array and keep the whole depot. */
typedef struct frame_array {
  const ptx_symbol *depot;
  int64_t off;
  ptx_symbol *sym; /* made on first use */
} frame_array;

struct ptx_rootwalk {
  ptx_fn *fn;
  const ptx_symbol **depot_of; /* per register: the depot whose base it holds at every definition, or NULL */
  frame_array *arr;
  int narr;
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

static ptx_symbol *symbol_of(ptx_fn *fn, const ptx_tok *t) { return t->text[0] == '%' ? NULL : ptx_tok_symbol(fn, t); }

static void walk_reg(walker *w, int stmt, const ptx_tok *t, rset *out);

/* where array a ends: the next start of its depot, or the depot's end */
static int64_t array_end(const walker *w, const frame_array *a) {
  int64_t end = (int64_t)a->depot->size;
  for (int i = 0; i < w->narr; i++)
    if (w->arr[i].depot == a->depot && w->arr[i].off > a->off && w->arr[i].off < end) end = w->arr[i].off;
  return end;
}

/* the array of depot d that starts at off, its symbol made on first use;
 * NULL when off is not one of the function's array starts */
static ptx_symbol *frame_array_sym(walker *w, const ptx_symbol *d, int64_t off) {
  int k = -1;
  for (int i = 0; i < w->narr; i++)
    if (w->arr[i].depot == d && w->arr[i].off == off) k = i;
  if (k < 0) return NULL;
  if (!w->arr[k].sym) {
    int64_t end = array_end(w, &w->arr[k]);
    ptx_symbol *v = ptx_alloc(w->fn->m->arena, sizeof *v);
    *v = *d;
    v->name = ptx_printf(w->fn->m->arena, "%s+%lld", d->name, (long long)off);
    v->size = (uint64_t)(end - off);
    v->frame_of = d;
    v->frame_off = off;
    w->arr[k].sym = v;
  }
  return w->arr[k].sym;
}

/* the depot base register t holds, or NULL */
static const ptx_symbol *depot_reg(walker *w, const ptx_tok *t) {
  int r = w->depot_of ? ptx_tok_reg(w->fn, t) : -1;
  return r >= 0 ? w->depot_of[r] : NULL;
}

/* a plain integer token's value; 0 when it is not one */
static int imm_of(const ptx_tok *t, int64_t *v) {
  if (t->kind != TK_NUMBER || t->len > 30) return 0;
  char num[32], *end;
  memcpy(num, t->text, (size_t)t->len);
  num[t->len] = 0;
  *v = (int64_t)strtoll(num, &end, 0);
  return !*end;
}

/* add R, X, imm in either order: X's token and the immediate, or NULL */
static const ptx_tok *plus_imm(const ptx_stmt *s, int64_t *imm) {
  if (!ptx_op_is(s, "add") || s->nopnd != 3) return NULL;
  for (int k = 1; k <= 2; k++) {
    const ptx_range *a = &s->opnd[k], *b = &s->opnd[3 - k];
    if (a->hi - a->lo == 1 && b->hi - b->lo == 1 && imm_of(&s->toks[b->lo], imm)) return &s->toks[a->lo];
  }
  return NULL;
}

/* an unpredicated add R, BASE, imm with BASE a depot's base: the depot and
 * the constant */
static const ptx_symbol *depot_plus_imm(walker *w, const ptx_stmt *s, int64_t *off) {
  const ptx_tok *x = s->pred < 0 ? plus_imm(s, off) : NULL;
  return x ? depot_reg(w, x) : NULL;
}

/* The constants a function adds to an array's start tell whether the start
 * is one: [R+d] or add R2, R, d with R = depot + off reaching below off or
 * to the next start is a field of a struct, an element of an array of
 * structs, or a pointer into the middle of an array, not an array of its
 * own. A depot with any such use keeps its whole bounds (all its arrays
 * are dropped). Registers defined once only; a register's displacement
 * from its array is followed through add R2, R, imm, mov and cvta. */
static void drop_conflicts(walker *w) {
  ptx_fn *fn = w->fn;
  if (!w->narr) return;
  int *arr_of = calloc((size_t)fn->regs.n + 1, sizeof *arr_of); /* array index + 1 */
  int64_t *disp = calloc((size_t)fn->regs.n + 1, sizeof *disp);
  uint8_t *bad = calloc((size_t)w->narr, 1);
  for (int pass = 0; pass < 4; pass++)
    for (int i = 0; i < fn->nst; i++) {
      const ptx_stmt *s = fn->st[i];
      if (s->kind != ST_INSN || s->pred >= 0 || fn->stmt_def0[i] >= fn->ndef) continue;
      int r = fn->def[fn->stmt_def0[i]].reg;
      if (r < 0 || fn->reg_ndefs[r] != 1 || arr_of[r]) continue;
      if ((ptx_op_is(s, "mov") || ptx_op_is(s, "cvta")) && s->nopnd == 2 && s->opnd[1].hi - s->opnd[1].lo == 1) {
        /* a copy, or the same address made generic: the same displacement */
        int q = ptx_tok_reg(fn, &s->toks[s->opnd[1].lo]);
        if (q >= 0 && arr_of[q]) arr_of[r] = arr_of[q], disp[r] = disp[q];
        continue;
      }
      int64_t v;
      const ptx_tok *x = plus_imm(s, &v);
      if (!x) continue;
      const ptx_symbol *d = depot_reg(w, x);
      if (d) { /* an array's start */
        for (int k = 0; k < w->narr; k++)
          if (w->arr[k].depot == d && w->arr[k].off == v) arr_of[r] = k + 1;
        continue;
      }
      int q = ptx_tok_reg(fn, x); /* further into an array */
      if (q >= 0 && arr_of[q]) arr_of[r] = arr_of[q], disp[r] = disp[q] + v;
    }
  /* every constant displacement an access ([R+d], [R+-d]) or an add reaches */
  for (int i = 0; i < fn->nst; i++) {
    const ptx_stmt *s = fn->st[i];
    if (s->kind != ST_INSN) continue;
    for (int k = -1; k < s->nopnd; k++) {
      const ptx_range *o = k >= 0 ? &s->opnd[k] : NULL;
      int q = -1;
      int64_t d = 0;
      if (!o) { /* the instruction itself: add R2, R, d */
        const ptx_tok *x = plus_imm(s, &d);
        q = x ? ptx_tok_reg(fn, x) : -1;
      } else if (ptx_tok_punct(&s->toks[o->lo], '[') && o->hi - o->lo >= 3) {
        q = ptx_tok_reg(fn, &s->toks[o->lo + 1]);
        if (o->hi - o->lo >= 5 && ptx_tok_punct(&s->toks[o->lo + 2], '+')) {
          int neg = ptx_tok_punct(&s->toks[o->lo + 3], '-');
          if (imm_of(&s->toks[o->lo + 3 + neg], &d) && neg) d = -d;
        }
      }
      if (q < 0 || !arr_of[q]) continue;
      const frame_array *a = &w->arr[arr_of[q] - 1];
      int64_t at = a->off + disp[q] + d;
      if (at < a->off || at >= array_end(w, a)) bad[arr_of[q] - 1] = 1;
    }
  }
  /* a depot with a conflict keeps its whole bounds */
  int n = 0;
  for (int k = 0; k < w->narr; k++) {
    int drop = 0;
    for (int j = 0; j < w->narr; j++) drop |= bad[j] && w->arr[j].depot == w->arr[k].depot;
    if (!drop) w->arr[n++] = w->arr[k];
  }
  w->narr = n;
  free(arr_of);
  free(disp);
  free(bad);
}

/* which registers hold a local depot's base at every definition (mov of
 * the depot, cvta.local of such a register), and the array starts formed
 * from them */
static void find_frame_arrays(walker *w) {
  ptx_fn *fn = w->fn;
  /* grown to a fixed point: a register gets a depot once every one of its
   * definitions is a mov of the depot or a mov or cvta.local of a register
   * that has it (so a register with any other definition never does) */
  w->depot_of = calloc((size_t)fn->regs.n + 1, sizeof *w->depot_of);
  const ptx_symbol **cand = calloc((size_t)fn->regs.n + 1, sizeof *cand);
  uint8_t *fail = calloc((size_t)fn->regs.n + 1, 1);
  for (int changed = 1; changed;) {
    changed = 0;
    memset(cand, 0, (size_t)(fn->regs.n + 1) * sizeof *cand);
    memset(fail, 0, (size_t)fn->regs.n + 1);
    for (int d = 0; d < fn->ndef; d++) {
      int r = fn->def[d].reg;
      if (w->depot_of[r] || fail[r]) continue;
      const ptx_stmt *s = fn->st[fn->def[d].stmt];
      const ptx_symbol *got = NULL;
      if (s->nopnd == 2 && s->pred < 0 && s->opnd[1].hi - s->opnd[1].lo == 1) {
        const ptx_tok *o1 = &s->toks[s->opnd[1].lo];
        if (ptx_op_is(s, "mov")) {
          ptx_symbol *sym = symbol_of(fn, o1);
          if (sym && sym->space == GSAN_SPACE_LOCAL && !strncmp(sym->name, "__local_depot", 13) && sym->size) got = sym;
          else got = depot_reg(w, o1);
        } else if (ptx_op_is(s, "cvta") && ptx_op_has(s, ".local") && !ptx_op_has(s, ".to")) {
          got = depot_reg(w, o1);
        }
      }
      if (!got || (cand[r] && cand[r] != got)) fail[r] = 1;
      else cand[r] = got;
    }
    for (int r = 0; r < fn->regs.n; r++)
      if (!w->depot_of[r] && !fail[r] && cand[r]) w->depot_of[r] = cand[r], changed = 1;
  }
  free(cand);
  free(fail);
  for (int i = 0; i < fn->nst; i++) {
    const ptx_stmt *s = fn->st[i];
    int64_t off;
    const ptx_symbol *d = s->kind == ST_INSN ? depot_plus_imm(w, s, &off) : NULL;
    if (!d || off < 0 || (uint64_t)off >= d->size) continue;
    int have = 0;
    for (int k = 0; k < w->narr; k++) have |= w->arr[k].depot == d && w->arr[k].off == off;
    if (have) continue;
    frame_array *grown = realloc(w->arr, (size_t)(w->narr + 1) * sizeof *grown);
    if (!grown) continue;
    w->arr = grown;
    w->arr[w->narr++] = (frame_array){d, off, NULL};
  }
  drop_conflicts(w);
}

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
  int64_t off;
  const ptx_symbol *depot = w->narr ? depot_plus_imm(w, s, &off) : NULL;
  ptx_symbol *arr = depot ? frame_array_sym(w, depot, off) : NULL;
  if (arr) {
    /* an array of the frame (--frame-arrays): its own bounds */
    ptx_root r = {ROOT_SYMBOL, -1, arr};
    rs_add(&res, r, 1);
  } else if (ptx_op_is(s, "ld") || ptx_op_is(s, "ldu")) {
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

ptx_rootwalk *ptx_roots_new(ptx_fn *fn, int frame_arrays) {
  walker *w = calloc(1, sizeof *w);
  w->fn = fn;
  if (frame_arrays && fn->ok) find_frame_arrays(w);
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
  free(w->depot_of);
  free(w->arr);
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
  /* several arrays of one depot (a pointer that may point into either):
   * the whole depot, as without --frame-arrays */
  const ptx_symbol *one = set.r[0].kind == ROOT_SYMBOL && set.r[0].sym->frame_of ? set.r[0].sym->frame_of : NULL;
  for (int i = 1; one && i < set.n; i++)
    if (set.r[i].kind != ROOT_SYMBOL ||
        (set.r[i].sym != one && set.r[i].sym->frame_of != one))
      one = NULL;
  if (one && set.n > 1) {
    ptx_root whole = {ROOT_SYMBOL, -1, (ptx_symbol *)one};
    return whole;
  }
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
