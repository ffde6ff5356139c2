/* std::vector as the model follows it: a host vector is a record of two
 * values, its elements (a host allocation of size * sizeof(T) bytes, made
 * where the vector is built or resized) and its size. Built with a count
 * (and a value), empty, or as a copy of a vector the model follows; then
 * size(), empty() and data() are those values, and resize(n) makes a new
 * allocation of n elements. Any other call that may change the vector
 * (push_back, assign, insert, clear, reserve, operator=, swap...) makes it
 * a vector the model does not follow: its size and elements are opaque from
 * there on, as every call on a vector was before. Element accesses through
 * operator[] are not checked here (they are host code's own business); the
 * point is the sizes and pointers that reach copies, allocations and
 * launches. */
#include "scan_interp.h"

#include <string.h>

static const char *f_data, *f_size;

static void names(void) {
  if (!f_data) {
    f_data = scan_util_intern("__vector_data");
    f_size = scan_util_intern("__vector_size");
  }
}

/* the canonical type below references and qualifiers */
static CXType bare(CXType t) {
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) t = clang_getPointeeType(t);
  return clang_getUnqualifiedType(clang_getCanonicalType(t));
}

/* 1 when t is std::vector<T, ...> whose T has a known size (*elem) */
static bool vector_type(CXType t, uint64_t *elem) {
  t = bare(t);
  CXString s = clang_getTypeSpelling(t);
  const char *sp = clang_getCString(s);
  bool is = sp && (!strncmp(sp, "std::vector<", 12) || !strncmp(sp, "std::__1::vector<", 17));
  clang_disposeString(s);
  if (!is || clang_Type_getNumTemplateArguments(t) < 1) return false;
  *elem = scan_front_ctype_size(clang_Type_getTemplateArgumentAsType(t, 0));
  return *elem != 0;
}

static val vector_rec(val data, const sx *count64) {
  names();
  rec *r = scan_util_alloc(sizeof *r);
  r->n = 2;
  r->names = scan_util_alloc(2 * sizeof *r->names);
  r->vals = scan_util_alloc(2 * sizeof *r->vals);
  r->names[0] = f_data;
  r->names[1] = f_size;
  r->vals[0] = data;
  r->vals[1] = scan_eval_val_int(count64);
  val v = scan_eval_val_none();
  v.k = V_REC;
  v.r = r;
  return v;
}

/* a vector of count64 elements of elem bytes, allocated at 'at' */
static val vector_val(const sx *count64, uint64_t elem, CXCursor at, const char *name, const char *size_text) {
  const sx *bytes = scan_expr_bin(SX_MUL, count64, scan_expr_const(64, elem));
  int region = scan_model_region(RG_HOST, name, scan_front_cursor_loc(at), bytes, size_text);
  return vector_rec(scan_eval_val_ptr(region, scan_expr_const(64, 0)), count64);
}

/* v is a vector the model follows: its size, 64-bit, in *count */
static bool followed(val v, const sx **count) {
  names();
  if (v.k != V_REC || v.r->n != 2 || v.r->names[0] != f_data || v.r->names[1] != f_size) return false;
  val n = v.r->vals[1];
  if (n.k != V_INT || n.e->w != 64) return false;
  *count = n.e;
  return true;
}

/* an integer argument as a 64-bit count, or NULL */
static const sx *count_of(interp *I, CXCursor a) {
  val v = scan_eval_expr(I, a);
  if (v.k != V_INT) return NULL;
  ctype t = scan_front_ctype(clang_getCursorType(a));
  return scan_eval_val_to64(v, t.k == CT_INT && t.sgn);
}

bool scan_stl_construct(interp *I, CXCursor e, CXCursor ctor, val *out) {
  uint64_t elem;
  CXType t = clang_getCursorType(e);
  if (!vector_type(t, &elem)) return false;
  int n = clang_Cursor_getNumArguments(e);
  const char *name = !clang_Cursor_isNull(I->hint_decl) && clang_equalCursors(I->hint_call, e)
                         ? scan_front_cursor_name(I->hint_decl)
                         : "the vector";
  if (n == 0) {
    *out = vector_val(scan_expr_const(64, 0), elem, e, name, "0");
    return true;
  }
  CXCursor a0 = clang_Cursor_getArgument(e, 0);
  uint64_t e2;
  if (vector_type(clang_getCursorType(a0), &e2) && e2 == elem &&
      (clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor))) {
    /* a copy has elements of its own, as many as the original's */
    const sx *count;
    val src = scan_eval_expr(I, a0);
    if (!followed(src, &count)) return false;
    *out = vector_val(count, elem, e, name, scan_util_fmt("%s.size()", scan_front_cursor_text(a0)));
    return true;
  }
  /* vector(n), vector(n, value) (and the allocator clang counts as an
     argument): n elements, n an integer, not an iterator; the value is not
     followed */
  if (n <= 3 && scan_front_ctype(clang_getCursorType(a0)).k == CT_INT &&
      scan_front_ctype(clang_getArgType(clang_getCursorType(ctor), 0)).k == CT_INT) {
    const sx *count = count_of(I, a0);
    if (!count) return false;
    *out = vector_val(count, elem, e, name, scan_front_cursor_text(a0));
    return true;
  }
  return false;
}

/* methods that leave the vector as it is (their non-const overloads too) */
static const char *const keeps[] = {"size", "data", "empty", "begin", "end", "cbegin", "cend", "rbegin", "rend",
                                    "front", "back", "operator[]", "at", "capacity", "max_size", "get_allocator",
                                    NULL};

/* the vector object of a call, when the call is a method (or member
   operator) of std::vector (*elem: its elements' size); *keep: the method
   leaves it as it is */
static bool vector_call(CXCursor e, CXCursor callee, CXCursor *obj, uint64_t *elem, bool *keep) {
  if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_CXXMethod || clang_CXXMethod_isStatic(callee))
    return false;
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) < 1) return false;
  CXCursor mem = scan_front_cursor_strip(k[0]);
  if (clang_getCursorKind(mem) == CXCursor_MemberRefExpr) {
    CXCursor *m;
    if (scan_front_cursor_children(mem, &m) != 1) return false;
    *obj = m[0];
  } else if (clang_Cursor_getNumArguments(e) >= 1) {
    *obj = clang_Cursor_getArgument(e, 0); /* a member operator's object (v = w) */
  } else {
    return false;
  }
  if (scan_front_ctype(clang_getCursorType(*obj)).k == CT_PTR || !vector_type(clang_getCursorType(*obj), elem))
    return false;
  const char *name = scan_front_cursor_name(callee);
  *keep = false;
  for (int i = 0; keeps[i]; i++) *keep |= !strcmp(name, keeps[i]);
  return true;
}

bool scan_stl_changes(CXCursor call, CXCursor *obj) {
  uint64_t elem;
  bool keep;
  return vector_call(call, clang_getCursorReferenced(call), obj, &elem, &keep) && !keep;
}

bool scan_stl_method(interp *I, CXCursor e, CXCursor callee, val *out) {
  CXCursor obj;
  bool keep;
  uint64_t elem;
  if (!vector_call(e, callee, &obj, &elem, &keep)) return false;
  lval lv = scan_eval_lval(I, obj);
  if (lv.k != LV_VAR) return false;
  val self = scan_eval_lval_load(I, &lv, e);
  /* a reference to a vector (a parameter): the vector it refers to */
  for (int hop = 0; hop < 2 && self.k == V_ADDR; hop++) {
    lv = *self.addr;
    self = scan_eval_lval_load(I, &lv, e);
  }
  const sx *count;
  bool known = followed(self, &count);
  const char *name = scan_front_cursor_name(callee);
  scan_loc loc = scan_front_cursor_loc(e);
  CXType rt = clang_getCursorType(e);
  if (keep) {
    if (!known) return false;
    if (!strcmp(name, "size")) {
      *out = scan_eval_val_int(count); /* size_type: 64 bits */
      return true;
    }
    if (!strcmp(name, "empty")) {
      *out = scan_eval_val_int(scan_expr_bin(SX_EQ, count, scan_expr_const(64, 0)));
      return true;
    }
    if (!strcmp(name, "data")) {
      *out = scan_eval_rec_get(self, f_data);
      return true;
    }
    return false; /* begin(), operator[]...: as before */
  }
  val *args;
  int na = scan_exec_call_args(I, e, callee, &args);
  val now;
  if (!strcmp(name, "resize") && na >= 1 && args[0].k == V_INT) {
    /* a new allocation of the new size (the old one may have moved) */
    now = vector_val(scan_eval_val_to64(args[0], false), elem, e, scan_eval_lval_name(&lv),
                     scan_front_cursor_text(clang_Cursor_getArgument(e, 0)));
  } else {
    /* its size and elements from here on: unknown, saying why */
    const char *why = scan_util_fmt("'%s' is changed by '%s' at line %u, which the model does not follow",
                                    scan_eval_lval_name(&lv), name, loc.line);
    now = vector_rec(scan_eval_val_unknown_ptr(why), scan_expr_opaque(64, false, loc, why));
  }
  scan_eval_lval_store(I, &lv, now, e);
  *out = scan_front_ctype(rt).k == CT_VOID ? scan_eval_val_none() : scan_eval_val_opaque(rt, loc, scan_util_fmt("the value is returned by '%s'", name));
  return true;
}
