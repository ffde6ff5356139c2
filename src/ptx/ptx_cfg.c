/* Per-function structure: registers, definitions, basic blocks, the control
 * flow graph and the dominator tree (Cooper, Harvey and Kennedy's iterative
 * algorithm over reverse postorder). */
#include "ptx_ir.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hash_str(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

int ptx_reg_lookup(const ptx_regs *r, const char *s, size_t len) {
  if (!r->hcap) return -1;
  uint32_t h = hash_str(s, len) & (uint32_t)(r->hcap - 1);
  for (;;) {
    int id = r->hash[h];
    if (id < 0) return -1;
    if (strlen(r->name[id]) == len && memcmp(r->name[id], s, len) == 0) return id;
    h = (h + 1) & (uint32_t)(r->hcap - 1);
  }
}

static void reg_rehash(ptx_regs *r, int hcap) {
  free(r->hash);
  r->hcap = hcap;
  r->hash = malloc((size_t)hcap * sizeof *r->hash);
  memset(r->hash, 0xff, (size_t)hcap * sizeof *r->hash);
  for (int id = 0; id < r->n; id++) {
    uint32_t h = hash_str(r->name[id], strlen(r->name[id])) & (uint32_t)(hcap - 1);
    while (r->hash[h] >= 0) h = (h + 1) & (uint32_t)(hcap - 1);
    r->hash[h] = id;
  }
}

static void reg_add(ptx_regs *r, const char *name, int bits) {
  if (ptx_reg_lookup(r, name, strlen(name)) >= 0) return;
  if (r->n == r->cap) {
    r->cap = r->cap ? r->cap * 2 : 64;
    r->name = realloc(r->name, (size_t)r->cap * sizeof *r->name);
    r->bits = realloc(r->bits, (size_t)r->cap);
  }
  r->name[r->n] = name;
  r->bits[r->n] = (uint8_t)bits;
  r->n++;
  if (r->n * 2 >= r->hcap) reg_rehash(r, r->hcap ? r->hcap * 2 : 128);
  else {
    uint32_t h = hash_str(name, strlen(name)) & (uint32_t)(r->hcap - 1);
    while (r->hash[h] >= 0) h = (h + 1) & (uint32_t)(r->hcap - 1);
    r->hash[h] = r->n - 1;
  }
}

static int reg_type_bits(const ptx_tok *t) {
  if (ptx_tok_is(t, ".pred")) return 1;
  if (t->len < 3) return 0;
  const char *p = t->text + 2;
  if (!strchr("bsuf", t->text[1])) return 0;
  int b = atoi(p);
  return (b == 8 || b == 16 || b == 32 || b == 64 || b == 128) ? b : 0;
}

/* a name a .reg directive declares: one register, or the range %r<N>
 * (%r0 .. %r(N-1)) with the indices of it that the body names */
typedef struct reg_decl {
  const ptx_tok *name;
  long count; /* -1: one register */
  int bits;
  long *used; /* malloc'd */
  int nused, capused;
} reg_decl;

/* .reg [.v2] .type %r<N> | %a, %b ; each name in decls, in order */
static void collect_regs(ptx_fn *fn, const ptx_stmt *s, ptx_vec *decls) {
  int bits = 0, i = 1;
  for (; i < s->ntok && s->toks[i].kind == TK_IDENT && s->toks[i].text[0] == '.'; i++)
    if (reg_type_bits(&s->toks[i])) bits = reg_type_bits(&s->toks[i]);
  if (ptx_tok_is(&s->toks[1], ".v2") || ptx_tok_is(&s->toks[1], ".v4")) bits = 0; /* vector regs: never addresses */
  for (; i < s->ntok; i++) {
    const ptx_tok *t = &s->toks[i];
    if (t->kind != TK_IDENT) continue;
    reg_decl *r = ptx_alloc(fn->a, sizeof *r);
    r->name = t;
    r->count = -1;
    r->bits = bits;
    if (i + 3 < s->ntok && ptx_tok_punct(&s->toks[i + 1], '<') && s->toks[i + 2].kind == TK_NUMBER) {
      r->count = strtol(s->toks[i + 2].text, NULL, 0);
      i += 3;
    }
    ptx_vec_push(decls, r);
  }
}

/* t's index in range r (the prefix, then a decimal index below the count,
 * without leading zeros), or -1 */
static long range_index(const reg_decl *r, const ptx_tok *t) {
  uint32_t pl = r->name->len;
  if (t->len <= pl || t->len - pl > 18 || memcmp(t->text, r->name->text, pl)) return -1;
  const char *d = t->text + pl;
  size_t nd = t->len - pl;
  if (d[0] == '0' && nd > 1) return -1;
  long v = 0;
  for (size_t k = 0; k < nd; k++) {
    if (d[k] < '0' || d[k] > '9') return -1;
    v = v * 10 + (d[k] - '0');
  }
  return v < r->count ? v : -1;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The registers, numbered in declaration order (passes walk them by
 * number), a range's in index order; of a range only those the body names,
 * so that declaring %r<4000000000> costs nothing. */
static void add_regs(ptx_fn *fn, const ptx_vec *decls) {
  for (int i = 0; i < fn->nst; i++) {
    const ptx_stmt *s = fn->st[i];
    for (int k = 0; k < s->ntok; k++) {
      const ptx_tok *t = &s->toks[k];
      if (t->kind != TK_IDENT || t->text[0] == '.') continue;
      for (int j = 0; j < decls->n; j++) {
        reg_decl *r = decls->v[j];
        long idx = r->count < 0 ? -1 : range_index(r, t);
        if (idx < 0) continue;
        if (r->nused == r->capused) {
          r->capused = r->capused ? r->capused * 2 : 16;
          r->used = realloc(r->used, (size_t)r->capused * sizeof *r->used);
        }
        r->used[r->nused++] = idx;
        break;
      }
    }
  }
  for (int j = 0; j < decls->n; j++) {
    reg_decl *r = decls->v[j];
    const ptx_tok *t = r->name;
    if (r->count < 0) reg_add(&fn->regs, ptx_strndup(fn->a, t->text, t->len), r->bits);
    if (r->nused) qsort(r->used, (size_t)r->nused, sizeof *r->used, cmp_long);
    for (int k = 0; k < r->nused; k++)
      if (k == 0 || r->used[k] != r->used[k - 1])
        reg_add(&fn->regs, ptx_printf(fn->a, "%.*s%ld", (int)t->len, t->text, r->used[k]), r->bits);
    free(r->used);
  }
}

int ptx_tok_reg(const ptx_fn *fn, const ptx_tok *t) {
  if (t->kind != TK_IDENT || t->text[0] == '.') return -1;
  return ptx_reg_lookup(&fn->regs, t->text, t->len);
}

ptx_symbol *ptx_tok_symbol(const ptx_fn *fn, const ptx_tok *t) {
  if (t->kind != TK_IDENT) return NULL;
  ptx_symbol *s = ptx_find_symbol(&fn->syms, t->text, t->len);
  return s ? s : ptx_find_symbol(&fn->m->symbols, t->text, t->len);
}

static int is_branch_end(const ptx_stmt *s) {
  return s->kind == ST_INSN && (ptx_op_is(s, "bra") || ptx_op_is(s, "brx") || ptx_op_is(s, "ret") ||
                                ptx_op_is(s, "exit") || ptx_op_is(s, "trap"));
}

static void add_edge(int from, int to, ptx_vec *succ) {
  ptx_vec_push(&succ[from], (void *)(intptr_t)to);
}

static int label_block(ptx_fn *fn, const ptx_tok *t, int *label_stmt_of, int nlabels, char **names) {
  for (int i = 0; i < nlabels; i++)
    if (strlen(names[i]) == t->len && memcmp(names[i], t->text, t->len) == 0) return fn->blk[label_stmt_of[i]];
  return -1;
}

static int build_cfg(ptx_fn *fn) {
  int n = fn->nst;
  fn->blk = ptx_alloc(fn->a, (size_t)(n + 1) * sizeof(int));
  /* leaders */
  int nb = 0;
  for (int i = 0; i < n; i++) {
    ptx_stmt *s = fn->st[i];
    if (i == 0 || (s->kind == ST_LABEL && fn->st[i - 1]->kind != ST_LABEL) || is_branch_end(fn->st[i - 1]))
      nb++;
    fn->blk[i] = nb - 1;
  }
  if (n == 0) nb = 1;
  fn->nblk = nb;
  fn->b = ptx_alloc(fn->a, (size_t)nb * sizeof *fn->b);
  for (int k = 0; k < nb; k++) fn->b[k].first = -1;
  for (int i = 0; i < n; i++) {
    ptx_block *b = &fn->b[fn->blk[i]];
    if (b->first < 0) b->first = i;
    b->last = i;
  }
  if (n == 0) fn->b[0].first = 0, fn->b[0].last = -1;
  /* labels */
  int nlabels = 0;
  for (int i = 0; i < n; i++) nlabels += fn->st[i]->kind == ST_LABEL;
  int *lstmt = malloc((size_t)(nlabels + 1) * sizeof(int));
  char **lname = malloc((size_t)(nlabels + 1) * sizeof(char *));
  nlabels = 0;
  for (int i = 0; i < n; i++)
    if (fn->st[i]->kind == ST_LABEL) {
      const ptx_tok *t = &fn->st[i]->toks[0];
      for (int k = 0; k < nlabels; k++)
        if (strlen(lname[k]) == t->len && memcmp(lname[k], t->text, t->len) == 0) {
          fn->why = "a label is defined twice (inline-asm scopes)";
          free(lstmt); free(lname);
          return -1;
        }
      lstmt[nlabels] = i;
      lname[nlabels++] = ptx_strndup(fn->a, t->text, t->len);
    }
  ptx_vec *succ = calloc((size_t)nb, sizeof *succ);
  int rc = 0;
  for (int k = 0; k < nb && n; k++) {
    ptx_stmt *s = fn->st[fn->b[k].last];
    int fall = k + 1 < nb;
    if (s->kind == ST_INSN && ptx_op_is(s, "bra")) {
      if (s->nopnd < 1) { rc = -1; break; }
      int t = label_block(fn, &s->toks[s->opnd[0].lo], lstmt, nlabels, lname);
      if (t < 0) { fn->why = "branch to an unknown label"; rc = -1; break; }
      add_edge(k, t, succ);
      if (s->pred < 0) fall = 0;
    } else if (s->kind == ST_INSN && ptx_op_is(s, "brx")) {
      for (int l = 0; l < nlabels; l++) add_edge(k, fn->blk[lstmt[l]], succ);
      if (s->pred < 0) fall = 0;
    } else if (s->kind == ST_INSN && (ptx_op_is(s, "ret") || ptx_op_is(s, "exit") || ptx_op_is(s, "trap"))) {
      if (s->pred < 0) fall = 0;
    }
    if (fall) add_edge(k, k + 1, succ);
  }
  free(lstmt);
  free(lname);
  if (rc == 0) {
    int *npred = calloc((size_t)nb, sizeof(int));
    for (int k = 0; k < nb; k++) {
      fn->b[k].nsucc = succ[k].n;
      fn->b[k].succ = ptx_alloc(fn->a, (size_t)(succ[k].n + 1) * sizeof(int));
      for (int e = 0; e < succ[k].n; e++) {
        int t = (int)(intptr_t)succ[k].v[e];
        fn->b[k].succ[e] = t;
        npred[t]++;
      }
    }
    for (int k = 0; k < nb; k++) fn->b[k].pred = ptx_alloc(fn->a, (size_t)(npred[k] + 1) * sizeof(int));
    for (int k = 0; k < nb; k++)
      for (int e = 0; e < fn->b[k].nsucc; e++) {
        ptx_block *t = &fn->b[fn->b[k].succ[e]];
        t->pred[t->npred++] = k;
      }
    free(npred);
  }
  for (int k = 0; k < nb; k++) ptx_vec_free(&succ[k]);
  free(succ);
  return rc;
}

static void compute_rpo(ptx_fn *fn) {
  int nb = fn->nblk;
  int *post = malloc((size_t)nb * sizeof(int)), np = 0;
  int *stack = malloc((size_t)nb * sizeof(int)), *edge = calloc((size_t)nb, sizeof(int));
  char *seen = calloc((size_t)nb, 1);
  int sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  while (sp) {
    int k = stack[sp - 1];
    if (edge[k] < fn->b[k].nsucc) {
      int t = fn->b[k].succ[edge[k]++];
      if (!seen[t]) { seen[t] = 1; stack[sp++] = t; }
    } else {
      post[np++] = k;
      sp--;
    }
  }
  fn->order = ptx_alloc(fn->a, (size_t)nb * sizeof(int));
  for (int k = 0; k < nb; k++) fn->b[k].rpo = -1;
  fn->norder = np;
  for (int i = 0; i < np; i++) {
    fn->order[i] = post[np - 1 - i];
    fn->b[fn->order[i]].rpo = i;
  }
  free(post); free(stack); free(edge); free(seen);
}

static int intersect(ptx_fn *fn, int a, int b) {
  while (a != b) {
    while (fn->b[a].rpo > fn->b[b].rpo) a = fn->b[a].idom;
    while (fn->b[b].rpo > fn->b[a].rpo) b = fn->b[b].idom;
  }
  return a;
}

/* dom_in/dom_out: a depth-first walk of the dominator tree (children listed
 * by a counting pass over the reachable blocks), so that a dominance query
 * is two comparisons instead of a climb up the tree */
static void number_dominator_tree(ptx_fn *fn) {
  int nb = fn->nblk;
  int *start = calloc((size_t)nb + 1, sizeof *start), *kids = malloc((size_t)nb * sizeof *kids);
  int *fill = malloc((size_t)nb * sizeof *fill), *stack = malloc((size_t)nb * sizeof *stack);
  int *next = malloc((size_t)nb * sizeof *next);
  for (int i = 1; i < fn->norder; i++) start[fn->b[fn->order[i]].idom + 1]++;
  for (int k = 0; k < nb; k++) start[k + 1] += start[k];
  for (int k = 0; k < nb; k++) fill[k] = start[k];
  for (int i = 1; i < fn->norder; i++) {
    int k = fn->order[i];
    kids[fill[fn->b[k].idom]++] = k;
  }
  for (int k = 0; k < nb; k++) fn->b[k].dom_in = fn->b[k].dom_out = -1;
  int t = 0, sp = 0;
  if (fn->norder) {
    stack[sp++] = 0;
    next[0] = start[0];
    fn->b[0].dom_in = t++;
  }
  while (sp) {
    int k = stack[sp - 1];
    if (next[k] < start[k + 1]) {
      int c = kids[next[k]++];
      fn->b[c].dom_in = t++;
      next[c] = start[c];
      stack[sp++] = c;
    } else {
      fn->b[k].dom_out = t++;
      sp--;
    }
  }
  free(start); free(kids); free(fill); free(stack); free(next);
}

static void compute_dominators(ptx_fn *fn) {
  for (int k = 0; k < fn->nblk; k++) fn->b[k].idom = -1;
  fn->b[0].idom = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 1; i < fn->norder; i++) {
      int k = fn->order[i], nd = -1;
      for (int e = 0; e < fn->b[k].npred; e++) {
        int p = fn->b[k].pred[e];
        if (fn->b[p].idom < 0) continue;
        nd = nd < 0 ? p : intersect(fn, p, nd);
      }
      if (nd >= 0 && fn->b[k].idom != nd) { fn->b[k].idom = nd; changed = 1; }
    }
  }
  for (int i = 0; i < fn->norder; i++) {
    int k = fn->order[i];
    fn->b[k].depth = k == 0 ? 0 : fn->b[fn->b[k].idom].depth + 1;
  }
  fn->b[0].idom = -1;
  number_dominator_tree(fn);
}

int ptx_dominates(const ptx_fn *fn, int a, int b) {
  if (fn->b[a].rpo < 0 || fn->b[b].rpo < 0) return 0;
  return fn->b[a].dom_in <= fn->b[b].dom_in && fn->b[b].dom_out <= fn->b[a].dom_out;
}

int ptx_stmt_dominates(const ptx_fn *fn, int sa, int sb) {
  int a = fn->blk[sa], b = fn->blk[sb];
  if (a == b) return sa <= sb;
  return ptx_dominates(fn, a, b);
}

static void collect_defs(ptx_fn *fn) {
  ptx_vec defs = {0};
  fn->stmt_def0 = ptx_alloc(fn->a, (size_t)(fn->nst + 1) * sizeof(int));
  int count = 0;
  for (int i = 0; i < fn->nst; i++) {
    ptx_stmt *s = fn->st[i];
    fn->stmt_def0[i] = count;
    if (!ptx_insn_writes_first(s)) continue;
    for (int k = s->opnd[0].lo; k < s->opnd[0].hi; k++) {
      int r = ptx_tok_reg(fn, &s->toks[k]);
      if (r < 0) continue;
      ptx_def *d = ptx_alloc(fn->a, sizeof *d);
      d->stmt = i;
      d->reg = r;
      ptx_vec_push(&defs, d);
      count++;
    }
  }
  fn->stmt_def0[fn->nst] = count;
  fn->ndef = count;
  fn->def = ptx_alloc(fn->a, (size_t)(count + 1) * sizeof *fn->def);
  for (int i = 0; i < count; i++) fn->def[i] = *(ptx_def *)defs.v[i];
  ptx_vec_free(&defs);
  int nr = fn->regs.n;
  fn->reg_ndefs = ptx_alloc(fn->a, (size_t)(nr + 1) * sizeof(int));
  fn->reg_defs = ptx_alloc(fn->a, (size_t)(nr + 1) * sizeof(int *));
  for (int i = 0; i < count; i++) fn->reg_ndefs[fn->def[i].reg]++;
  for (int r = 0; r < nr; r++) fn->reg_defs[r] = ptx_alloc(fn->a, (size_t)(fn->reg_ndefs[r] + 1) * sizeof(int));
  int *fill = calloc((size_t)nr + 1, sizeof(int));
  for (int i = 0; i < count; i++) {
    int r = fn->def[i].reg;
    fn->reg_defs[r][fill[r]++] = i;
  }
  free(fill);
}

void ptx_fn_free(ptx_fn *fn) {
  free(fn->regs.name);
  free(fn->regs.bits);
  free(fn->regs.hash);
  free(fn->rd_in);
  ptx_vec_free(&fn->syms);
  ptx_arena_free(fn->a);
  memset(fn, 0, sizeof *fn);
}

int ptx_fn_build(ptx_fn *fn, ptx_module *m, ptx_func *f) {
  memset(fn, 0, sizeof *fn);
  fn->m = m;
  fn->f = f;
  fn->a = ptx_arena_new();
  fn->nst = f->body.n;
  fn->st = (ptx_stmt **)f->body.v;
  fn->ok = 1;
  /* the stack pointers that cicc declares are ordinary registers */
  ptx_vec decls = {0};
  for (int i = 0; i < fn->nst; i++) {
    ptx_stmt *s = fn->st[i];
    if (s->kind != ST_DIRECTIVE) continue;
    if (ptx_tok_is(&s->toks[0], ".reg")) collect_regs(fn, s, &decls);
    else {
      ptx_symbol *sym = ptx_decl_symbol(fn->a, s);
      if (sym) ptx_vec_push(&fn->syms, sym);
    }
  }
  add_regs(fn, &decls);
  ptx_vec_free(&decls);
  collect_defs(fn);
  if (build_cfg(fn) < 0) { fn->ok = 0; return 0; }
  compute_rpo(fn);
  compute_dominators(fn);
  if (ptx_fn_reaching_init(fn) < 0) fn->ok = 0;
  return 0;
}
