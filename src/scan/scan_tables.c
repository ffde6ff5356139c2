/* scan_tables.c: arrays of integer constants that the program only reads
 * (a size table, `int probSizes[4] = {24, 32, 40, 48}`; a bit reversal,
 * `const int rev[] = {0, 4, 2, 6}`): the value a read gives.
 *
 * An array qualifies when its initializer is a list of integer constants and
 * nothing writes it: it is const, or it is a local whose every use in its
 * function is a read of one element (`t[i]` as a value), a sizeof, or the
 * value given to a local pointer (`int *p = fp64 ? dp : sp;`, `p = t;`) whose
 * own uses are element reads or new values. Anything else (an element
 * assigned, incremented, bound to a reference, its address taken, the array
 * passed to a call, a pointer to it moved by arithmetic) keeps it out. The
 * check is syntactic and ignores order, so a write anywhere in the function
 * keeps the table out even where it comes after every read.
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

/* a reference to w->decl at the top of the stack */
static void use(walk *w, bool is_array) {
  size_t i = w->n - 1, below, p = up(w, i, &below);
  if (in_sizeof(w)) return;
  if (p == (size_t)-1) goto written;
  CXCursor a = w->v[p];
  /* t[j] read, t the base */
  if (kind(a) == CXCursor_ArraySubscriptExpr && first_child_is(a, w->v[below]) && element_read(w, p)) return;
  if (!is_array && kind(a) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(a) == CXBinaryOperator_Assign &&
      first_child_is(a, w->v[below]))
    return; /* the pointer given a new value */
  if (is_array) {
    CXCursor t = alias_target(w, i);
    if (!null(t)) {
      for (size_t k = 0; k < w->aliases.n; k++)
        if (clang_equalCursors(w->aliases.v[k], t)) return;
      VEC_PUSH(w->aliases, t);
      return;
    }
  }
written:
  w->written = true;
}

typedef struct {
  walk *w;
  bool is_array;
} visit_ctx;

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  visit_ctx *x = data;
  walk *w = x->w;
  if (w->written) return CXChildVisit_Break;
  push(w, c);
  if (kind(c) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), w->decl)) use(w, x->is_array);
  clang_visitChildren(c, visit, data);
  w->n--;
  return w->written ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* nothing in FN writes through DECL (an array, or a pointer to one) */
static bool read_only_in(CXCursor fn, CXCursor decl, bool is_array, cursor_vec *aliases) {
  walk w = {.decl = decl};
  visit_ctx x = {&w, is_array};
  push(&w, fn);
  clang_visitChildren(fn, visit, &x);
  if (aliases) *aliases = w.aliases;
  return !w.written;
}

static bool read_only(CXCursor d) {
  CXType at = clang_getCursorType(d), el = clang_getArrayElementType(at);
  if (clang_isConstQualifiedType(el) || clang_isConstQualifiedType(at)) return true;
  CXCursor fn = clang_getCursorSemanticParent(d);
  enum CXCursorKind k = kind(fn);
  if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate &&
      k != CXCursor_Constructor && k != CXCursor_Destructor)
    return false; /* a global: other functions and files may write it */
  cursor_vec aliases = {0};
  if (!read_only_in(fn, d, true, &aliases)) return false;
  for (size_t i = 0; i < aliases.n; i++) {
    /* the pointer's type must read the array's elements as they are */
    CXType pt = clang_getCanonicalType(clang_getPointeeType(clang_getCursorType(aliases.v[i])));
    CXType et = clang_getCanonicalType(el);
    if (scan_front_ctype_size(pt) != scan_front_ctype_size(et) || scan_front_ctype(pt).k != CT_INT) return false;
    if (!read_only_in(fn, aliases.v[i], false, NULL)) return false;
  }
  return true;
}

/* ---- the values ---- */

void scan_tables_values(CXCursor d, scan_region *r) {
  CXType at = clang_getCursorType(d), el = clang_getArrayElementType(at);
  CXCursor init = scan_front_cursor_strip(clang_Cursor_getVarDeclInitializer(d));
  CXCursor *k;
  int n = !null(init) && kind(init) == CXCursor_InitListExpr ? scan_front_cursor_children(init, &k) : 0;
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
