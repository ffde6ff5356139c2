/* PTX printer: statements with their original spacing, one per line. */
#include "ptx.h"

void ptx_print_stmt(FILE *f, const ptx_stmt *s) {
  if (s->kind == ST_RAW) {
    fputs(s->raw, f);
    return;
  }
  if (s->scope > 0 && s->kind != ST_LABEL) fputc('\t', f);
  for (int i = 0; i < s->ntok; i++) {
    const ptx_tok *t = &s->toks[i];
    if (i > 0) {
      if (t->space == 2) fputc('\n', f);
      else if (t->space == 1) fputc(' ', f);
    }
    fwrite(t->text, 1, t->len, f);
  }
  fputc('\n', f);
}

void ptx_print(FILE *f, const ptx_module *m) {
  for (int i = 0; i < m->items.n; i++) {
    const ptx_item *it = m->items.v[i];
    if (it->kind == IT_STMT) {
      ptx_print_stmt(f, it->stmt);
      continue;
    }
    const ptx_func *fn = it->func;
    fputc('\n', f);
    for (int k = 0; k < fn->nhead; k++) {
      const ptx_tok *t = &fn->head[k];
      if (k > 0 && t->space) fputc(t->space == 2 ? '\n' : ' ', f);
      fwrite(t->text, 1, t->len, f);
    }
    if (fn->is_decl) {
      fputs(";\n", f);
      continue;
    }
    fputs("\n{\n", f);
    for (int k = 0; k < fn->body.n; k++) ptx_print_stmt(f, fn->body.v[k]);
    fputs("}\n", f);
  }
}
