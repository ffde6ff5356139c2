/* The PTX module as gsan holds it: tokens, statements, functions, and the
 * entry points of the instrumenter's passes. Statements keep their tokens with
 * the original spacing, so an untouched module prints back as it was read. */
#ifndef GSAN_PTX_H
#define GSAN_PTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- memory: one arena per module, freed at once ---- */
typedef struct ptx_arena ptx_arena;
ptx_arena *ptx_arena_new(void);
void ptx_arena_free(ptx_arena *a);
void *ptx_alloc(ptx_arena *a, size_t n);          /* zeroed */
char *ptx_strndup(ptx_arena *a, const char *s, size_t n);
char *ptx_printf(ptx_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* growable array of pointers */
typedef struct { void **v; int n, cap; } ptx_vec;
void ptx_vec_push(ptx_vec *v, void *p);
void ptx_vec_free(ptx_vec *v);

/* ---- diagnostics: every message goes through here ---- */
typedef struct ptx_diag {
  const char *file;   /* input name for messages */
  int warnings;
  int errors;
  int quiet;          /* suppress warnings */
} ptx_diag;
void ptx_error(ptx_diag *d, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ptx_warn(ptx_diag *d, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Messages of this thread go to f instead of stderr (NULL: stderr again):
 * libgsan instruments inside the program and keeps them for its own log. */
void ptx_diag_redirect(FILE *f);

/* ---- tokens ---- */
enum ptx_tok_kind {
  TK_IDENT,     /* opcodes, names, labels, registers (%r1), directives (.reg) */
  TK_NUMBER,    /* integers in every base, floats, 0f/0d hex floats */
  TK_STRING,
  TK_PUNCT,     /* one character: , ; : { } [ ] ( ) < > = + - ! @ | * / ~ & ^ % ? */
  TK_EOF
};

typedef struct ptx_tok {
  const char *text;
  uint32_t len;
  uint8_t kind;
  uint8_t space;   /* whitespace before it in the source: 0 none, 1 blank, 2 newline */
  int line, col;
} ptx_tok;

int ptx_tok_is(const ptx_tok *t, const char *s);      /* exact text match */
int ptx_tok_punct(const ptx_tok *t, char c);

/* Lex a whole buffer; returns token count (last is TK_EOF) or -1 on error. */
int ptx_lex(ptx_arena *a, const char *src, size_t n, ptx_tok **out, ptx_diag *d);

/* ---- statements ---- */
enum ptx_stmt_kind {
  ST_DIRECTIVE,   /* .reg, .loc, .pragma, variable declarations, ... */
  ST_LABEL,       /* name: */
  ST_INSN,        /* [@[!]pred] opcode operands ; */
  ST_OPEN,        /* { */
  ST_CLOSE,       /* } */
  ST_RAW          /* generated text printed verbatim */
};

typedef struct ptx_range { int lo, hi; } ptx_range; /* token index range [lo,hi) */

typedef struct ptx_stmt {
  int kind;
  ptx_tok *toks;
  int ntok;
  int line;
  /* instructions */
  int pred;        /* token index of the guard register, -1 if none */
  int pred_neg;
  int op;          /* token index of the opcode */
  int nopnd;
  ptx_range *opnd; /* operands split at top-level commas (without ';') */
  const char *raw; /* ST_RAW */
  int scope;       /* nesting depth inside the function body, 1 = body */
} ptx_stmt;

typedef struct ptx_func {
  ptx_tok *head;   /* tokens from linkage up to (not including) '{' or ';' */
  int nhead;
  int is_entry;
  int is_decl;     /* prototype only */
  const char *name;
  int line;
  ptx_vec body;    /* ptx_stmt*, the statements between the outer braces */
} ptx_func;

enum ptx_item_kind { IT_STMT, IT_FUNC };
typedef struct ptx_item {
  int kind;
  ptx_stmt *stmt;
  ptx_func *func;
} ptx_item;

/* a module-scope or function-scope variable that accesses may be rooted at */
typedef struct ptx_symbol {
  const char *name;
  int space;        /* enum gsan_space */
  uint64_t size;    /* bytes; 0 with dynamic = extern unsized array */
  int dynamic;      /* extern .shared array: ends at %dynamic_smem_size */
  int is_extern;    /* declared elsewhere: size unknown */
  /* --frame-arrays (ptx_roots.c): one array of a function's local depot,
   * bytes [frame_off, frame_off + size) of frame_of; name is
   * "<depot>+<frame_off>", an address expression PTX's mov accepts */
  const struct ptx_symbol *frame_of;
  int64_t frame_off;
} ptx_symbol;

typedef struct ptx_module {
  ptx_arena *arena;
  const char *src;
  size_t srclen;
  ptx_vec items;          /* ptx_item* */
  ptx_vec files;          /* .file index -> name (sparse, as char*) */
  ptx_vec symbols;        /* module-scope ptx_symbol* */
  int version_major, version_minor;
  int address_size;
} ptx_module;

/* Parse; NULL on error (diagnostic already printed). src[n] must be 0 (as
 * gsan ptx reads files): numbers are converted with strtol and atoi. */
ptx_module *ptx_parse(const char *src, size_t n, ptx_diag *d);
void ptx_module_free(ptx_module *m);

void ptx_print(FILE *f, const ptx_module *m);
void ptx_print_stmt(FILE *f, const ptx_stmt *s);

ptx_symbol *ptx_find_symbol(const ptx_vec *syms, const char *name, size_t len);
/* Parse a variable declaration statement; NULL if it is not one. */
ptx_symbol *ptx_decl_symbol(ptx_arena *a, const ptx_stmt *s);

#endif
