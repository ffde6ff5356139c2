/* scan_tables.c: arrays of integer constants that the program only reads
 * (a size table, `int probSizes[4] = {24, 32, 40, 48}`; a bit reversal,
 * `const int rev[] = {0, 4, 2, 6}`; a `__constant__ int mask = 15;`, a table
 * of one): the value a read gives.
 *
 * An array qualifies when its initializer is a list of integer constants and
 * nothing writes it: it is const, or it is a local whose every use in its
 * function is a read of one element (`t[i]` as a value), a sizeof, or the
 * value given to a local pointer (`int *p = fp64 ? dp : sp;`, `p = t;`) whose
 * own uses are element reads or new values. Anything else (an element
 * assigned, incremented, bound to a reference, its address taken, the array
 * passed to a call, a pointer to it moved by arithmetic) keeps it out. The
 * check is syntactic and ignores order, so a write anywhere in the function
 * keeps the table out even where it comes after every read. A global (array
 * or integer) qualifies by the same rules over its unit's own code (one walk
 * per unit finds every global it writes; a scalar must be read as a value,
 * and a call that writes a device symbol, cudaMemcpyToSymbol, writes it)
 * when no other unit can write it: it is static, in an unnamed namespace, or
 * a __constant__ or __device__ variable (a device symbol is its unit's unless
 * the program links device code across units, -rdc, which is not modelled).
 *
 * A read of a qualifying array by its element type, at a byte offset OFF
 * from its start, is the exact value: ite(OFF == 0, t[0], ite(OFF == w,
 * t[1], ...)) for up to TABLE_EXACT elements (the read itself is checked as
 * an access, so an offset outside the array is reported there; the value
 * after it is the last element's). A longer table gives a value between
 * the least and the greatest element. A read by another type (through a
 * cast pointer) gets neither: it is a value read from memory. */
#include "scan_interp.h"

enum { TABLE_EXACT = 64, TABLE_KEEP = 4096 };

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }
static bool null(CXCursor c) { return clang_Cursor_isNull(c) != 0; }

/* ---- which arrays only ever get read ---- */

/* the cursors from the function down to the one being visited */
typedef struct {
  CXCursor *v;
  size_t n, cap;
  CXCursor decl;      /* the array, or the pointer being checked */
  cursor_vec aliases; /* local pointers the array's address is given to */
  bool written;
} walk;

static void push(walk *w, CXCursor c) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 64;
    CXCursor *v = scan_util_alloc(cap * sizeof *v);
    if (w->n) memcpy(v, w->v, w->n * sizeof *v);
    w->v = v;
    w->cap = cap;
  }
  w->v[w->n++] = c;
}

/* the nearest ancestor of stack entry i that is not a parenthesis or an
   implicit conversion; *below is the entry under it */
static size_t up(const walk *w, size_t i, size_t *below) {
  while (i > 0) {
    enum CXCursorKind k = kind(w->v[i - 1]);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr) break;
    i--;
  }
  *below = i;
  return i > 0 ? i - 1 : (size_t)-1;
}

static bool first_child_is(CXCursor parent, CXCursor c) {
  CXCursor *k;
  return scan_front_cursor_children(parent, &k) >= 1 && clang_equalCursors(k[0], c);
}

/* stack entry i (an element, t[j]) is used as a value: below an implicit
   conversion (lvalue to rvalue: the element is an integer, no other
   conversion applies to it as an lvalue), not written, bound or addressed */
static bool element_read(const walk *w, size_t i) {
  while (i > 0 && kind(w->v[i - 1]) == CXCursor_ParenExpr) i--;
  return i > 0 && kind(w->v[i - 1]) == CXCursor_UnexposedExpr;
}

static bool in_sizeof(const walk *w) {
  for (size_t i = 0; i < w->n; i++)
    if (kind(w->v[i]) == CXCursor_UnaryExpr) return true; /* sizeof, alignof: not evaluated */
  return false;
}

/* a local pointer variable that the value at stack entry i is given to, by
   its initializer or a plain assignment, through conditional operators */
static CXCursor alias_target(const walk *w, size_t i) {
  size_t below, p = up(w, i, &below);
  while (p != (size_t)-1 && kind(w->v[p]) == CXCursor_ConditionalOperator && !first_child_is(w->v[p], w->v[below]))
    p = up(w, p, &below);
  if (p == (size_t)-1) return clang_getNullCursor();
  CXCursor a = w->v[p], target = clang_getNullCursor();
  if (kind(a) == CXCursor_VarDecl) target = a;
  if (kind(a) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(a) == CXBinaryOperator_Assign &&
      !first_child_is(a, w->v[below])) {
    CXCursor *k;
    if (scan_front_cursor_children(a, &k) == 2) {
      CXCursor l = scan_front_cursor_strip(k[0]);
      if (kind(l) == CXCursor_DeclRefExpr) target = clang_getCursorReferenced(l);
    }
  }
  if (null(target) || kind(target) != CXCursor_VarDecl || scan_front_ctype(clang_getCursorType(target)).k != CT_PTR ||
      clang_getCursorLinkage(target) != CXLinkage_NoLinkage)
    return clang_getNullCursor();
  return target;
}

/* inside a call that writes a device symbol (cudaMemcpyToSymbol(sym, ...),
   cudaGetSymbolAddress(&p, sym)), which takes it by reference */
static bool in_symbol_call(const walk *w) {
  for (size_t i = 0; i < w->n; i++)
    if (kind(w->v[i]) == CXCursor_CallExpr) {
      const char *f = scan_front_cursor_name(w->v[i]);
      if (f && strstr(f, "Symbol") && !strstr(f, "FromSymbol")) return true;
    }
  return false;
}

typedef enum { U_ARRAY, U_SCALAR, U_POINTER } use_of;
typedef enum { USE_READ, USE_ALIAS, USE_WRITE } use_kind;

/* what the reference to w->decl at the top of the stack does with it; for
   USE_ALIAS, *alias is the local pointer the array's address is given to */
static use_kind classify(const walk *w, use_of what, CXCursor *alias) {
  size_t i = w->n - 1, below, p = up(w, i, &below);
  if (in_sizeof(w)) return USE_READ;
  if (p == (size_t)-1 || in_symbol_call(w)) return USE_WRITE;
  CXCursor a = w->v[p];
  /* a scalar read as a value: below an implicit conversion (lvalue to rvalue) */
  if (what == U_SCALAR) return element_read(w, i) ? USE_READ : USE_WRITE;
  /* t[j] read, t the base */
  if (kind(a) == CXCursor_ArraySubscriptExpr && first_child_is(a, w->v[below]) && element_read(w, p)) return USE_READ;
  if (what == U_POINTER && kind(a) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(a) == CXBinaryOperator_Assign &&
      first_child_is(a, w->v[below]))
    return USE_READ; /* the pointer given a new value */
  if (what == U_ARRAY) {
    *alias = alias_target(w, i);
    if (!null(*alias)) return USE_ALIAS;
  }
  return USE_WRITE;
}

static void add_alias(walk *w, CXCursor t) {
  for (size_t k = 0; k < w->aliases.n; k++)
    if (clang_equalCursors(w->aliases.v[k], t)) return;
  VEC_PUSH(w->aliases, t);
}

static void global_reference(walk *w, CXCursor d);

typedef struct {
  walk *w;
  use_of what; /* what w->decl is; with no decl, every global of the unit is looked at */
} visit_ctx;

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  visit_ctx *x = data;
  walk *w = x->w;
  if (w->written) return CXChildVisit_Break;
  push(w, c);
  if (kind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (null(w->decl)) {
      global_reference(w, d);
    } else if (clang_equalCursors(d, w->decl)) {
      CXCursor t = clang_getNullCursor();
      use_kind u = classify(w, x->what, &t);
      if (u == USE_WRITE) w->written = true;
      if (u == USE_ALIAS) add_alias(w, t);
    }
  }
  clang_visitChildren(c, visit, data);
  w->n--;
  return w->written ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* nothing in FN writes through DECL (an array, a scalar, or a pointer to an array) */
static bool read_only_in(CXCursor fn, CXCursor decl, use_of what, cursor_vec *aliases) {
  walk w = {.decl = decl};
  visit_ctx x = {&w, what};
  push(&w, fn);
  clang_visitChildren(fn, visit, &x);
  if (aliases) *aliases = w.aliases;
  return !w.written;
}

static bool is_function(CXCursor c) {
  enum CXCursorKind k = kind(c);
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
         k == CXCursor_Constructor || k == CXCursor_Destructor;
}

/* the local pointers an array's address was given to only read through it */
static bool aliases_read_only(cursor_vec *aliases, CXType el) {
  CXType et = clang_getCanonicalType(el);
  for (size_t i = 0; i < aliases->n; i++) {
    /* the pointer's type must read the array's elements as they are */
    CXType pt = clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(aliases->v[i])));
    if (scan_front_ctype_size(pt) != scan_front_ctype_size(et) || scan_front_ctype(pt).k != CT_INT) return false;
    CXCursor fn = clang_getCursorSemanticParent(aliases->v[i]);
    if (!is_function(fn) || !read_only_in(fn, aliases->v[i], U_POINTER, NULL)) return false;
  }
  return true;
}

/* ---- globals: one walk over a unit's own code finds every one it writes ---- */
static struct {
  CXTranslationUnit tu;          /* the unit walked last, or NULL */
  VEC(const char *) written;     /* USRs of the globals it writes */
} G;

void scan_tables_reset(void) { memset(&G, 0, sizeof G); }

static bool global_var(CXCursor d) {
  if (kind(d) != CXCursor_VarDecl) return false;
  enum CXCursorKind p = kind(clang_getCursorSemanticParent(d));
  return p == CXCursor_TranslationUnit || p == CXCursor_Namespace;
}

static void mark_written(CXCursor d) {
  const char *u = scan_unit_usr(d);
  for (size_t i = 0; i < G.written.n; i++)
    if (G.written.v[i] == u) return;
  VEC_PUSH(G.written, u);
}

/* a reference at the top of the stack to D: a global integer or array
   that it writes (or gives to a pointer that writes) is marked */
static void global_reference(walk *w, CXCursor d) {
  ctype t = global_var(d) ? scan_front_ctype(clang_getCursorType(d)) : (ctype){.k = CT_OTHER};
  if (t.k != CT_INT && t.k != CT_ARRAY) return;
  CXCursor alias = clang_getNullCursor();
  use_kind u = classify(w, t.k == CT_ARRAY ? U_ARRAY : U_SCALAR, &alias);
  if (u == USE_ALIAS) {
    cursor_vec one = {0};
    VEC_PUSH(one, alias);
    if (!aliases_read_only(&one, clang_getArrayElementType(clang_getCursorType(d)))) u = USE_WRITE;
  }
  if (u == USE_WRITE) mark_written(d);
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  if (scan_front_cursor_in_system(c)) return CXChildVisit_Continue;
  visit_ctx *x = data;
  x->w->n = 0;
  return visit(c, parent, data) == CXChildVisit_Break ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* a global nothing writes: const, or one no code outside its unit can name
   (static, in an unnamed namespace) or a __constant__ / __device__ variable
   (a device symbol belongs to its unit unless the program links device code
   across units, -rdc) that no code of the unit writes */
static bool global_read_only(CXCursor d) {
  CXType t = clang_getCursorType(d);
  if (clang_isConstQualifiedType(t) || clang_isConstQualifiedType(clang_getArrayElementType(t))) return true;
  bool device = scan_front_cursor_has_attr(d, CXCursor_CUDAConstantAttr) || scan_front_cursor_has_attr(d, CXCursor_CUDADeviceAttr);
  enum CXLinkageKind link = clang_getCursorLinkage(d);
  if (!device && link != CXLinkage_Internal && link != CXLinkage_UniqueExternal) return false;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(d);
  if (G.tu != tu) {
    scan_tables_reset();
    G.tu = tu;
    walk w = {.decl = clang_getNullCursor()};
    visit_ctx x = {&w, U_ARRAY};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, &x);
  }
  const char *u = scan_unit_usr(d);
  for (size_t i = 0; i < G.written.n; i++)
    if (G.written.v[i] == u) return false;
  return true;
}

static bool read_only(CXCursor d) {
  if (global_var(d)) return global_read_only(d);
  CXType at = clang_getCursorType(d), el = clang_getArrayElementType(at);
  if (clang_isConstQualifiedType(el) || clang_isConstQualifiedType(at)) return true;
  CXCursor fn = clang_getCursorSemanticParent(d);
  if (!is_function(fn)) return false;
  cursor_vec aliases = {0};
  return read_only_in(fn, d, U_ARRAY, &aliases) && aliases_read_only(&aliases, el);
}

bool scan_tables_fixed_scalar(CXCursor d) {
  return scan_front_ctype(clang_getCursorType(d)).k == CT_INT && global_var(d) && global_read_only(d);
}

/* ---- the values ---- */

void scan_tables_values(CXCursor d, scan_region *r) {
  CXType at = clang_getCursorType(d), el = clang_getArrayElementType(at);
  CXCursor init = scan_front_cursor_strip(clang_Cursor_getVarDeclInitializer(d));
  CXCursor *k = &init;
  int n = !null(init) && kind(init) == CXCursor_InitListExpr ? scan_front_cursor_children(init, &k) : 0;
  if (scan_front_ctype(at).k == CT_INT) {
    /* a scalar (a __constant__ int): a table of one */
    el = at;
    n = null(init) ? 0 : 1;
  }
  uint64_t elsize = scan_front_ctype_size(el), size = scan_front_ctype_size(at);
  if (scan_front_ctype(el).k != CT_INT || n <= 0 || !elsize || elsize > 8 || n > TABLE_KEEP) return;
  int64_t *v = scan_util_alloc((size_t)n * sizeof *v);
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int i = 0; i < n; i++) {
    CXEvalResult e = clang_Cursor_Evaluate(k[i]);
    bool ok = e && clang_EvalResult_getKind(e) == CXEval_Int;
    v[i] = ok ? (int64_t)clang_EvalResult_getAsLongLong(e) : 0;
    if (e) clang_EvalResult_dispose(e);
    if (!ok) return;
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
  if (!read_only(d)) return;
  uint64_t count = size / elsize;
  /* elements the list leaves out are zero */
  if ((uint64_t)n < count) lo = lo > 0 ? 0 : lo, hi = hi < 0 ? 0 : hi;
  r->has_vals = true;
  r->lo = lo;
  r->hi = hi;
  r->elsize = (uint32_t)elsize;
  if (count <= TABLE_EXACT && count >= (uint64_t)n) {
    int64_t *all = scan_util_alloc((size_t)count * sizeof *all);
    memcpy(all, v, (size_t)n * sizeof *v);
    r->vals = all;
    r->nvals = (uint32_t)count;
  }
}

const sx *scan_tables_read(const scan_region *r, const sx *off, ctype t, scan_loc loc) {
  if (r->nvals) {
    const sx *v = scan_expr_const(t.w, (uint64_t)r->vals[r->nvals - 1]);
    for (uint32_t i = r->nvals - 1; i-- > 0;)
      v = scan_expr_ite(scan_expr_bin(SX_EQ, off, scan_expr_const(64, (uint64_t)i * r->elsize)),
                        scan_expr_const(t.w, (uint64_t)r->vals[i]), v);
    return v;
  }
  const sx *v = scan_expr_opaque(t.w, t.sgn, loc, scan_util_fmt("the value is an element of the constant array '%s'", r->name));
  sx_op le = t.sgn ? SX_SLE : SX_ULE;
  scan_expr_var_fact((int)v->k, scan_expr_and(scan_expr_bin(le, scan_expr_const(t.w, (uint64_t)r->lo), v),
                                              scan_expr_bin(le, v, scan_expr_const(t.w, (uint64_t)r->hi))));
  return v;
}
