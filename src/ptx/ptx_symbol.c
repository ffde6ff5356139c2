/* Variables as bounds: reads a .global/.shared/.local/.const declaration and
 * works out its size in bytes, which is the static bound of every access
 * rooted at it. */
#include "ptx.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

static int type_bytes(const ptx_tok *t) {
  static const struct { const char *n; int b; } types[] = {
      {".b8", 1},   {".u8", 1},    {".s8", 1},      {".b16", 2},      {".u16", 2},  {".s16", 2},
      {".f16", 2},  {".bf16", 2},  {".b32", 4},     {".u32", 4},      {".s32", 4},  {".f32", 4},
      {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8},   {".u64", 8},      {".s64", 8},  {".f64", 8},
      {".b128", 16}, {".e4m3", 1}, {".e5m2", 1},    {".tf32", 4},     {NULL, 0}};
  for (int i = 0; types[i].n; i++)
    if (ptx_tok_is(t, types[i].n)) return types[i].b;
  return 0;
}

static int space_of(const ptx_tok *t) {
  if (ptx_tok_is(t, ".global")) return GSAN_SPACE_GLOBAL;
  if (ptx_tok_is(t, ".shared")) return GSAN_SPACE_SHARED;
  if (ptx_tok_is(t, ".local")) return GSAN_SPACE_LOCAL;
  if (ptx_tok_is(t, ".const")) return GSAN_SPACE_CONST;
  return 0;
}

ptx_symbol *ptx_decl_symbol(ptx_arena *a, const ptx_stmt *s) {
  if (s->kind != ST_DIRECTIVE) return NULL;
  int space = 0, elem = 0, vec = 1, is_extern = 0, i = 0;
  for (; i < s->ntok; i++) {
    const ptx_tok *t = &s->toks[i];
    if (t->kind != TK_IDENT || t->text[0] != '.') break;
    if (ptx_tok_is(t, ".extern")) is_extern = 1;
    else if (space_of(t)) space = space_of(t);
    else if (ptx_tok_is(t, ".v2")) vec = 2;
    else if (ptx_tok_is(t, ".v4")) vec = 4;
    else if (ptx_tok_is(t, ".v8")) vec = 8;
    else if (ptx_tok_is(t, ".align")) i++; /* skip the alignment value */
    else if (type_bytes(t)) elem = type_bytes(t);
  }
  if (!space || !elem || i >= s->ntok || s->toks[i].kind != TK_IDENT) return NULL;
  ptx_symbol *sym = ptx_alloc(a, sizeof *sym);
  sym->name = ptx_strndup(a, s->toks[i].text, s->toks[i].len);
  sym->space = space;
  sym->is_extern = is_extern;
  uint64_t size = (uint64_t)elem * (uint64_t)vec;
  int unsized = 0;
  for (i++; i + 1 < s->ntok && ptx_tok_punct(&s->toks[i], '['); i++) {
    if (ptx_tok_punct(&s->toks[i + 1], ']')) { unsized = 1; i++; continue; }
    if (s->toks[i + 1].kind != TK_NUMBER) return NULL;
    uint64_t dim = strtoull(s->toks[i + 1].text, NULL, 0);
    size *= dim;
    i += 2; /* number, then ']' */
  }
  if (unsized) {
    size = 0;
    if (space == GSAN_SPACE_SHARED && is_extern) sym->dynamic = 1;
  }
  sym->size = size;
  return sym;
}

ptx_symbol *ptx_find_symbol(const ptx_vec *syms, const char *name, size_t len) {
  for (int i = syms->n - 1; i >= 0; i--) {
    ptx_symbol *s = syms->v[i];
    if (strlen(s->name) == len && memcmp(s->name, name, len) == 0) return s;
  }
  return NULL;
}
