/* The launch-bounds copy of a kernel (ABI 4, docs/abi.md "Launch bounds"):
 * the kernel instrumented a second time under the name GSAN_LAUNCH_PREFIX +
 * its own, with one parameter more, __gsan_lb, through which the runtime
 * hands it the bounds of its pointer parameters at launch. The lookup of a
 * kernel parameter is the same in every thread; done once by the host, it
 * leaves each thread one load of the slot's size. This file knows the
 * kernel's parameter layout (what ptxas gives the driver), which parameter
 * loads are pointer words of that layout, and writes the copy's header. */
#include "ptx_launch.h"

#include "ptx_ir.h"

#include <gsan/abi.h>

#include <stdlib.h>
#include <string.h>

typedef struct lparam {
  const char *name;
  uint32_t len;
  uint64_t off, size;
} lparam;

struct ptx_lparams {
  lparam *p;
  int n;
  uint64_t end; /* bytes of the kernel's own parameters */
  int open, close; /* head token indexes of the parameter list's parentheses */
};

static uint64_t type_bytes(const ptx_tok *t) {
  static const struct { const char *name; uint64_t bytes; } types[] = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
      {".bf16", 2}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".b64", 8}, {".u64", 8},
      {".s64", 8}, {".f64", 8}, {".b128", 16}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (ptx_tok_is(t, types[i].name)) return types[i].bytes;
  return 0;
}

/* One parameter's tokens [lo, hi): .param [.align N] .type [.ptr [.space]
 * [.align N]] name [[count]]. The .align after .ptr is the pointee's. */
static int one_param(const ptx_tok *t, int lo, int hi, lparam *out, uint64_t *alignment) {
  uint64_t align = 0, elem = 0, count = 1;
  int i = lo;
  if (i >= hi || !ptx_tok_is(&t[i], ".param")) return -1;
  for (i++; i < hi && t[i].kind == TK_IDENT && t[i].text[0] == '.'; i++) {
    if (ptx_tok_is(&t[i], ".align")) {
      if (i + 1 >= hi || t[i + 1].kind != TK_NUMBER) return -1;
      if (!elem) align = strtoull(t[i + 1].text, NULL, 0);
      i++;
    } else if (!elem) {
      elem = type_bytes(&t[i]);
      if (!elem) return -1;
    }
  }
  if (!elem || i >= hi || t[i].kind != TK_IDENT) return -1;
  out->name = t[i].text;
  out->len = t[i].len;
  i++;
  if (i < hi) {
    if (i + 3 != hi || !ptx_tok_punct(&t[i], '[') || t[i + 1].kind != TK_NUMBER || !ptx_tok_punct(&t[i + 2], ']'))
      return -1;
    count = strtoull(t[i + 1].text, NULL, 0);
  }
  if (!align) align = elem;
  if (align & (align - 1)) return -1;
  *alignment = align;
  out->size = elem * count;
  return 0;
}

ptx_lparams *ptx_launch_params(ptx_arena *a, const ptx_func *f) {
  const ptx_tok *t = f->head;
  int open = -1, close = -1;
  for (int i = 0; i < f->nhead; i++) {
    if (open < 0 && ptx_tok_punct(&t[i], '(')) open = i;
    else if (open >= 0 && ptx_tok_punct(&t[i], ')')) { close = i; break; }
  }
  if (!f->is_entry || open < 0 || close < 0) return NULL;
  ptx_lparams *lp = ptx_alloc(a, sizeof *lp);
  lp->open = open;
  lp->close = close;
  int cap = 0;
  for (int i = open + 1; i < close; i++) cap += ptx_tok_is(&t[i], ".param");
  lp->p = ptx_alloc(a, (size_t)(cap ? cap : 1) * sizeof *lp->p);
  for (int lo = open + 1; lo < close;) {
    int hi = lo;
    while (hi < close && !ptx_tok_punct(&t[hi], ',')) hi++;
    lparam *p = &lp->p[lp->n];
    uint64_t align;
    if (lp->n >= cap || one_param(t, lo, hi, p, &align) < 0) return NULL;
    p->off = (lp->end + align - 1) & ~(align - 1);
    lp->end = p->off + p->size;
    lp->n++;
    lo = hi + 1;
  }
  return lp;
}

int ptx_launch_word(const ptx_lparams *lp, const ptx_stmt *def) {
  int index;
  int64_t off;
  if (ptx_op_has(def, ".v2") || ptx_op_has(def, ".v4") ||
      !(ptx_op_has(def, ".u64") || ptx_op_has(def, ".b64") || ptx_op_has(def, ".s64")) ||
      ptx_launch_param_at(lp, def, 8, &index, &off) < 0 || (lp->p[index].off + (uint64_t)off) % 8)
    return -1;
  return (int)((lp->p[index].off + (uint64_t)off) / 8);
}

/* [name] or [name+imm] of ld.param's address operand: the parameter and imm */
static const lparam *param_operand(const ptx_lparams *lp, const ptx_stmt *def, int *index, int64_t *imm) {
  const ptx_tok *t = def->toks;
  int lo = def->opnd[1].lo, hi = def->opnd[1].hi;
  if (hi - lo < 3 || !ptx_tok_punct(&t[lo], '[') || !ptx_tok_punct(&t[hi - 1], ']') || t[lo + 1].kind != TK_IDENT)
    return NULL;
  *imm = 0;
  if (hi - lo == 5 && ptx_tok_punct(&t[lo + 2], '+') && t[lo + 3].kind == TK_NUMBER)
    *imm = strtoll(t[lo + 3].text, NULL, 0);
  else if (hi - lo != 3)
    return NULL;
  for (int i = 0; i < lp->n; i++) {
    const lparam *p = &lp->p[i];
    if (p->len != t[lo + 1].len || memcmp(p->name, t[lo + 1].text, p->len)) continue;
    *index = i;
    return p;
  }
  return NULL;
}

int ptx_launch_param_at(const ptx_lparams *lp, const ptx_stmt *def, int bytes, int *index, int64_t *off) {
  if (!lp || !ptx_op_is(def, "ld") || !ptx_op_has(def, ".param") || def->nopnd != 2) return -1;
  const lparam *p = param_operand(lp, def, index, off);
  if (!p || *off < 0 || (uint64_t)*off + (uint64_t)bytes > p->size) return -1;
  return 0;
}

int ptx_launch_nparams(const ptx_lparams *lp) { return lp ? lp->n : 0; }

ptx_func *ptx_launch_clone(ptx_arena *a, const ptx_func *f) {
  ptx_func *c = ptx_alloc(a, sizeof *c);
  *c = *f;
  c->body = (ptx_vec){0};
  for (int i = 0; i < f->body.n; i++) {
    ptx_stmt *s = ptx_alloc(a, sizeof *s);
    *s = *(const ptx_stmt *)f->body.v[i]; /* tokens are shared: only the copy's own fields change */
    ptx_vec_push(&c->body, s);
  }
  return c;
}

static ptx_tok tok(ptx_arena *a, const char *text, int kind, int space) {
  ptx_tok t = {0};
  t.text = ptx_strndup(a, text, strlen(text));
  t.len = (uint32_t)strlen(text);
  t.kind = (uint8_t)kind;
  t.space = (uint8_t)space;
  return t;
}

int ptx_launch_finish(ptx_arena *a, ptx_func *copy, const ptx_lparams *lp, int words, const char *prefix) {
  uint64_t at = (lp->end + 7) & ~7ull;
  if (words <= 0 || at + 16ull * (uint64_t)words > GSAN_LAUNCH_MAX_BYTES) return -1;
  const ptx_tok *h = copy->head;
  int n = copy->nhead, extra = lp->n ? 9 : 8;
  ptx_tok *t = ptx_alloc(a, (size_t)(n + extra) * sizeof *t);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (i == lp->close) {
      if (lp->n) t[k++] = tok(a, ",", TK_PUNCT, 0);
      t[k++] = tok(a, ".param", TK_IDENT, 2);
      t[k++] = tok(a, ".align", TK_IDENT, 1);
      t[k++] = tok(a, "8", TK_NUMBER, 1);
      t[k++] = tok(a, ".b8", TK_IDENT, 1);
      t[k++] = tok(a, GSAN_LAUNCH_PARAM, TK_IDENT, 1);
      t[k++] = tok(a, "[", TK_PUNCT, 0);
      t[k++] = tok(a, ptx_printf(a, "%d", 16 * words), TK_NUMBER, 0);
      t[k++] = tok(a, "]", TK_PUNCT, 0);
    }
    t[k] = h[i];
    if (h[i].kind == TK_IDENT && h[i].len == strlen(copy->name) && !memcmp(h[i].text, copy->name, h[i].len) &&
        i < lp->open) {
      const char *name = ptx_printf(a, "%s%s", prefix, copy->name);
      t[k].text = name;
      t[k].len = (uint32_t)strlen(name);
    }
    k++;
  }
  copy->head = t;
  copy->nhead = k;
  return 0;
}
