/* PTX parser: splits the token stream into module items (directives,
 * variables, functions) and function bodies into statements (labels,
 * directives, instructions, scope braces). It knows the grammar's shape, not
 * every instruction: operands are kept as token ranges that later passes
 * decode. */
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

typedef struct parser {
  ptx_module *m;
  ptx_tok *t;
  int n, i;
  ptx_diag *d;
} parser;

static ptx_tok *cur(parser *p) { return &p->t[p->i]; }

/* directives whose statement ends at the end of the line */
static int line_directive(const ptx_tok *t) {
  return ptx_tok_is(t, ".version") || ptx_tok_is(t, ".target") || ptx_tok_is(t, ".address_size") ||
         ptx_tok_is(t, ".file") || ptx_tok_is(t, ".loc");
}

static int top_directive(const ptx_tok *t) {
  static const char *const known[] = {".version", ".target", ".address_size", ".file", ".section", ".pragma",
                                      ".global", ".shared", ".const", ".local", ".extern", ".visible",
                                      ".weak", ".common", ".entry", ".func", ".alias", ".tex", ".texref",
                                      ".samplerref", ".surfref", ".loc", NULL};
  for (int k = 0; known[k]; k++)
    if (ptx_tok_is(t, known[k])) return 1;
  return 0;
}

static ptx_stmt *new_stmt(parser *p, int kind, int lo, int hi, int scope) {
  ptx_stmt *s = ptx_alloc(p->m->arena, sizeof *s);
  s->kind = kind;
  s->toks = &p->t[lo];
  s->ntok = hi - lo;
  s->line = p->t[lo].line;
  s->pred = -1;
  s->op = -1;
  s->scope = scope;
  return s;
}

/* Tokens up to and including ';' at bracket depth 0. Returns index after ';' or -1. */
static int until_semicolon(parser *p, int from) {
  int depth = 0;
  for (int i = from; i < p->n; i++) {
    ptx_tok *t = &p->t[i];
    if (t->kind == TK_EOF) {
      ptx_error(p->d, p->t[from].line, p->t[from].col, "statement is not terminated by ';' before the end of the file");
      return -1;
    }
    if (t->kind != TK_PUNCT) continue;
    char c = t->text[0];
    if (c == '(' || c == '[' || c == '{') depth++;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) {
        ptx_error(p->d, t->line, t->col, "unbalanced '%c'", c);
        return -1;
      }
    } else if (c == ';' && depth == 0)
      return i + 1;
  }
  return -1;
}

static int until_eol(parser *p, int from) {
  int i = from + 1;
  while (p->t[i].kind != TK_EOF && p->t[i].space != 2) {
    if (ptx_tok_punct(&p->t[i], ';')) return i + 1;
    i++;
  }
  return i;
}

static void split_operands(parser *p, ptx_stmt *s, int from) {
  /* operands: tokens [from, ntok-1) split at depth-0 commas */
  int end = s->ntok - 1;
  if (from >= end) return;
  int cnt = 1, depth = 0;
  for (int i = from; i < end; i++) {
    ptx_tok *t = &s->toks[i];
    if (t->kind != TK_PUNCT) continue;
    char c = t->text[0];
    if (c == '(' || c == '[' || c == '{') depth++;
    else if (c == ')' || c == ']' || c == '}') depth--;
    else if (c == ',' && depth == 0) cnt++;
  }
  s->opnd = ptx_alloc(p->m->arena, (size_t)cnt * sizeof *s->opnd);
  int k = 0, lo = from;
  depth = 0;
  for (int i = from; i <= end; i++) {
    ptx_tok *t = &s->toks[i];
    if (i < end && t->kind == TK_PUNCT) {
      char c = t->text[0];
      if (c == '(' || c == '[' || c == '{') depth++;
      else if (c == ')' || c == ']' || c == '}') depth--;
    }
    if (i == end || (depth == 0 && ptx_tok_punct(t, ','))) {
      s->opnd[k].lo = lo;
      s->opnd[k].hi = i;
      k++;
      lo = i + 1;
    }
  }
  s->nopnd = k;
}

/* One statement inside a function body (or snippet). Returns 0 ok, -1 error. */
static int body_stmt(parser *p, ptx_vec *out, int *scope) {
  ptx_tok *t = cur(p);
  int lo = p->i;
  if (ptx_tok_punct(t, '{')) {
    ptx_vec_push(out, new_stmt(p, ST_OPEN, lo, lo + 1, *scope));
    (*scope)++;
    p->i++;
    return 0;
  }
  if (ptx_tok_punct(t, '}')) {
    (*scope)--;
    ptx_vec_push(out, new_stmt(p, ST_CLOSE, lo, lo + 1, *scope));
    p->i++;
    return 0;
  }
  if (t->kind == TK_IDENT && ptx_tok_punct(&p->t[lo + 1], ':')) {
    ptx_vec_push(out, new_stmt(p, ST_LABEL, lo, lo + 2, *scope));
    p->i += 2;
    return 0;
  }
  if (t->kind == TK_IDENT && t->text[0] == '.') {
    int hi = line_directive(t) ? until_eol(p, lo) : until_semicolon(p, lo);
    if (hi < 0) return -1;
    ptx_vec_push(out, new_stmt(p, ST_DIRECTIVE, lo, hi, *scope));
    p->i = hi;
    return 0;
  }
  /* instruction */
  int j = lo, pred = -1, neg = 0;
  if (ptx_tok_punct(&p->t[j], '@')) {
    j++;
    if (ptx_tok_punct(&p->t[j], '!')) { neg = 1; j++; }
    if (p->t[j].kind != TK_IDENT) {
      ptx_error(p->d, p->t[j].line, p->t[j].col, "expected a predicate register after '@'");
      return -1;
    }
    pred = j - lo;
    j++;
  }
  if (p->t[j].kind != TK_IDENT || p->t[j].text[0] == '.' || p->t[j].text[0] == '%') {
    ptx_tok *b = &p->t[j];
    if (b->kind == TK_EOF)
      ptx_error(p->d, b->line, b->col, "unexpected end of file inside a function body");
    else
      ptx_error(p->d, b->line, b->col, "expected an instruction, found '%.*s'", (int)(b->len > 40 ? 40 : b->len), b->text);
    return -1;
  }
  int hi = until_semicolon(p, lo);
  if (hi < 0) return -1;
  ptx_stmt *s = new_stmt(p, ST_INSN, lo, hi, *scope);
  s->pred = pred;
  s->pred_neg = neg;
  s->op = j - lo;
  split_operands(p, s, s->op + 1);
  ptx_vec_push(out, s);
  p->i = hi;
  return 0;
}

static const char *tok_str(parser *p, const ptx_tok *t) { return ptx_strndup(p->m->arena, t->text, t->len); }

static int parse_function(parser *p, int lo) {
  ptx_func *f = ptx_alloc(p->m->arena, sizeof *f);
  f->line = p->t[lo].line;
  /* owned by the module from the start, so an error below frees it too */
  ptx_item *it = ptx_alloc(p->m->arena, sizeof *it);
  it->kind = IT_FUNC;
  it->func = f;
  ptx_vec_push(&p->m->items, it);
  int i = lo, depth = 0, name_next = 0;
  for (;; i++) {
    ptx_tok *t = &p->t[i];
    if (t->kind == TK_EOF) {
      ptx_error(p->d, p->t[lo].line, p->t[lo].col, "function header is not followed by a body or ';'");
      return -1;
    }
    if (depth == 0 && (ptx_tok_punct(t, '{') || ptx_tok_punct(t, ';'))) break;
    if (ptx_tok_punct(t, '(')) {
      depth++;
      continue;
    }
    if (ptx_tok_punct(t, ')')) {
      if (--depth < 0) { ptx_error(p->d, t->line, t->col, "unbalanced ')'"); return -1; }
      continue;
    }
    if (ptx_tok_is(t, ".entry")) { f->is_entry = 1; name_next = 1; continue; }
    if (ptx_tok_is(t, ".func")) { name_next = 1; continue; }
    if (name_next && depth == 0 && t->kind == TK_IDENT) {
      f->name = tok_str(p, t);
      name_next = 0;
      continue;
    }
  }
  if (!f->name) {
    ptx_error(p->d, p->t[lo].line, p->t[lo].col, "function has no name");
    return -1;
  }
  f->head = &p->t[lo];
  f->nhead = i - lo;
  if (ptx_tok_punct(&p->t[i], ';')) {
    f->is_decl = 1;
    p->i = i + 1;
    return 0;
  }
  p->i = i + 1; /* past '{' */
  int scope = 1;
  while (scope > 0) {
    if (cur(p)->kind == TK_EOF) {
      ptx_error(p->d, cur(p)->line, cur(p)->col, "unexpected end of file: function '%s' (line %d) is not closed", f->name, f->line);
      return -1;
    }
    if (ptx_tok_punct(cur(p), '}') && scope == 1) { p->i++; break; }
    if (body_stmt(p, &f->body, &scope) < 0) return -1;
  }
  return 0;
}

static int is_function_start(parser *p) {
  for (int i = p->i; p->t[i].kind != TK_EOF; i++) {
    ptx_tok *t = &p->t[i];
    if (ptx_tok_is(t, ".entry") || ptx_tok_is(t, ".func")) return 1;
    if (ptx_tok_punct(t, ';') || ptx_tok_punct(t, '{') || ptx_tok_punct(t, '=') || ptx_tok_punct(t, '(')) return 0;
    if (t->kind == TK_IDENT && t->text[0] != '.') return 0;
  }
  return 0;
}

static void note_header(parser *p, ptx_stmt *s) {
  ptx_module *m = p->m;
  ptx_tok *t = s->toks;
  if (ptx_tok_is(t, ".version") && s->ntok > 1) {
    const char *v = t[1].text;
    m->version_major = atoi(v);
    const char *dot = memchr(v, '.', t[1].len);
    m->version_minor = dot ? atoi(dot + 1) : 0;
  } else if (ptx_tok_is(t, ".address_size") && s->ntok > 1) {
    m->address_size = atoi(t[1].text);
  } else if (ptx_tok_is(t, ".file") && s->ntok > 2 && t[2].kind == TK_STRING) {
    int idx = atoi(t[1].text);
    if (idx >= 0 && idx < 1000000) {
      while (m->files.n <= idx) ptx_vec_push(&m->files, NULL);
      m->files.v[idx] = ptx_strndup(m->arena, t[2].text + 1, t[2].len - 2);
    }
  }
}

static int parse_section(parser *p, int lo) {
  int i = lo, depth = 0;
  for (;; i++) {
    ptx_tok *t = &p->t[i];
    if (t->kind == TK_EOF) {
      ptx_error(p->d, p->t[lo].line, p->t[lo].col, "unexpected end of file inside .section");
      return -1;
    }
    if (ptx_tok_punct(t, '{')) depth++;
    else if (ptx_tok_punct(t, '}') && --depth == 0) break;
  }
  return i + 1;
}

static int parse_module(parser *p) {
  while (cur(p)->kind != TK_EOF) {
    ptx_tok *t = cur(p);
    int lo = p->i, hi;
    if (!top_directive(t)) {
      ptx_error(p->d, t->line, t->col, "unknown directive or statement '%.*s' at module scope",
                (int)(t->len > 40 ? 40 : t->len), t->text);
      return -1;
    }
    if (!line_directive(t) && !ptx_tok_is(t, ".section") && is_function_start(p)) {
      if (parse_function(p, lo) < 0) return -1;
      continue;
    }
    if (line_directive(t)) hi = until_eol(p, lo);
    else if (ptx_tok_is(t, ".section")) hi = parse_section(p, lo);
    else hi = until_semicolon(p, lo);
    if (hi < 0) return -1;
    ptx_stmt *s = new_stmt(p, ST_DIRECTIVE, lo, hi, 0);
    note_header(p, s);
    ptx_symbol *sym = ptx_decl_symbol(p->m->arena, s);
    if (sym) ptx_vec_push(&p->m->symbols, sym);
    ptx_item *it = ptx_alloc(p->m->arena, sizeof *it);
    it->kind = IT_STMT;
    it->stmt = s;
    ptx_vec_push(&p->m->items, it);
    p->i = hi;
  }
  if (!p->m->version_major) {
    ptx_error(p->d, 1, 1, "missing .version directive (is this PTX?)");
    return -1;
  }
  return 0;
}

ptx_module *ptx_parse(const char *src, size_t n, ptx_diag *d) {
  ptx_module *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->arena = ptx_arena_new();
  m->src = src;
  m->srclen = n;
  m->address_size = 64;
  parser p = {m, NULL, 0, 0, d};
  p.n = ptx_lex(m->arena, src, n, &p.t, d);
  if (p.n < 0 || parse_module(&p) < 0) {
    ptx_module_free(m);
    return NULL;
  }
  return m;
}

static void free_func(ptx_func *f) {
  ptx_vec_free(&f->body);
}

void ptx_module_free(ptx_module *m) {
  if (!m) return;
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC) free_func(it->func);
  }
  ptx_vec_free(&m->items);
  ptx_vec_free(&m->files);
  ptx_vec_free(&m->symbols);
  ptx_arena_free(m->arena);
  free(m);
}
