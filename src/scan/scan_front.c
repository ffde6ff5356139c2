/* scan_front.c: parsing a .cu file with libclang, host and device code in
 * one translation unit (clang's CUDA host-side parse keeps every kernel's
 * body in the AST). The toolkit's headers are used when they are there and
 * parse; otherwise gsan's own CUDA declarations (scan_cuda.h) stand in.
 * Also the helpers every other part uses to read cursors and types. */
#include "scan_front.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

CXTranslationUnit scan_front_tu;
const char *scan_front_error;

static bool has_cuda_headers(const char *root) {
  if (!root) return false;
  char *p = scan_util_fmt("%s/include/cuda_runtime.h", root);
  return access(p, R_OK) == 0;
}

/* ---- a unit with errors: what can still be analysed ----
 * A file whose parse has errors (a third-party header that is not there, a
 * type clang does not know) is analysed in part. A function definition with
 * an error inside it (or at a note of one: where a template that fails was
 * instantiated), or that uses a declaration clang marked invalid, is
 * broken: when its errors are all in its body's statements it is run with
 * those statements skipped (scan_front_stmt_skipped, scan_exec.c), else it
 * is not analysed and a call of it is a call of a function whose body is
 * not seen. A file with no function left is not analysed. */
typedef struct {
  CXFile file;
  unsigned off;
  const char *msg; /* the error's text (for a note: its error's) */
} err_at;
typedef struct {
  CXTranslationUnit tu;
  VEC(err_at) at;
} unit_errs;
typedef struct {
  CXCursor fn;
  const char *why; /* NULL: intact */
  bool in_part;    /* its errors are all in its body's statements: analysed in part */
} fn_state;
static VEC(unit_errs) errs;
static VEC(fn_state) fn_states;

static unit_errs *errs_of(CXTranslationUnit tu) {
  for (size_t i = 0; i < errs.n; i++)
    if (errs.v[i].tu == tu) return &errs.v[i];
  return NULL;
}

static void add_err_at(unit_errs *u, CXSourceLocation l, const char *msg) {
  err_at e = {0};
  clang_getExpansionLocation(l, &e.file, NULL, NULL, &e.off);
  if (!e.file) return;
  e.msg = msg;
  VEC_PUSH(u->at, e);
}

static void record_errors(CXTranslationUnit tu) {
  unit_errs u = {tu, {0}};
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_getDiagnosticSpelling(d);
      const char *msg = scan_util_intern(clang_getCString(s));
      clang_disposeString(s);
      add_err_at(&u, clang_getDiagnosticLocation(d), msg);
      CXDiagnosticSet notes = clang_getChildDiagnostics(d);
      for (unsigned k = 0; k < clang_getNumDiagnosticsInSet(notes); k++) {
        CXDiagnostic nd = clang_getDiagnosticInSet(notes, k);
        add_err_at(&u, clang_getDiagnosticLocation(nd), msg);
        clang_disposeDiagnostic(nd);
      }
    }
    clang_disposeDiagnostic(d);
  }
  VEC_PUSH(errs, u);
}

static void forget_errors(CXTranslationUnit tu) {
  for (size_t i = 0; i < errs.n; i++)
    if (errs.v[i].tu == tu) errs.v[i] = errs.v[--errs.n];
  for (size_t i = 0; i < fn_states.n;)
    if (clang_Cursor_getTranslationUnit(fn_states.v[i].fn) == tu) fn_states.v[i] = fn_states.v[--fn_states.n];
    else i++;
}

static bool invalid_decl(CXCursor c) {
  return !clang_Cursor_isNull(c) && clang_isDeclaration(clang_getCursorKind(c)) && clang_isInvalidDeclaration(c);
}

/* the first declaration with errors a function's code uses, or declares */
static enum CXChildVisitResult invalid_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  CXCursor *bad = data;
  CXCursor cands[3] = {c, clang_getCursorReferenced(c), clang_getTypeDeclaration(clang_getCursorType(c))};
  for (int i = 0; i < 3; i++)
    if (invalid_decl(cands[i])) {
      *bad = cands[i];
      return CXChildVisit_Break;
    }
  return CXChildVisit_Recurse;
}

/* a declaration with an error that c is, names, has the type of, or holds */
static CXCursor invalid_in(CXCursor c) {
  CXCursor bad = clang_getNullCursor();
  if (invalid_visit(c, clang_getNullCursor(), &bad) == CXChildVisit_Recurse) clang_visitChildren(c, invalid_visit, &bad);
  return bad;
}

/* c's extent as file offsets [*lo, *hi] (its file NULL when it has none) */
static CXFile extent_of(CXCursor c, unsigned *lo, unsigned *hi) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f;
  clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, lo);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, hi);
  return f;
}

/* the first error at an offset in [lo, hi] of file f, or NULL */
static const err_at *error_between(const unit_errs *u, CXFile f, unsigned lo, unsigned hi) {
  for (size_t i = 0; f && i < u->at.n; i++)
    if (clang_File_isEqual(u->at.v[i].file, f) && u->at.v[i].off >= lo && u->at.v[i].off <= hi) return &u->at.v[i];
  return NULL;
}

/* the first error in c's extent, "line N (the message)"; else the first
   declaration with an error c uses, "'T' (line N), whose declaration has an
   error" (*use set); NULL when c has neither */
static const char *error_in(CXCursor c, unit_errs *u, bool *use) {
  *use = false;
  unsigned lo, hi, line;
  CXFile f = extent_of(c, &lo, &hi);
  const err_at *e = error_between(u, f, lo, hi);
  if (e) {
    clang_getExpansionLocation(clang_getLocationForOffset(u->tu, e->file, e->off), NULL, &line, NULL, NULL);
    return scan_util_fmt("line %u (%s)", line, e->msg);
  }
  CXCursor bad = invalid_in(c);
  if (clang_Cursor_isNull(bad)) return NULL;
  *use = true;
  return scan_util_fmt("'%s' (line %u), whose declaration has an error", scan_front_cursor_name(bad),
                       scan_front_cursor_loc(bad).line);
}

/* fn's errors (fn and its class have none themselves) are all in statements
   of its body (its return type, parameters and member initialisers have
   none): it is analysed in part */
static bool errors_in_body(CXCursor fn, unit_errs *u) {
  CXCursor body = clang_getNullCursor();
  if (invalid_decl(clang_getTypeDeclaration(clang_getCursorResultType(fn)))) return false;
  CXCursor *k;
  int n = scan_front_cursor_children(fn, &k);
  bool use;
  for (int i = 0; i < n; i++) {
    if (clang_getCursorKind(k[i]) == CXCursor_CompoundStmt) body = k[i];
    else if (error_in(k[i], u, &use)) return false; /* a parameter, a member initialiser... */
  }
  if (clang_Cursor_isNull(body)) return false;
  unsigned lo, hi, blo, bhi;
  CXFile f = extent_of(fn, &lo, &hi);
  extent_of(body, &blo, &bhi);
  return !(blo && error_between(u, f, lo, blo - 1)) && !error_between(u, f, bhi + 1, hi);
}

/* whether fn is broken, why, and whether it is analysed in part */
static fn_state judge(CXCursor fn, unit_errs *u) {
  fn_state st = {fn, NULL, false};
  CXCursor owner = clang_getCursorSemanticParent(fn);
  bool use;
  const char *w;
  if (invalid_decl(fn)) {
    st.why = scan_util_fmt("its declaration has an error (line %u)", scan_front_cursor_loc(fn).line);
  } else if (invalid_decl(owner)) {
    /* a method of a class with an error: `this` names it nowhere */
    st.why = scan_util_fmt("it uses '%s' (line %u), whose declaration has an error", scan_front_cursor_name(owner),
                           scan_front_cursor_loc(owner).line);
  } else if ((w = error_in(fn, u, &use))) {
    st.why = use ? scan_util_fmt("it uses %s", w) : scan_util_fmt("its code has an error at %s", w);
    st.in_part = errors_in_body(fn, u);
  }
  return st;
}

static const fn_state *state_of(CXCursor fn) {
  static const fn_state intact = {{0}, NULL, false};
  if (clang_Cursor_isNull(fn)) return &intact;
  unit_errs *u = errs_of(clang_Cursor_getTranslationUnit(fn));
  if (!u) return &intact;
  for (size_t i = 0; i < fn_states.n; i++)
    if (clang_equalCursors(fn_states.v[i].fn, fn)) return &fn_states.v[i];
  VEC_PUSH(fn_states, judge(fn, u));
  return &fn_states.v[fn_states.n - 1];
}

const char *scan_front_fn_broken(CXCursor fn) { return state_of(fn)->why; }

bool scan_front_fn_in_part(CXCursor fn) { return state_of(fn)->in_part; }

bool scan_front_holds_statements(enum CXCursorKind k) {
  return k == CXCursor_CompoundStmt || k == CXCursor_IfStmt || k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt || k == CXCursor_SwitchStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt ||
         k == CXCursor_LabelStmt || k == CXCursor_CXXTryStmt || k == CXCursor_CXXCatchStmt;
}

/* an expression of dependent type outside a template: clang's recovery from
   an error it reported elsewhere (a call of an undeclared function whose
   argument uses a variable of an unknown type draws no error of its own) */
static enum CXChildVisitResult recovery_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_isExpression(clang_getCursorKind(c)) && clang_getCursorType(c).kind == CXType_Dependent) {
    *(CXCursor *)data = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static const char *leaf_error(CXCursor s, unit_errs *u, bool tmpl) {
  bool use;
  const char *w = error_in(s, u, &use);
  if (w || tmpl) return w;
  CXCursor bad = clang_getNullCursor();
  if (recovery_visit(s, clang_getNullCursor(), &bad) == CXChildVisit_Recurse) clang_visitChildren(s, recovery_visit, &bad);
  if (clang_Cursor_isNull(bad)) return NULL;
  return scan_util_fmt("line %u (an expression clang could not resolve)", scan_front_cursor_loc(bad).line);
}

const char *scan_front_stmt_skipped(CXCursor s, bool tmpl) {
  unit_errs *u = errs_of(clang_Cursor_getTranslationUnit(s));
  if (!u) return NULL;
  enum CXCursorKind k = clang_getCursorKind(s);
  if (!scan_front_holds_statements(k)) return leaf_error(s, u, tmpl);
  /* a statement that holds others is skipped only for an error in a part
     that is not a block or such a statement itself (a condition, a loop's
     init and step, a branch written without braces); the blocks' statements
     are looked at one by one */
  if (k == CXCursor_CompoundStmt || k == CXCursor_LabelStmt || k == CXCursor_DefaultStmt) return NULL;
  CXCursor *kids;
  int n = scan_front_cursor_children(s, &kids);
  for (int i = 0; i < n; i++) {
    if (scan_front_holds_statements(clang_getCursorKind(kids[i]))) continue;
    const char *w = leaf_error(kids[i], u, tmpl);
    if (w) return w;
  }
  return NULL;
}

const char *scan_front_error_in(CXCursor c, bool tmpl) {
  unit_errs *u = errs_of(clang_Cursor_getTranslationUnit(c));
  return u ? leaf_error(c, u, tmpl) : NULL;
}

typedef struct {
  unsigned defs, intact, in_part;
} fn_count;

static enum CXChildVisitResult count_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  fn_count *n = data;
  if (scan_front_cursor_in_system(c)) return CXChildVisit_Continue;
  switch (clang_getCursorKind(c)) {
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl:
  case CXCursor_ClassTemplate: return CXChildVisit_Recurse;
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
  case CXCursor_Constructor:
  case CXCursor_FunctionTemplate:
    if (clang_isCursorDefinition(c)) {
      n->defs++;
      n->intact += !scan_front_fn_broken(c);
      n->in_part += scan_front_fn_in_part(c);
    }
    return CXChildVisit_Continue;
  default: return CXChildVisit_Continue;
  }
}

/* errors of the parse: printed when print is set; their number returned */
static unsigned parse_errors(CXTranslationUnit tu, bool print) {
  unsigned n = clang_getNumDiagnostics(tu), errors = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      if (print && !errors) {
        CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
        scan_front_error = scan_util_strdup(clang_getCString(s));
        clang_disposeString(s);
      }
      if (print && errors < 20) {
        CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
        fprintf(stderr, "%s\n", clang_getCString(s));
        clang_disposeString(s);
      }
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  if (print && errors > 20) fprintf(stderr, "gsan scan: %u more errors\n", errors - 20);
  return errors;
}

/* text: the file's contents when they are not read from disk (NULL: read it) */
static CXTranslationUnit parse_with(CXIndex idx, const char *file, struct CXUnsavedFile *text, const char *const *flags,
                                    int nflags, const scan_front_opts *o, bool own, enum CXErrorCode *ec) {
  VEC(const char *) args = {0};
  VEC_PUSH(args, "-x");
  VEC_PUSH(args, "cuda");
  VEC_PUSH(args, "--cuda-host-only");
  VEC_PUSH(args, "-nocudalib");
  VEC_PUSH(args, "--no-cuda-version-check");
  VEC_PUSH(args, "-Wno-unknown-cuda-version");
  /* nvcc accepts 'register' in C++17 code, clang makes it an error */
  VEC_PUSH(args, "-Wno-register");
  /* every error, so that a file with errors is parsed to its end */
  VEC_PUSH(args, "-ferror-limit=0");
  if (own) {
    VEC_PUSH(args, "-nocudainc");
    VEC_PUSH(args, "-include");
    VEC_PUSH(args, scan_util_fmt("%s/scan_cuda.h", o->data_dir));
    VEC_PUSH(args, "-isystem");
    VEC_PUSH(args, scan_util_fmt("%s/cuda-include", o->data_dir));
  } else {
    VEC_PUSH(args, scan_util_fmt("--cuda-path=%s", o->cuda_path));
    /* what nvcc gives every file and clang does not: <new> (CUB's placement
       new), CUDA 12.8's scoped atomics */
    VEC_PUSH(args, "-include");
    VEC_PUSH(args, "new");
    VEC_PUSH(args, "-include");
    VEC_PUSH(args, scan_util_fmt("%s/cuda-include/gsan_nv_atomic.h", o->data_dir));
    /* CUDA 13 keeps Thrust, CUB and libcu++ in include/cccl, which nvcc
       searches and clang's driver does not */
    const char *cccl = scan_util_fmt("%s/include/cccl", o->cuda_path);
    if (access(cccl, R_OK) == 0) {
      VEC_PUSH(args, "-isystem");
      VEC_PUSH(args, cccl);
    }
  }
  for (int i = 0; i < nflags; i++) VEC_PUSH(args, flags[i]);
  CXTranslationUnit tu = NULL;
  *ec = clang_parseTranslationUnit2(idx, file, args.v, (int)args.n, text, text ? 1 : 0,
                                    CXTranslationUnit_KeepGoing, &tu);
  return tu;
}

static int parse(const scan_front_opts *o, const char *file, struct CXUnsavedFile *text, const char *const *flags, int nflags,
                 scan_tu *out) {
  out->index = clang_createIndex(0, 0);
  out->file = scan_util_intern(file);
  scan_front_error = NULL;
  bool real = !o->no_cuda_headers && has_cuda_headers(o->cuda_path);
  enum CXErrorCode ec = CXError_Success;
  CXTranslationUnit tu = NULL;
  if (real) {
    tu = parse_with(out->index, file, text, flags, nflags, o, false, &ec);
    if (tu && !ec && !parse_errors(tu, false)) {
      out->tu = scan_front_tu = tu;
      if (scan_main_options.verbose) fprintf(stderr, "gsan scan: %s: parsed with the CUDA headers of %s\n", file, o->cuda_path);
      return 0;
    }
  }
  /* gsan's declarations: where the toolkit is missing or its headers fail */
  CXTranslationUnit own = parse_with(out->index, file, text, flags, nflags, o, true, &ec);
  if (own && !ec && !parse_errors(own, false)) {
    if (tu) clang_disposeTranslationUnit(tu);
    out->tu = scan_front_tu = own;
    out->own_decls = true;
    if (scan_main_options.verbose)
      fprintf(stderr, "gsan scan: %s: parsed with gsan's CUDA declarations (%s/scan_cuda.h): %s\n", file, o->data_dir,
              o->no_cuda_headers ? "--no-cuda-headers"
              : real             ? "the toolkit's headers did not parse"
                                 : scan_util_fmt("no CUDA headers in %s", o->cuda_path ? o->cuda_path : "(none)"));
    return 0;
  }
  /* both failed: the parse with fewer errors (the toolkit's on a tie) is
     analysed in part, when a function of the user's is left intact */
  unsigned e_tu = tu ? parse_errors(tu, false) : UINT_MAX, e_own = own && !ec ? parse_errors(own, false) : UINT_MAX;
  CXTranslationUnit pick = e_own < e_tu ? own : tu;
  unsigned ne = e_own < e_tu ? e_own : e_tu;
  /* not with gsan's own declarations missing (an installation without its
     data): every CUDA name would be an error */
  if (pick == own && access(scan_util_fmt("%s/scan_cuda.h", o->data_dir), R_OK) != 0) pick = NULL;
  if (pick) {
    record_errors(pick);
    fn_count c = {0};
    clang_visitChildren(clang_getTranslationUnitCursor(pick), count_visit, &c);
    if (c.intact + c.in_part) {
      parse_errors(pick, true);
      unsigned out_ = c.defs - c.intact - c.in_part;
      fprintf(stderr,
              "gsan scan: %s: analysed in part: %u error%s; of the %u functions defined in it and its headers, %u %s "
              "analysed in part (errors in their statements) and %u not at all (errors in their declarations, or "
              "in declarations they use)\n",
              file, ne, ne == 1 ? "" : "s", c.defs, c.in_part, c.in_part == 1 ? "is" : "are", out_);
      if (pick != tu && tu) clang_disposeTranslationUnit(tu);
      if (pick != own && own) clang_disposeTranslationUnit(own);
      out->tu = scan_front_tu = pick;
      out->own_decls = pick == own;
      out->errors = ne;
      return 0;
    }
    forget_errors(pick);
  }
  /* nothing left: the first parse's errors are the ones about the user's code */
  CXTranslationUnit shown = tu ? tu : own;
  if (!shown || ec) {
    scan_front_error = scan_util_fmt("libclang could not parse the file (error %d)", (int)ec);
    fprintf(stderr, "gsan scan: %s: %s\n", file, scan_front_error);
  } else {
    parse_errors(shown, true);
    fprintf(stderr, "gsan scan: %s: not analysed: the file does not parse\n", file);
  }
  if (tu) clang_disposeTranslationUnit(tu);
  if (own) clang_disposeTranslationUnit(own);
  clang_disposeIndex(out->index);
  return 2;
}

int scan_front_parse(const scan_front_opts *o, const char *file, const char *const *flags, int nflags, scan_tu *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(file, "r");
  if (!f) {
    scan_front_error = scan_util_fmt("cannot open '%s': %s", file, strerror(errno));
    fprintf(stderr, "gsan scan: %s\n", scan_front_error);
    return 2;
  }
  fclose(f);
  return parse(o, file, NULL, flags, nflags, out);
}

int scan_front_parse_text(const scan_front_opts *o, const char *name, const char *text, size_t len,
                     const char *const *flags, int nflags, scan_tu *out) {
  memset(out, 0, sizeof *out);
  struct CXUnsavedFile unsaved = {name, text, len};
  scan_diag_source_text(scan_util_intern(name), text, len);
  return parse(o, name, &unsaved, flags, nflags, out);
}

void scan_front_dispose(scan_tu *t) {
  if (t->tu) forget_errors(t->tu);
  if (t->tu) clang_disposeTranslationUnit(t->tu);
  if (t->index) clang_disposeIndex(t->index);
  scan_front_tu = NULL;
}

/* ---- cursors ---- */

static const char *file_name(CXFile f) {
  if (!f) return NULL;
  CXString s = clang_getFileName(f);
  const char *r = scan_util_intern(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

scan_loc scan_front_cursor_loc(CXCursor c) {
  CXFile f;
  unsigned line, col;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
  scan_loc l = {file_name(f), line, col};
  return l;
}

char *scan_front_cursor_text(CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f1, f2;
  unsigned o1, o2;
  clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
  size_t size = 0;
  const char *buf = f1 && clang_File_isEqual(f1, f2) ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), f1, &size) : NULL;
  if (!buf || o2 <= o1 || o2 > size) return scan_util_strdup(scan_front_cursor_name(c));
  scan_buf b = {0};
  bool space = false;
  for (unsigned i = o1; i < o2; i++) {
    char ch = buf[i];
    if (ch == '\n' || ch == '\t' || ch == ' ' || ch == '\r') {
      space = b.n > 0;
      continue;
    }
    if (space) scan_util_buf_addn(&b, " ", 1);
    space = false;
    scan_util_buf_addn(&b, &ch, 1);
  }
  if (b.n > 100) return scan_util_fmt("%.97s...", b.s);
  return b.s ? b.s : scan_util_strdup("");
}

const char *scan_front_cursor_name(CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *r = scan_util_intern(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

typedef struct {
  VEC(CXCursor) kids;
} kid_acc;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  kid_acc *a = d;
  VEC_PUSH(a->kids, c);
  return CXChildVisit_Continue;
}

int scan_front_cursor_children(CXCursor c, CXCursor **out) {
  kid_acc a = {0};
  clang_visitChildren(c, collect, &a);
  *out = a.kids.v;
  return (int)a.kids.n;
}

bool scan_front_cursor_in_system(CXCursor c) { return clang_Location_isInSystemHeader(clang_getCursorLocation(c)) != 0; }

CXCursor scan_front_callee(CXCursor call) {
  CXCursor c = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(c) || clang_isInvalid(clang_getCursorKind(c))) {
    /* a dependent call: its callee, the first child, names the overload set */
    CXCursor *k;
    if (scan_front_cursor_children(call, &k) > 0) {
      CXCursor f = scan_front_cursor_strip(k[0]);
      if (clang_getCursorKind(f) == CXCursor_DeclRefExpr) f = clang_getCursorReferenced(f);
      if (clang_getCursorKind(f) == CXCursor_OverloadedDeclRef) c = f;
    }
  }
  if (clang_getCursorKind(c) != CXCursor_OverloadedDeclRef) return c;
  int na = clang_Cursor_getNumArguments(call);
  unsigned n = clang_getNumOverloadedDecls(c), hits = 0;
  CXCursor found = clang_getNullCursor();
  for (unsigned i = 0; i < n && na >= 0; i++) {
    CXCursor d = clang_getOverloadedDecl(c, i);
    /* a template among them could be the one: not decided here */
    if (clang_getCursorKind(d) == CXCursor_FunctionTemplate) hits += 2;
    if (clang_getCursorKind(d) != CXCursor_FunctionDecl || clang_Cursor_getNumArguments(d) != na) continue;
    found = d;
    hits++;
  }
  return hits == 1 ? found : c;
}

CXCursor scan_front_cursor_strip(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) return c;
    CXCursor *kids;
    if (scan_front_cursor_children(c, &kids) != 1) return c;
    c = kids[0];
  }
}

typedef struct {
  enum CXCursorKind want;
  bool found;
} attr_q;

static enum CXChildVisitResult find_attr(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  attr_q *q = d;
  if (clang_getCursorKind(c) == q->want) {
    q->found = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

bool scan_front_cursor_has_attr(CXCursor c, enum CXCursorKind attr) {
  attr_q q = {attr, false};
  clang_visitChildren(c, find_attr, &q);
  return q.found;
}

const char *scan_front_cursor_member_token(CXCursor c) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  const char *r = NULL;
  if (n) {
    CXString s = clang_getTokenSpelling(tu, toks[n - 1]);
    const char *t = clang_getCString(s);
    if (!strcmp(t, "x") || !strcmp(t, "y") || !strcmp(t, "z")) r = scan_util_intern(t);
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return r; /* NULL: written inside a macro (scan_front_macro_member) */
}

/* ---- members written inside macros ----
   libclang maps a location in a macro's expansion to the macro's call, so
   `b[TID]` with `#define TID (threadIdx.x + blockIdx.x * blockDim.x)` shows
   neither the tokens nor the member of the builtins TID uses. The macros
   of the translation unit's files are read once (each `#define` line, with
   its continuations); the member of `threadIdx` in TID is the one axis that
   follows `threadIdx.` in TID's body or in the macros it names, several
   levels down. Two axes (`threadIdx.y * W + threadIdx.x`), or a macro
   defined differently in several places (#if/#else), decide nothing. */
typedef struct {
  const char *name, *body;
} macro_def;
typedef struct {
  CXTranslationUnit tu;
  VEC(macro_def) defs;
} macro_table;
static VEC(macro_table *) macro_tables;

static bool ident_char(char c) { return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static void macros_of_file(macro_table *t, const char *buf, size_t size) {
  for (size_t i = 0; i < size;) {
    size_t j = i;
    while (j < size && (buf[j] == ' ' || buf[j] == '\t')) j++;
    if (j + 7 < size && buf[j] == '#') {
      j++;
      while (j < size && (buf[j] == ' ' || buf[j] == '\t')) j++;
      if (j + 6 < size && !strncmp(buf + j, "define", 6) && (buf[j + 6] == ' ' || buf[j + 6] == '\t')) {
        j += 6;
        while (j < size && (buf[j] == ' ' || buf[j] == '\t')) j++;
        size_t n0 = j;
        while (j < size && ident_char(buf[j])) j++;
        size_t n1 = j;
        if (j < size && buf[j] == '(')
          while (j < size && buf[j] != ')' && buf[j] != '\n') j++;
        VEC(char) body = {0};
        for (; j < size && buf[j] != '\n'; j++) {
          if (buf[j] == '\\' && j + 1 < size && buf[j + 1] == '\n') {
            j++;
            continue;
          }
          VEC_PUSH(body, buf[j]);
        }
        VEC_PUSH(body, 0);
        if (n1 > n0) VEC_PUSH(t->defs, ((macro_def){scan_util_intern_n(buf + n0, n1 - n0), body.v}));
      }
    }
    while (i < size && buf[i] != '\n') i++;
    i++;
  }
}

static void inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  macro_table *t = d;
  size_t size = 0;
  const char *buf = clang_getFileContents(t->tu, f, &size);
  if (buf) macros_of_file(t, buf, size);
}

/* the definition of the n-byte name; NULL when the files define it
   differently in several places (#if/#else, #undef): which one the
   preprocessor took is not known here */
static const char *macro_body(macro_table *t, const char *name, size_t n) {
  const char *body = NULL;
  for (size_t i = 0; i < t->defs.n; i++) {
    if (strncmp(t->defs.v[i].name, name, n) || t->defs.v[i].name[n]) continue;
    if (body && strcmp(body, t->defs.v[i].body)) return NULL;
    body = t->defs.v[i].body;
  }
  return body;
}

/* the axes (bit 0: x) that follow `builtin.` in the body of macro name and
   the macros it names */
typedef struct {
  const char *seen[64]; /* bodies read for this question: each once */
  int n;
} macro_walk;

static unsigned macro_axes(macro_table *t, const char *name, size_t n, const char *builtin, int depth, macro_walk *w) {
  const char *b = macro_body(t, name, n);
  if (!b || depth > 8 || w->n == 64) return 0;
  for (int i = 0; i < w->n; i++)
    if (w->seen[i] == b) return 0;
  w->seen[w->n++] = b;
  unsigned axes = 0;
  size_t bl = strlen(builtin);
  for (const char *p = b; *p;) {
    if (!ident_char(*p) || (p > b && ident_char(p[-1]))) {
      p++;
      continue;
    }
    const char *q = p;
    while (ident_char(*q)) q++;
    if ((size_t)(q - p) == bl && !strncmp(p, builtin, bl)) {
      const char *r = q;
      while (*r == ' ') r++;
      if (*r == '.') {
        r++;
        while (*r == ' ') r++;
        if ((*r == 'x' || *r == 'y' || *r == 'z') && !ident_char(r[1])) axes |= 1u << (*r - 'x');
      }
    } else if ((size_t)(q - p) != n || strncmp(p, name, n)) {
      axes |= macro_axes(t, p, (size_t)(q - p), builtin, depth + 1, w);
    }
    p = q;
  }
  return axes;
}

const char *scan_front_macro_member(CXCursor c, const char *builtin) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXFile f;
  unsigned off;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
  size_t size = 0;
  const char *buf = f ? clang_getFileContents(tu, f, &size) : NULL;
  if (!buf || off >= size || !ident_char(buf[off])) return NULL;
  size_t e = off;
  while (e < size && ident_char(buf[e])) e++;
  macro_table *t = NULL;
  for (size_t i = 0; i < macro_tables.n && !t; i++)
    if (macro_tables.v[i]->tu == tu) t = macro_tables.v[i];
  if (!t) {
    t = scan_util_alloc(sizeof *t);
    memset(t, 0, sizeof *t);
    t->tu = tu;
    clang_getInclusions(tu, inclusion, t);
    VEC_PUSH(macro_tables, t);
  }
  macro_walk w = {.n = 0};
  unsigned axes = macro_axes(t, buf + off, e - off, builtin, 0, &w);
  return axes == 1 ? "x" : axes == 2 ? "y" : axes == 4 ? "z" : NULL;
}

void scan_front_reset(void) {
  memset(&macro_tables, 0, sizeof macro_tables);
  memset(&errs, 0, sizeof errs);
  memset(&fn_states, 0, sizeof fn_states);
}

/* ---- types ---- */

ctype scan_front_ctype(CXType t) {
  ctype r = {CT_OTHER, 0, false, clang_getCanonicalType(t)};
  switch (r.t.kind) {
  case CXType_Bool: r.k = CT_BOOL; r.w = 1; break;
  case CXType_Char_U: case CXType_UChar: r.k = CT_INT; r.w = 8; break;
  case CXType_Char_S: case CXType_SChar: r.k = CT_INT; r.w = 8; r.sgn = true; break;
  case CXType_Char16: case CXType_UShort: r.k = CT_INT; r.w = 16; break;
  case CXType_Short: r.k = CT_INT; r.w = 16; r.sgn = true; break;
  case CXType_Char32: case CXType_UInt: r.k = CT_INT; r.w = 32; break;
  case CXType_Int: case CXType_WChar: r.k = CT_INT; r.w = 32; r.sgn = true; break;
  case CXType_Long: case CXType_LongLong: r.k = CT_INT; r.w = 64; r.sgn = true; break;
  case CXType_ULong: case CXType_ULongLong: r.k = CT_INT; r.w = 64; break;
  case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Half:
  case CXType_Float16: case CXType_BFloat16: case CXType_Float128:
    r.k = CT_FLOAT;
    break;
  case CXType_Pointer: case CXType_NullPtr: case CXType_BlockPointer: r.k = CT_PTR; r.w = 64; break;
  case CXType_LValueReference: case CXType_RValueReference: r.k = CT_REF; break;
  case CXType_ConstantArray: case CXType_IncompleteArray: case CXType_VariableArray:
    r.k = CT_ARRAY;
    break;
  case CXType_Record: r.k = CT_REC; break;
  case CXType_Void: r.k = CT_VOID; break;
  case CXType_Enum: {
    ctype u = scan_front_ctype(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(r.t)));
    u.t = r.t;
    return u;
  }
  default: break;
  }
  return r;
}

uint64_t scan_front_ctype_size(CXType t) {
  long long s = clang_Type_getSizeOf(t);
  return s > 0 ? (uint64_t)s : 0;
}

CXType scan_front_ctype_pointee(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
    return clang_getPointeeType(t);
  return clang_getArrayElementType(t);
}

const char *scan_front_type_text(CXType t) {
  CXString s = clang_getTypeSpelling(t);
  const char *r = scan_util_intern(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

bool scan_front_ctype_is_dim3(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind != CXType_Record) return false;
  CXString s = clang_getTypeSpelling(c);
  const char *n = clang_getCString(s);
  bool r = !strcmp(n, "dim3") || !strcmp(n, "struct dim3") || !strcmp(n, "uint3") || !strcmp(n, "struct uint3");
  clang_disposeString(s);
  return r;
}
