/* scan_front.h: libclang as gsan-scan's front end: parsing a .cu file (host
 * and device code in one AST, with the toolkit's CUDA headers or gsan's own
 * declarations), the compile database, locations, source text and C types. */
#ifndef GSAN_SCAN_FRONT_H
#define GSAN_SCAN_FRONT_H

#include "scan.h"

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

typedef struct {
  CXIndex index;
  CXTranslationUnit tu;
  const char *file;
  bool own_decls; /* parsed with gsan's CUDA declarations */
  unsigned errors; /* the parse's errors: the file is analysed in part */
} scan_tu;

typedef struct {
  const char *cuda_path; /* toolkit root, or NULL */
  bool no_cuda_headers;  /* always use gsan's declarations */
  const char *data_dir;  /* where scan_cuda.h and cuda-include/ are */
} scan_front_opts;

/* parses FILE with FLAGS (-I, -D, ...); 0 on success (with out->errors set
   when the file is analysed in part: see scan_front_fn_broken), 2 after
   printing the errors (file:line:col: error: ...) */
int scan_front_parse(const scan_front_opts *o, const char *file, const char *const *flags, int nflags, scan_tu *out);
/* the same for a file held in memory: NAME is what locations and the report
   call it; nothing is read from disk but the headers it includes */
int scan_front_parse_text(const scan_front_opts *o, const char *name, const char *text, size_t len,
                     const char *const *flags, int nflags, scan_tu *out);
void scan_front_dispose(scan_tu *t);
/* a function definition of a unit with errors that is not analysed: why
   ("its code has an error at line N (...)", "it uses 'T' (line N), whose
   declaration has an error"); NULL for one that is, and in a unit without errors */
const char *scan_front_fn_broken(CXCursor fn);
/* such a function whose errors are all in statements of its body: it is
   analysed in part, its statements with errors skipped (scan_exec.c) */
bool scan_front_fn_in_part(CXCursor fn);
/* in a unit with errors, why statement s of a function analysed in part is
   skipped ("line N (the error)"), or NULL: s has an error, uses a
   declaration with one, or (outside a template: tmpl false) holds an
   expression clang left of dependent type in recovering from one; a
   statement that holds others (a block, if, for, while, switch, try), only
   when a part of it that is not a block or such a statement does */
const char *scan_front_stmt_skipped(CXCursor s, bool tmpl);
/* a block, if, loop, switch, case, label or try: a statement whose children
   sit in statement positions */
bool scan_front_holds_statements(enum CXCursorKind k);
/* the first error in c's extent, declaration with an error it uses, or
   (tmpl false) expression clang recovered as of dependent type, as above;
   NULL in a unit without errors */
const char *scan_front_error_in(CXCursor c, bool tmpl);

/* flags of a build, in nvcc's spelling or clang's, as the parser's (clang's)
   flags: include paths (relative ones made absolute against DIR unless it is
   NULL), macros, forced includes, -std, -Xcompiler's flags, the host's -f/-m
   flags that define macros; the rest dropped, with a note on stderr the first
   time a kind of flag is (NOTES: 0 none, 1 all, 2 all but file names) */
void scan_flags_front(const char *const *in, int n, const char *dir, int notes, str_vec *out);
/* the first error of the last parse that failed (file:line:col: error: ...),
   or why the file could not be read; NULL after one that succeeded */
extern const char *scan_front_error;

/* compile_commands.json in DIR: the parser flags recorded for FILE (through
   scan_flags_front, paths made absolute; notes when its compiler is nvcc); -1 with *err set when
   the database cannot be read or has no entry for FILE */
int scan_cdb_flags(const char *dir, const char *file, str_vec *flags, const char **err);
/* every .cu file the database names */
int scan_cdb_files(const char *dir, str_vec *files, const char **err);

/* ---- cursors ---- */
extern CXTranslationUnit scan_front_tu; /* the unit being analysed */
scan_loc scan_front_cursor_loc(CXCursor c);       /* where the user sees it (macro expansions resolved) */
char *scan_front_cursor_text(CXCursor c);         /* its source text, one line, whitespace squeezed */
const char *scan_front_cursor_name(CXCursor c);   /* spelling, interned */
int scan_front_cursor_children(CXCursor c, CXCursor **out);
bool scan_front_cursor_in_system(CXCursor c);     /* declared in a system header or gsan's declarations */
/* The function a call names: clang's; for a call in a template whose
   arguments depend on its parameters (until instantiated, an overload set),
   the one function of the set that takes that many arguments, when there is
   one and no template among them; else the set (no definition). */
CXCursor scan_front_callee(CXCursor call);
CXCursor scan_front_cursor_strip(CXCursor c);     /* below parentheses and implicit conversions */
bool scan_front_cursor_has_attr(CXCursor c, enum CXCursorKind attr);
/* the member name of threadIdx.x and friends (the AST hides it) */
const char *scan_front_cursor_member_token(CXCursor c);
/* the member (x, y or z) of builtin (threadIdx...) at c, written inside a
   macro whose body, or whose macros', names one axis of it; else NULL */
const char *scan_front_macro_member(CXCursor c, const char *builtin);
/* forgets the macros read and the units' errors (scan_reset: they are in
   the arena it frees) */
void scan_front_reset(void);

/* ---- C types ---- */
typedef enum { CT_INT, CT_BOOL, CT_PTR, CT_ARRAY, CT_REC, CT_FLOAT, CT_VOID, CT_REF, CT_OTHER } ct_kind;
typedef struct {
  ct_kind k;
  unsigned w; /* CT_INT: bits; CT_BOOL: 1; CT_PTR: 64 */
  bool sgn;
  CXType t;   /* canonical */
} ctype;
ctype scan_front_ctype(CXType t);
uint64_t scan_front_ctype_size(CXType t); /* bytes; 0 when unknown or incomplete */
CXType scan_front_ctype_pointee(CXType t); /* pointer, array or reference: the element type */
bool scan_front_ctype_is_dim3(CXType t);
const char *scan_front_type_text(CXType t); /* as clang spells it, interned */

#endif
