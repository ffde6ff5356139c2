/* PTX lexer: turns the source into tokens that remember their position and
 * the spacing before them (so printing can reproduce the input). Comments are
 * dropped. Opcodes with their qualifiers (ld.global.v4.f32, shared::cta) and
 * registers with dots (%tid.x) are single tokens. */
#include "ptx.h"

#include <ctype.h>
#include <string.h>

int ptx_tok_is(const ptx_tok *t, const char *s) {
  size_t n = strlen(s);
  return t->len == n && memcmp(t->text, s, n) == 0;
}

int ptx_tok_punct(const ptx_tok *t, char c) {
  return t->kind == TK_PUNCT && t->text[0] == c;
}

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

int ptx_lex(ptx_arena *a, const char *src, size_t n, ptx_tok **out, ptx_diag *d) {
  size_t cap = n / 4 + 16, nt = 0;
  ptx_tok *v = ptx_alloc(a, cap * sizeof *v);
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  while (1) {
    int space = (i == 0) ? 2 : 0;
    /* whitespace and comments */
    for (;;) {
      if (i >= n) break;
      char c = src[i];
      if (c == '\n') { line++; line_start = ++i; space = 2; continue; }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { i++; if (!space) space = 1; continue; }
      if (c == '/' && i + 1 < n && src[i + 1] == '/') {
        while (i < n && src[i] != '\n') i++;
        if (!space) space = 1;
        continue;
      }
      if (c == '/' && i + 1 < n && src[i + 1] == '*') {
        int l0 = line, c0 = (int)(i - line_start) + 1;
        i += 2;
        while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) {
          if (src[i] == '\n') { line++; line_start = i + 1; space = 2; }
          i++;
        }
        if (i + 1 >= n) { ptx_error(d, l0, c0, "unterminated comment"); return -1; }
        i += 2;
        if (!space) space = 1;
        continue;
      }
      break;
    }
    if (nt + 1 >= cap) {
      size_t ncap = cap * 2;
      ptx_tok *nv = ptx_alloc(a, ncap * sizeof *nv);
      memcpy(nv, v, nt * sizeof *v);
      v = nv;
      cap = ncap;
    }
    ptx_tok *t = &v[nt];
    t->line = line;
    t->col = (int)(i - line_start) + 1;
    t->space = (uint8_t)space;
    if (i >= n) {
      t->kind = TK_EOF; t->text = src + n; t->len = 0;
      nt++;
      break;
    }
    size_t s = i;
    unsigned char c = (unsigned char)src[i];
    if (ident_start(c)) {
      i++;
      for (;;) {
        if (i < n && ident_char((unsigned char)src[i])) { i++; continue; }
        if (i + 1 < n && src[i] == ':' && src[i + 1] == ':') { i += 2; continue; }
        break;
      }
      t->kind = TK_IDENT;
    } else if (isdigit(c)) {
      int special = c == '0' && i + 1 < n && strchr("xXbBfFdD", src[i + 1]);
      i++;
      while (i < n) {
        char ch = src[i];
        if (isalnum((unsigned char)ch) || ch == '.' || ch == '_') { i++; continue; }
        if (!special && (ch == '+' || ch == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E')) { i++; continue; }
        break;
      }
      t->kind = TK_NUMBER;
    } else if (c == '"') {
      i++;
      while (i < n && src[i] != '"' && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n) i++;
        i++;
      }
      if (i >= n || src[i] != '"') { ptx_error(d, t->line, t->col, "unterminated string"); return -1; }
      i++;
      t->kind = TK_STRING;
    } else if (strchr(",;:{}[]()<>=+-!@|*/~&^?", c) && c) {
      i++;
      t->kind = TK_PUNCT;
    } else {
      if (isprint(c))
        ptx_error(d, t->line, t->col, "unexpected character '%c'", c);
      else
        ptx_error(d, t->line, t->col, "unexpected byte 0x%02x (is this a PTX text file?)", c);
      return -1;
    }
    t->text = src + s;
    t->len = (uint32_t)(i - s);
    nt++;
  }
  *out = v;
  return (int)nt;
}
