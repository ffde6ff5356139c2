/* gsan ptx --analyze: prints what the analyses found, per function — basic
 * blocks with their successors and immediate dominators, and for each memory
 * access the definitions reaching its address register and the root the
 * checks will use, then the loops that can be checked before they run and
 * the guards their accesses run under. For people reading a report, and
 * for the golden tests. */
#include "ptx_ir.h"

#include <gsan/abi.h>
#include <stdlib.h>

static int stmt_line(const ptx_fn *fn, int s) { return fn->st[s]->line; }

static void dump_root(FILE *f, const ptx_fn *fn, ptx_root r) {
  if (r.kind == ROOT_SYMBOL) {
    if (r.sym->dynamic) fprintf(f, "variable %s (%s, dynamic size)", r.sym->name, ptx_space_name(r.sym->space));
    else fprintf(f, "variable %s (%s, %llu bytes)", r.sym->name, ptx_space_name(r.sym->space), (unsigned long long)r.sym->size);
  } else if (r.kind == ROOT_ARENA) {
    const ptx_stmt *d = fn->st[fn->def[r.def].stmt];
    fprintf(f, "pointer %s from '%.*s' at line %d", fn->regs.name[fn->def[r.def].reg], (int)d->toks[d->op].len,
            d->toks[d->op].text, d->line);
  } else {
    fprintf(f, "none (looked up at the access)");
  }
}

static void dump_function(FILE *f, ptx_module *m, ptx_func *fu) {
  ptx_fn fn;
  ptx_fn_build(&fn, m, fu);
  fprintf(f, "function %s (%s)\n", fu->name, fu->is_entry ? "entry" : "func");
  if (!fn.ok) {
    fprintf(f, "  not analysable: %s\n", fn.why ? fn.why : "?");
    ptx_fn_free(&fn);
    return;
  }
  for (int k = 0; k < fn.nblk; k++) {
    const ptx_block *b = &fn.b[k];
    if (b->first < 0 || b->last < b->first) continue;
    fprintf(f, "  block %d: lines %d-%d, succ", k, stmt_line(&fn, b->first), stmt_line(&fn, b->last));
    if (!b->nsucc) fprintf(f, " -");
    for (int e = 0; e < b->nsucc; e++) fprintf(f, " %d", b->succ[e]);
    if (b->rpo < 0) fprintf(f, ", unreachable\n");
    else if (b->idom < 0) fprintf(f, ", idom -\n");
    else fprintf(f, ", idom %d\n", b->idom);
  }
  ptx_rootwalk *rw = ptx_roots_new(&fn, 0);
  for (int i = 0; i < fn.nst; i++) {
    ptx_access acc[2];
    const char *why;
    const ptx_stmt *s = fn.st[i];
    int na = ptx_insn_accesses(s, acc, &why);
    for (int a = 0; a < na; a++) {
      const ptx_tok *t = &s->toks[s->opnd[acc[a].addr_opnd].lo + 1];
      int reg = ptx_tok_reg(&fn, t);
      fprintf(f, "  access line %d: %s %d bytes via %.*s", s->line, ptx_space_name(acc[a].space), acc[a].width,
              (int)t->len, t->text);
      if (reg < 0) {
        fprintf(f, "\n");
        continue;
      }
      int defs[16], nd = ptx_reaching(&fn, i, reg, defs, 16);
      fprintf(f, ", reaching definitions at line");
      for (int k = 0; k < nd && k < 16; k++) fprintf(f, " %d", stmt_line(&fn, fn.def[defs[k]].stmt));
      fprintf(f, ", root ");
      dump_root(f, &fn, ptx_find_root(rw, i, reg));
      fprintf(f, "\n");
    }
  }
  ptx_roots_free(rw);
  ptx_loop *loops;
  int nl = ptx_loops_find(&fn, &loops);
  for (int i = 0; i < nl; i++) {
    ptx_loop_dump(f, &fn, &loops[i]);
    /* the guards under which its accesses run, where ptx_guard.c finds one */
    for (int k = loops[i].first; k <= loops[i].last; k++) {
      ptx_access acc[2];
      const char *why;
      const ptx_stmt *s = fn.st[k];
      ptx_guard g;
      if (!loops[i].in[fn.blk[k]] || ptx_insn_accesses(s, acc, &why) <= 0) continue;
      int pred = s->pred >= 0 ? ptx_tok_reg(&fn, &s->toks[s->pred]) : -1;
      if (ptx_loop_guard(&fn, &loops[i], k, pred, s->pred_neg, &g)) ptx_guard_dump(f, &fn, k, &g);
    }
  }
  free(loops);
  ptx_fn_free(&fn);
}

void ptx_dump_analysis(FILE *f, ptx_module *m) {
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC && !it->func->is_decl) dump_function(f, m, it->func);
  }
}
