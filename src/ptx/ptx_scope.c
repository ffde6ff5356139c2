/* Use-after-scope (docs/ptx.md "Use-after-scope"): a local-memory address
 * that leaves its frame and is used after the frame ends.
 *
 * A frame's locals can leave it only as a generic address: `cvta.local` of
 * the frame's local address, stored to memory, returned, or passed to a
 * call. The module is scanned first; a module where no such generic address
 * escapes gets no code at all. Otherwise:
 *  - a .func whose locals escape clears its local variables at entry and
 *    fills them with a poison word at every return (volatile stores: ptxas
 *    would drop stores to a frame about to die);
 *  - every access through a pointer that may be local (a generic access not
 *    rooted at a variable, a .local access through a pointer value) loads
 *    the aligned word under its first byte, when the address is local, and
 *    fails if it holds the poison.
 * Comparing with a stack pointer cannot work: for code without recursion
 * ptxas lays every callee's frame out statically inside the kernel's frame,
 * above the caller's own locals (docs/ptx.md shows the SASS), so a dead
 * frame's address is not below the live ones. */
#include "ptx_scope.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

/* ---- the escape scan ---- */

typedef struct taint {
  const ptx_tok **reg; /* registers holding a generic address of the frame */
  int n, cap;
} taint;

static int is_reg(const ptx_tok *t) { return t->kind == TK_IDENT && t->len > 1 && t->text[0] == '%'; }

static int tainted(const taint *t, const ptx_tok *r) {
  for (int i = 0; i < t->n; i++)
    if (t->reg[i]->len == r->len && memcmp(t->reg[i]->text, r->text, r->len) == 0) return 1;
  return 0;
}

static int taint_add(taint *t, ptx_arena *a, const ptx_tok *r) {
  if (tainted(t, r)) return 0;
  if (t->n == t->cap) {
    int cap = t->cap ? t->cap * 2 : 16;
    const ptx_tok **v = ptx_alloc(a, (size_t)cap * sizeof *v);
    if (t->n) memcpy(v, t->reg, (size_t)t->n * sizeof *v);
    t->reg = v;
    t->cap = cap;
  }
  t->reg[t->n++] = r;
  return 1;
}

/* instructions whose result is (an offset of) their source address */
static int carries_address(const ptx_stmt *s) {
  static const char *ops[] = {"mov", "add", "sub", "mad", "cvt", "cvta", "selp", "and", "or", "xor", NULL};
  for (int i = 0; ops[i]; i++)
    if (ptx_op_is(s, ops[i])) return 1;
  return 0;
}

static int operand_tainted(const taint *t, const ptx_stmt *s, int k) {
  for (int j = s->opnd[k].lo; j < s->opnd[k].hi; j++)
    if (is_reg(&s->toks[j]) && tainted(t, &s->toks[j])) return 1;
  return 0;
}

/* The callee of the first call after statement i (the call an st.param
 * belongs to), or NULL. */
static const ptx_tok *next_callee(const ptx_vec *body, int i) {
  for (int k = i + 1; k < body->n; k++) {
    const ptx_stmt *s = body->v[k];
    if (!ptx_op_is(s, "call")) continue;
    for (int o = 0; o < s->nopnd; o++)
      if (s->toks[s->opnd[o].lo].kind == TK_IDENT) return &s->toks[s->opnd[o].lo];
    return NULL;
  }
  return NULL;
}

/* Is use k of a frame address in statement i of body an escape? Addresses
 * of accesses, comparisons and arithmetic are not; printf's argument buffer
 * (vprintf reads it before it returns and keeps nothing) is not. */
static int escapes_at(const ptx_vec *body, int i, int k) {
  const ptx_stmt *s = body->v[i];
  if (k == 0 && ptx_insn_writes_first(s)) return 0;
  if (carries_address(s) || ptx_op_is(s, "setp") || ptx_op_is(s, "isspacep")) return 0;
  ptx_access acc[2];
  const char *why;
  int na = ptx_insn_accesses(s, acc, &why);
  for (int a = 0; a < na; a++)
    if (acc[a].addr_opnd == k) return 0;
  if (ptx_op_is(s, "st") && ptx_op_has(s, ".param")) {
    const ptx_tok *callee = next_callee(body, i);
    if (callee && ptx_tok_is(callee, "vprintf")) return 0;
  }
  return 1;
}

/* Line of the first statement where f lets a generic address of its frame
 * escape, 0 if none does. */
static int function_escape(ptx_arena *a, const ptx_func *f) {
  const ptx_vec *body = &f->body;
  taint t = {0};
  for (int i = 0; i < body->n; i++) {
    const ptx_stmt *s = body->v[i];
    if (ptx_op_is(s, "cvta") && ptx_op_has(s, ".local") && !ptx_op_has(s, ".to") && s->nopnd > 0)
      taint_add(&t, a, &s->toks[s->opnd[0].lo]);
  }
  if (!t.n) return 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < body->n; i++) {
      const ptx_stmt *s = body->v[i];
      if (!carries_address(s) || s->nopnd < 2) continue;
      int src = 0;
      for (int k = 1; k < s->nopnd && !src; k++) src = operand_tainted(&t, s, k);
      if (!src) continue;
      for (int j = s->opnd[0].lo; j < s->opnd[0].hi; j++)
        if (is_reg(&s->toks[j])) changed |= taint_add(&t, a, &s->toks[j]);
    }
  }
  for (int i = 0; i < body->n; i++) {
    const ptx_stmt *s = body->v[i];
    if (s->kind != ST_INSN) continue;
    for (int k = 0; k < s->nopnd; k++)
      if (operand_tainted(&t, s, k) && escapes_at(body, i, k)) return s->line;
  }
  return 0;
}

int ptx_scope_scan(ptx_module *m, ptx_stats *st) {
  int any = 0;
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind != IT_FUNC || it->func->is_decl) continue;
    if (function_escape(m->arena, it->func)) {
      st->scope_funcs++;
      any = 1;
    }
  }
  return any;
}

int ptx_scope_frame(ptx_fstate *fs, const ptx_func *f) {
  return fs->scope.module && !f->is_entry && function_escape(fs->m->arena, f) != 0;
}

/* ---- the checks ---- */

int ptx_scope_check(ptx_fstate *fs, const ptx_check *c, ptx_site_desc sd, ptx_check *out) {
  if (!fs->scope.module || c->addr_reg < 0 || c->acc.width <= 0) return 0;
  if (c->space != GSAN_SPACE_LOCAL && c->space != GSAN_SPACE_GENERIC) return 0;
  if (c->root.kind == ROOT_SYMBOL) return 0; /* the function's own frame, or not local memory */
  *out = *c;
  out->root.kind = ROOT_FRAME;
  out->nmem = 1;
  out->mem = ptx_alloc(fs->fn.a, sizeof *out->mem);
  out->mem[0].imm = c->lo;
  out->mem[0].width = c->acc.width;
  sd.scope = 1;
  sd.root = NULL;
  out->mem[0].site = ptx_sites_logged(fs->sites, &fs->site_log, fs->launch.copy, &sd);
  fs->st->scope_checks++;
  return 1;
}

/* pred = the access runs and its address is local; then the word under the
 * address is loaded (a local address outside any frame still lies in the
 * thread's local window, which the access itself would read) and compared */
void ptx_scope_test(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const char *addr, int pred) {
  const char *guard = "";
  if (c->pred_reg >= 0)
    guard = ptx_printf(fs->fn.a, ", %s%.*s", c->pred_neg ? "!" : "", (int)c->pred_tok->len, c->pred_tok->text);
  const char *word = "%gsan_scope_a";
  if (c->space == GSAN_SPACE_GENERIC) {
    ptx_bprintf(b, "\tisspacep.local \t%%gsan_scope_p, %s;\n", addr);
    if (*guard) ptx_bprintf(b, "\tand.pred \t%%gsan_scope_p, %%gsan_scope_p%s;\n", guard);
    ptx_bprintf(b, "\tcvta.to.local.u64 \t%%gsan_scope_a, %s;\n\tand.b64 \t%%gsan_scope_a, %%gsan_scope_a, -4;\n", addr);
  } else {
    if (*guard) ptx_bprintf(b, "\tmov.pred \t%%gsan_scope_p%s;\n", guard);
    else ptx_bprintf(b, "\tsetp.eq.u32 \t%%gsan_scope_p, 0, 0;\n");
    if (c->bits == 32) word = "%gsan_scope_a32";
    ptx_bprintf(b, "\tand.b%d \t%s, %s, -4;\n", c->bits, word, addr);
  }
  ptx_bprintf(b,
              "\tmov.u32 \t%%gsan_scope_w, 0;\n"
              "\t@%%gsan_scope_p ld.local.u32 \t%%gsan_scope_w, [%s];\n"
              "\tsetp.eq.u32 \t%%gsan_p%d, %%gsan_scope_w, %u;\n",
              word, pred, PTX_SCOPE_POISON);
}

/* the function's local variables whose words can be poisoned: aligned to 4
 * (a word fill of a byte-aligned array could spill past its ends) */
/* bytes (a multiple of 4) of local variable name := value, a word at a
 * time; vol: through volatile generic stores, which ptxas must keep even
 * right before the frame dies (.volatile does not apply to .local) */
static void fill(ptx_buf *b, const char *name, uint64_t bytes, uint32_t value, int vol, int *label) {
  const char *st = vol ? "st.volatile.u32" : "st.local.u32";
  ptx_bprintf(b, "\tmov.u64 \t%%gsan_scope_a, %s;\n", name);
  if (vol) ptx_bprintf(b, "\tcvta.local.u64 \t%%gsan_scope_a, %%gsan_scope_a;\n");
  if (bytes <= 32) {
    for (uint64_t off = 0; off < bytes; off += 4)
      ptx_bprintf(b, "\t%s \t[%%gsan_scope_a+%llu], %u;\n", st, (unsigned long long)off, value);
    return;
  }
  int l = (*label)++;
  ptx_bprintf(b,
              "\tadd.s64 \t%%gsan_scope_e, %%gsan_scope_a, %llu;\n"
              "$L__gsan_fill_%d:\n"
              "\t%s \t[%%gsan_scope_a], %u;\n"
              "\tadd.s64 \t%%gsan_scope_a, %%gsan_scope_a, 4;\n"
              "\tsetp.lt.u64 \t%%gsan_scope_q, %%gsan_scope_a, %%gsan_scope_e;\n"
              "\t@%%gsan_scope_q bra \t$L__gsan_fill_%d;\n",
              (unsigned long long)bytes, l, st, value, l);
}

/* every word-aligned function-scope .local variable of fs's function */
static void fill_frame(ptx_fstate *fs, ptx_buf *b, uint32_t value, int vol, int *label) {
  for (int i = 0; i < fs->fn.nst; i++) {
    const ptx_stmt *s = fs->fn.st[i];
    if (s->kind != ST_DIRECTIVE || s->scope != 1 || !ptx_tok_is(&s->toks[0], ".local")) continue;
    long align = 0;
    for (int k = 0; k + 1 < s->ntok; k++)
      if (ptx_tok_is(&s->toks[k], ".align")) align = strtol(s->toks[k + 1].text, NULL, 0);
    ptx_symbol *sym = ptx_decl_symbol(fs->fn.a, s);
    if (!sym || align < 4 || sym->size < 4) continue;
    fill(b, sym->name, sym->size & ~(uint64_t)3, value, vol, label);
  }
}

void ptx_scope_prologue(ptx_fstate *fs, ptx_buf *b) {
  int need = fs->scope.self;
  for (int i = 0; i < fs->nc && !need; i++) need = !fs->c[i].removed && fs->c[i].root.kind == ROOT_FRAME;
  if (!need) return;
  ptx_bprintf(b, "\t.reg .b64 \t%%gsan_scope_a, %%gsan_scope_e;\n\t.reg .b32 \t%%gsan_scope_a32, %%gsan_scope_w;\n"
                 "\t.reg .pred \t%%gsan_scope_p, %%gsan_scope_q;\n");
  if (fs->scope.self) fill_frame(fs, b, 0, 0, &fs->scope.labels);
}

void ptx_scope_exits(ptx_fstate *fs, ptx_buf *pre) {
  if (!fs->scope.self) return;
  for (int i = 0; i < fs->fn.nst; i++) {
    const ptx_stmt *s = fs->fn.st[i];
    if (!ptx_op_is(s, "ret")) continue;
    int l = fs->scope.labels++;
    if (s->pred >= 0)
      ptx_bprintf(&pre[i], "\t@%s%.*s bra \t$L__gsan_live_%d;\n", s->pred_neg ? "" : "!", (int)s->toks[s->pred].len,
                  s->toks[s->pred].text, l);
    ptx_bprintf(&pre[i], "\t// gsan: the frame ends: poison its locals (use-after-scope)\n");
    fill_frame(fs, &pre[i], PTX_SCOPE_POISON, 1, &fs->scope.labels);
    if (s->pred >= 0) ptx_bprintf(&pre[i], "$L__gsan_live_%d:\n", l);
  }
}
