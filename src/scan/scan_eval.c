/* scan_eval.c: expressions. Every integer operation follows C: the AST
 * already carries the usual arithmetic conversions and promotions as
 * implicit casts, so an operation here works in its operands' type, signed
 * or unsigned by that type, wrapping at its width; pointer arithmetic scales
 * by the element size and keeps the allocation the pointer came from. */
#include "scan_interp.h"

#include <stdlib.h>

val scan_eval_val_none(void) {
  val v = {0};
  v.k = V_NONE;
  v.region = -1;
  v.part = -1;
  return v;
}

val scan_eval_val_int(const sx *e) {
  val v = scan_eval_val_none();
  v.k = V_INT;
  v.e = e;
  return v;
}

val scan_eval_val_float(void) {
  val v = scan_eval_val_none();
  v.k = V_FLOAT;
  return v;
}

val scan_eval_val_ptr(int region, const sx *off) {
  val v = scan_eval_val_none();
  v.k = V_PTR;
  v.region = region;
  v.e = off;
  return v;
}

val scan_eval_val_unknown_ptr(const char *why) { return scan_eval_val_ptr(scan_model_unknown_region(why), scan_expr_const(64, 0)); }

val scan_eval_val_addr(lval lv) {
  val v = scan_eval_val_none();
  v.k = V_ADDR;
  lval *p = scan_util_alloc(sizeof *p);
  *p = lv;
  v.addr = p;
  return v;
}

typedef struct {
  scan_vkind k;
  const char *name;
  scan_loc loc;
  const char *why;
} fresh_arg;

static val fresh_field(CXType ft, const char *name, void *arg) {
  fresh_arg *a = arg;
  return scan_eval_val_fresh(ft, a->k, a->name ? scan_util_fmt("%s.%s", a->name, name) : NULL, a->loc, a->why);
}

val scan_eval_val_fresh(CXType t, scan_vkind k, const char *name, scan_loc loc, const char *why) {
  ctype c = scan_front_ctype(t);
  switch (c.k) {
  case CT_INT:
  case CT_BOOL: {
    if (k == VK_OPAQUE) return scan_eval_val_int(scan_expr_opaque(c.w, c.sgn, loc, why));
    int id = scan_expr_var_new(k, name ? name : "?", c.w, c.sgn, loc);
    scan_expr_var_get(id)->why = why;
    return scan_eval_val_int(scan_expr_var(id));
  }
  case CT_PTR:
    return scan_eval_val_unknown_ptr(k == VK_LOADED ? scan_util_fmt("the pointer is read from memory at line %u", loc.line)
                                        : why ? why : "the pointer's allocation is not known");
  case CT_FLOAT: return scan_eval_val_float();
  case CT_REC: {
    fresh_arg a = {k, name, loc, why};
    return scan_eval_rec_from_type(t, fresh_field, &a);
  }
  default: return scan_eval_val_none();
  }
}

val scan_eval_val_opaque(CXType t, scan_loc loc, const char *why) { return scan_eval_val_fresh(t, VK_OPAQUE, NULL, loc, why); }

/* ---- records ---- */
typedef struct {
  VEC(const char *) names;
  VEC(CXType) types;
} fields_acc;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d) {
  fields_acc *a = d;
  VEC_PUSH(a->names, scan_front_cursor_name(c));
  VEC_PUSH(a->types, clang_getCursorType(c));
  return CXVisit_Continue;
}

val scan_eval_rec_from_type(CXType t, val (*field)(CXType ft, const char *name, void *arg), void *arg) {
  fields_acc a = {0};
  clang_Type_visitFields(clang_getCanonicalType(t), field_visit, &a);
  rec *r = scan_util_alloc(sizeof *r);
  r->n = (int)a.names.n;
  r->names = a.names.v;
  r->vals = scan_util_alloc((a.names.n + 1) * sizeof *r->vals);
  for (size_t i = 0; i < a.names.n; i++) r->vals[i] = field(a.types.v[i], a.names.v[i], arg);
  val v = scan_eval_val_none();
  v.k = V_REC;
  v.r = r;
  return v;
}

val scan_eval_rec_get(val r, const char *f) {
  if (r.k == V_REC)
    for (int i = 0; i < r.r->n; i++)
      if (r.r->names[i] == f) return r.r->vals[i];
  return scan_eval_val_none();
}

val scan_eval_rec_set(val r, const char *f, val v) {
  if (r.k != V_REC) return r;
  rec *n = scan_util_alloc(sizeof *n);
  n->n = r.r->n;
  n->names = r.r->names;
  n->vals = scan_util_alloc((size_t)(n->n + 1) * sizeof *n->vals);
  memcpy(n->vals, r.r->vals, (size_t)n->n * sizeof *n->vals);
  for (int i = 0; i < n->n; i++)
    if (n->names[i] == f) n->vals[i] = v;
  r.r = n;
  return r;
}

/* ---- conversions ---- */
const sx *scan_eval_val_to64(val v, bool sgn) { return scan_expr_ext(sgn ? SX_SEXT : SX_ZEXT, v.e, 64); }

static const sx *int_conv(const sx *e, bool from_sgn, unsigned to_w) {
  if (to_w == 1) return scan_expr_not(scan_expr_bin(SX_EQ, e, scan_expr_const(e->w, 0)));
  if (e->w == to_w) return e;
  if (e->w > to_w) return scan_expr_ext(SX_TRUNC, e, to_w);
  return scan_expr_ext(from_sgn && e->w > 1 ? SX_SEXT : SX_ZEXT, e, to_w);
}

const sx *scan_eval_val_cond(val v, scan_loc loc) {
  switch (v.k) {
  case V_INT: return v.e->w == 1 ? v.e : scan_expr_not(scan_expr_bin(SX_EQ, v.e, scan_expr_const(v.e->w, 0)));
  case V_PTR:
  case V_ADDR:
    if (v.k == V_PTR && v.region < 0) return scan_expr_false();
    return scan_expr_opaque(1, false, loc, "the condition tests a pointer");
  default: return scan_expr_opaque(1, false, loc, "the condition is not an integer the model follows");
  }
}

val scan_eval_val_conv(val v, CXType from, CXType to, scan_loc loc) {
  ctype f = scan_front_ctype(from), t = scan_front_ctype(to);
  switch (t.k) {
  case CT_INT:
  case CT_BOOL:
    if (v.k == V_INT) return scan_eval_val_int(int_conv(v.e, f.sgn, t.w));
    if (v.k == V_PTR && v.region < 0) return scan_eval_val_int(scan_expr_const(t.w, 0));
    if (v.k == V_FLOAT) return scan_eval_val_opaque(to, loc, "the value is converted from floating point");
    if (v.k == V_PTR || v.k == V_ADDR) {
      if (t.k == CT_BOOL) return scan_eval_val_int(scan_eval_val_cond(v, loc));
      return scan_eval_val_opaque(to, loc, "a pointer is converted to an integer");
    }
    return scan_eval_val_opaque(to, loc, "the value is not one the model follows");
  case CT_PTR:
    if (v.k == V_PTR || v.k == V_ADDR) return v;
    if (v.k == V_INT) {
      uint64_t k;
      if (scan_expr_is_const(v.e, &k) && k == 0) return scan_eval_val_ptr(-1, scan_expr_const(64, 0));
      return scan_eval_val_unknown_ptr(scan_util_fmt("an integer is converted to a pointer at line %u", loc.line));
    }
    if (f.k == CT_ARRAY || f.k == CT_PTR) return v.k == V_NONE ? scan_eval_val_unknown_ptr("the pointer is not modelled") : v;
    return scan_eval_val_unknown_ptr("the pointer is not modelled");
  case CT_FLOAT: return scan_eval_val_float();
  case CT_VOID: return scan_eval_val_none();
  default: return v;
  }
}

bool scan_eval_val_same(val a, val b) {
  if (a.k != b.k) return false;
  switch (a.k) {
  case V_INT: return a.e == b.e;
  case V_PTR: return a.region == b.region && a.part == b.part && a.e == b.e;
  case V_REC:
    if (a.r == b.r) return true;
    if (a.r->n != b.r->n) return false;
    for (int i = 0; i < a.r->n; i++)
      if (!scan_eval_val_same(a.r->vals[i], b.r->vals[i])) return false;
    return true;
  case V_ADDR: return a.addr == b.addr;
  default: return true;
  }
}

/* a region a join may choose: one the model knows, or a join of such */
static bool joinable(int region) {
  const scan_region *r = scan_model_reg(region);
  return scan_model_known(r) || r->kind == RG_JOIN;
}

val scan_eval_val_merge(const sx *c, val a, val b, scan_loc at) {
  if (scan_eval_val_same(a, b)) return a;
  /* a condition the build fixes (sizeof(real) == sizeof(double) in a template) */
  if (scan_expr_is_false(c)) return b;
  if (scan_expr_is_false(scan_expr_not(c))) return a;
  if (a.k == V_INT && b.k == V_INT && a.e->w == b.e->w) return scan_eval_val_int(scan_expr_ite(c, a.e, b.e));
  if (a.k == V_PTR && b.k == V_PTR && a.region == b.region && a.part == b.part) {
    val r = a;
    r.e = scan_expr_ite(c, a.e, b.e);
    return r;
  }
  /* two allocations the model knows (or joins of them): one region whose
     size the condition picks; a null pointer, a pointer it does not follow
     or a declared parameter's extent on either side stays unknown */
  if (a.k == V_PTR && b.k == V_PTR && a.region >= 0 && b.region >= 0 && joinable(a.region) && joinable(b.region)) {
    return scan_eval_val_ptr(scan_model_join(c, a.region, b.region, at), scan_expr_ite(c, a.e, b.e));
  }
  if (a.k == V_PTR && b.k == V_PTR)
    return scan_eval_val_unknown_ptr(scan_util_fmt("the pointer refers to different allocations depending on the path (joined at line %u)", at.line));
  if (a.k == V_REC && b.k == V_REC && a.r->n == b.r->n) {
    val r = a;
    for (int i = 0; i < a.r->n; i++) r = scan_eval_rec_set(r, a.r->names[i], scan_eval_val_merge(c, a.r->vals[i], b.r->vals[i], at));
    return r;
  }
  if (a.k == V_FLOAT && b.k == V_FLOAT) return a;
  /* set on one path only: reading it on the other would read an uninitialised
     variable, which the model does not follow; it keeps the value it was given */
  if (b.k == V_NONE) return a;
  if (a.k == V_NONE) return b;
  if (a.k == V_INT) return scan_eval_val_int(scan_expr_opaque(a.e->w, false, at, "the variable holds values of different kinds on different paths"));
  if (b.k == V_INT) return scan_eval_val_int(scan_expr_opaque(b.e->w, false, at, "the variable holds values of different kinds on different paths"));
  return scan_eval_val_none();
}

/* ---- helpers ---- */
static CXType cursor_type(CXCursor c) { return clang_getCursorType(c); }
static enum CXCursorKind cursor_kind(CXCursor c) { return clang_getCursorKind(c); }

static bool const_eval(CXCursor e, val *out) {
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) {
    ctype t = scan_front_ctype(cursor_type(e));
    uint64_t k = clang_EvalResult_isUnsignedInt(r) ? clang_EvalResult_getAsUnsigned(r)
                                                   : (uint64_t)clang_EvalResult_getAsLongLong(r);
    if (t.k == CT_INT || t.k == CT_BOOL) *out = scan_eval_val_int(scan_expr_const(t.w, k));
    else if (t.k == CT_PTR && !k) *out = scan_eval_val_ptr(-1, scan_expr_const(64, 0));
    else ok = false;
  }
  clang_EvalResult_dispose(r);
  return ok;
}

const char *scan_eval_pointer_text(CXCursor at) {
  CXCursor *k;
  int n = scan_front_cursor_children(at, &k);
  switch (cursor_kind(at)) {
  case CXCursor_ArraySubscriptExpr:
    if (n == 2) return scan_front_cursor_text(scan_front_cursor_strip(scan_front_ctype(cursor_type(k[0])).k == CT_PTR ? k[0] : k[1]));
    break;
  case CXCursor_UnaryOperator:
    if (n == 1) return scan_front_cursor_text(scan_front_cursor_strip(k[0]));
    break;
  case CXCursor_MemberRefExpr:
    if (n == 1 && scan_front_ctype(cursor_type(k[0])).k == CT_PTR) return scan_front_cursor_text(scan_front_cursor_strip(k[0]));
    if (n == 1) return scan_eval_pointer_text(scan_front_cursor_strip(k[0]));
    break;
  default: break;
  }
  return scan_front_cursor_text(at);
}

void scan_eval_record_access(interp *I, val ptr, uint64_t width, scan_akind kind_, CXCursor at, const char *base) {
  if (!I->device || scan_expr_is_false(I->reach)) return;
  scan_eval_record_access_n(I, ptr, scan_expr_const(64, width ? width : 1), (unsigned)width, kind_, at, NULL);
  scan_model_state.accesses.v[scan_model_state.accesses.n - 1].base = base ? base : scan_eval_pointer_text(at);
}

void scan_eval_record_access_n(interp *I, val ptr, const sx *width, unsigned elem, scan_akind kind_, CXCursor at, const char *what) {
  if (!I->device || scan_expr_is_false(I->reach)) return;
  scan_access a = {0};
  a.loc = scan_front_cursor_loc(at);
  a.kind = kind_;
  a.base = scan_eval_pointer_text(at);
  a.part = -1;
  a.width = width;
  a.elem = elem;
  a.reach = I->reach;
  a.ctx = I->ctx;
  a.what = what;
  a.why = I->fr ? I->fr->why : NULL;
  a.taint = I->taint;
  a.off = scan_expr_const(64, 0);
  if (ptr.k == V_PTR && ptr.region >= 0) {
    a.region = ptr.region;
    a.part = ptr.part;
    a.off = ptr.e;
  } else if (ptr.k == V_ADDR && ptr.addr && ptr.addr->k == LV_VAR) {
    /* the address of a variable or of a field of one (atomicAdd(&count, 1)
       on a __shared__ int): the access is to that object, no wider than it
       unless cast to a wider type, which stays an unknown */
    uint64_t sz = scan_front_ctype_size(ptr.addr->type), w;
    const char *name = scan_eval_lval_name(ptr.addr);
    a.region = scan_model_region(RG_VAR, name, scan_front_cursor_loc(ptr.addr->decl), scan_expr_const(64, sz),
                                 scan_util_fmt("%llu", (unsigned long long)sz));
    if (!a.why && (!sz || !scan_expr_is_const(width, &w) || w > sz))
      a.why = scan_util_fmt("the access is wider than '%s', whose address it is", name);
  } else {
    a.region = scan_model_unknown_region(ptr.k == V_PTR ? "the pointer is null" : "the pointer is not one the model follows");
  }
  VEC_PUSH(scan_model_state.accesses, a);
}

void scan_eval_record_opaque_use(interp *I, val ptr, CXCursor at, const char *what) {
  if (!I->device || scan_expr_is_false(I->reach) || ptr.k != V_PTR || ptr.region < 0) return;
  scan_eval_record_access_n(I, ptr, scan_expr_const(64, 1), 0, AK_USE, at, what);
  scan_access *a = &scan_model_state.accesses.v[scan_model_state.accesses.n - 1];
  a->why = scan_util_fmt("'%s' has no body the analysis can see, so what it touches is not known", what);
}

/* ---- lvalues ---- */
static lval lval_none(const char *why, CXType t) {
  lval l;
  memset(&l, 0, sizeof l);
  l.k = LV_NONE;
  l.why = why;
  l.type = t;
  return l;
}

static lval lval_mem(val ptr, CXType t) {
  lval l = lval_none(NULL, t);
  l.k = LV_MEM;
  l.ptr = ptr.k == V_PTR ? ptr : scan_eval_val_unknown_ptr("the pointer is not one the model follows");
  return l;
}

static val lval_var_get(interp *I, const lval *lv);

const char *scan_eval_lval_name(const lval *lv) {
  if (lv->k != LV_VAR) return "?";
  scan_buf b = {0};
  scan_util_buf_add(&b, "%s", scan_front_cursor_name(lv->decl));
  for (int i = 0; i < lv->npath; i++) scan_util_buf_add(&b, ".%s", lv->path[i]);
  return b.s;
}

static val store_path(val cur, const lval *lv, int i, val v) {
  if (i == lv->npath) return v;
  if (cur.k != V_REC) return cur;
  return scan_eval_rec_set(cur, lv->path[i], store_path(scan_eval_rec_get(cur, lv->path[i]), lv, i + 1, v));
}

/* An array member of a variable (s.n, or p->n where p = &s): the variable's
   value holds no array for it, so the member gets a region of its own, the
   member's size, kept in the variable's value where that is a record (the
   same region at its next use). What is stored through it is not read back
   (RG_MEMBER, not RG_LOCAL: a copy of the record shares the region). */
static val member_array(interp *I, const lval *lv) {
  val v = lval_var_get(I, lv);
  uint64_t sz = scan_front_ctype_size(lv->type);
  if (v.k != V_NONE || !lv->npath || !sz) return v;
  int r = scan_model_region(RG_MEMBER, scan_eval_lval_name(lv), scan_front_cursor_loc(lv->decl), scan_expr_const(64, sz),
                            scan_util_fmt("%llu", (unsigned long long)sz));
  v = scan_eval_val_ptr(r, scan_expr_const(64, 0));
  val *b = scan_env_get(I->env, lv->frame, lv->decl);
  if (b && b->k == V_REC) scan_env_put(I->env, lv->frame, lv->decl, store_path(*b, lv, 0, v));
  return v;
}

val scan_eval_lval_address(interp *I, const lval *lv) {
  if (lv->k == LV_MEM) return lv->ptr;
  /* an array variable holds its own address */
  if (lv->k == LV_VAR && scan_front_ctype(lv->type).k == CT_ARRAY) return member_array(I, lv);
  if (lv->k == LV_VAR) return scan_eval_val_addr(*lv);
  return scan_eval_val_unknown_ptr(lv->why ? lv->why : "the address is not modelled");
}

/* a variable with static storage, bound in frame 0 on first use */
static lval global_var(interp *I, CXCursor d, CXType t) {
  ctype c = scan_front_ctype(t);
  scan_loc loc = scan_front_cursor_loc(d);
  bool dev = scan_front_cursor_has_attr(d, CXCursor_CUDADeviceAttr) || scan_front_cursor_has_attr(d, CXCursor_CUDAConstantAttr) ||
             scan_front_cursor_has_attr(d, CXCursor_CUDASharedAttr);
  if (scan_front_cursor_has_attr(d, CXCursor_CUDASharedAttr) && I->device) {
    /* a __shared__ variable at namespace scope: one per block of each launch */
    lval l = lval_none(NULL, t);
    l.k = LV_VAR;
    l.frame = 0;
    l.decl = d;
    val *b = scan_env_get(I->env, 0, d);
    if (!b) scan_env_put(I->env, 0, d, scan_eval_val_ptr(scan_device_array(I, d, t), scan_expr_const(64, 0)));
    return l;
  }
  if (c.k == CT_ARRAY || (dev && I->device)) {
    val *b = scan_env_get(I->env, 0, d);
    if (!b) {
      int r = scan_model_region(dev ? RG_GLOBALVAR : RG_HOSTVAR, scan_front_cursor_name(d), loc, scan_expr_const(64, scan_front_ctype_size(t)),
                           scan_util_fmt("%llu", (unsigned long long)scan_front_ctype_size(t)));
      scan_tables_values(d, scan_model_reg(r));
      scan_env_put(I->env, 0, d, scan_eval_val_ptr(r, scan_expr_const(64, 0)));
      b = scan_env_get(I->env, 0, d);
    }
    if (c.k == CT_ARRAY) {
      lval l = lval_none(NULL, t);
      l.k = LV_VAR;
      l.frame = 0;
      l.decl = d;
      return l;
    }
    return lval_mem(*b, t);
  }
  if (dev) return lval_none(scan_util_fmt("'%s' is device memory read on the host", scan_front_cursor_name(d)), t);
  lval l = lval_none(NULL, t);
  l.k = LV_VAR;
  l.frame = 0;
  l.decl = d;
  if (!scan_env_get(I->env, 0, d)) {
    val v;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (!((clang_isConstQualifiedType(t) || scan_tables_fixed_scalar(d)) && !clang_Cursor_isNull(init) && const_eval(init, &v)))
      v = scan_eval_val_opaque(t, loc, scan_util_fmt("'%s' is a global variable whose value is not known here", scan_front_cursor_name(d)));
    scan_env_put(I->env, 0, d, v);
  }
  return l;
}

static lval eval_lval_node(interp *I, CXCursor e);

/* 'this': the object of the method being interpreted, where the model
   follows it (a variable the method was called on) */
static val self_of(interp *I) {
  if (I->fr && I->fr->self.k == V_ADDR) return I->fr->self;
  return scan_eval_val_unknown_ptr("the pointer is 'this', of an object the model does not follow");
}

lval scan_eval_lval(interp *I, CXCursor e) {
  const char *deep = scan_exec_nest_enter(I, e);
  if (deep) return lval_none(deep, cursor_type(e));
  lval l = eval_lval_node(I, e);
  scan_exec_nest_leave();
  return l;
}

static lval eval_lval_node(interp *I, CXCursor e) {
  CXType t = cursor_type(e);
  CXCursor *k;
  int n = scan_front_cursor_children(e, &k);
  switch (cursor_kind(e)) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr:
    if (n == 1) return scan_eval_lval(I, k[0]);
    break;
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind dk = cursor_kind(d);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) break;
    CXType dt = clang_getCursorType(d);
    unsigned fr = I->fr ? I->fr->id : 0;
    val *b = scan_env_get(I->env, fr, d);
    unsigned bf = fr;
    if (!b) {
      b = scan_env_get(I->env, 0, d);
      bf = 0;
    }
    if (!b && clang_Cursor_hasVarDeclGlobalStorage(d) == 1) return global_var(I, d, dt);
    if (scan_front_ctype(dt).k == CT_REF) {
      if (b && b->k == V_ADDR) {
        lval l = *b->addr;
        return l;
      }
      return lval_none(scan_util_fmt("the reference '%s' is not bound to a variable the model follows", scan_front_cursor_name(d)), t);
    }
    lval l = lval_none(NULL, dt);
    l.k = LV_VAR;
    l.frame = bf;
    l.decl = d;
    return l;
  }
  case CXCursor_ArraySubscriptExpr: {
    if (n != 2) break;
    /* a[i] or i[a]: the index is the integer (the base's type may read as an
       array: a parameter declared double x[8], a row of double phi[][Y][Z]) */
    ctype c1 = scan_front_ctype(cursor_type(k[1]));
    int pi = c1.k == CT_INT || c1.k == CT_BOOL ? 0 : scan_front_ctype(cursor_type(k[0])).k == CT_PTR ? 0 : 1;
    val p = scan_eval_expr(I, k[pi]);
    val i = scan_eval_expr(I, k[1 - pi]);
    uint64_t size = scan_front_ctype_size(t);
    if (p.k != V_PTR || i.k != V_INT)
      return lval_mem(scan_eval_val_unknown_ptr(p.k == V_PTR ? "the index is not an integer the model follows"
                                               : "the pointer is not one the model follows"),
                    t);
    const sx *idx = scan_eval_val_to64(i, scan_front_ctype(cursor_type(k[1 - pi])).sgn);
    p.e = scan_expr_bin(SX_ADD, p.e, scan_expr_bin(SX_MUL, idx, scan_expr_const(64, size ? size : 1)));
    return lval_mem(p, t);
  }
  case CXCursor_MemberRefExpr: {
    CXCursor f = clang_getCursorReferenced(e);
    if (n > 1 || cursor_kind(f) != CXCursor_FieldDecl) break;
    long long bits = clang_Cursor_getOffsetOfField(f);
    lval b;
    if (n == 0 || scan_front_ctype(cursor_type(k[0])).k == CT_PTR) {
      /* p->f, this->f, or f in a method (this implied) */
      val p = n == 0 ? self_of(I) : scan_eval_expr(I, k[0]);
      if (p.k == V_ADDR) {
        b = *p.addr;
      } else {
        if (p.k == V_PTR && bits >= 0) p.e = scan_expr_bin(SX_ADD, p.e, scan_expr_const(64, (uint64_t)bits / 8));
        return lval_mem(p, t);
      }
    } else {
      b = scan_eval_lval(I, k[0]);
    }
    if (b.k == LV_MEM) {
      if (bits >= 0) b.ptr.e = scan_expr_bin(SX_ADD, b.ptr.e, scan_expr_const(64, (uint64_t)bits / 8));
      b.type = t;
      return b;
    }
    if (b.k == LV_VAR && b.npath < LV_PATH) {
      b.path[b.npath++] = scan_front_cursor_name(f);
      b.type = t;
      return b;
    }
    return lval_none(b.why ? b.why : "the member is nested too deep", t);
  }
  case CXCursor_UnaryOperator:
    if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref && n == 1) {
      val p = scan_eval_expr(I, k[0]);
      if (p.k == V_ADDR) {
        lval l = *p.addr;
        l.type = t;
        return l;
      }
      return lval_mem(p, t);
    }
    break;
  default: break;
  }
  return lval_none(scan_util_fmt("the expression '%s' is not a location the model follows", scan_front_cursor_text(e)), t);
}

static val lval_var_get(interp *I, const lval *lv) {
  val *b = scan_env_get(I->env, lv->frame, lv->decl);
  if (!b) return scan_eval_val_none();
  val v = *b;
  for (int i = 0; i < lv->npath; i++) v = scan_eval_rec_get(v, lv->path[i]);
  return v;
}

/* ---- a thread's local arrays: a store, then a load of the same element ----
   Straight-line code that fills a local array and reads it back
   (hash[i] = w >> 5; ...; bits[hash[i]]) reads what it stored. The last
   store to each element of a local array (RG_LOCAL: one thread's, nothing
   else writes it; and a host array) is kept with the path condition it
   happened under (a store drops the records it may overwrite: all of the
   array's but those at other constant offsets); a load at the same
   offset expression (expressions are shared, so the same index is the same
   pointer) whose path condition contains every conjunct of the store's
   (no branch it could have skipped the store by) gets the stored value. Any
   other store to the array replaces the record, a store through a pointer
   the model does not follow forgets every record, and so does the end of a
   call (the callee may have written through a pointer to the array in a way
   the model does not see) and of a loop body, and its start (an earlier
   iteration may have stored something else). */
void scan_eval_forget_stores(interp *I) { I->stores.n = 0; }

static bool implies(const sx *reach, const sx *cond) {
  if (reach == cond) return true;
  sx_vec have = {0}, need = {0};
  scan_expr_conjuncts(reach, &have);
  scan_expr_conjuncts(cond, &need);
  for (size_t i = 0; i < need.n; i++) {
    bool found = false;
    for (size_t j = 0; j < have.n && !found; j++) found = have.v[j] == need.v[i];
    if (!found) return false;
  }
  return true;
}

/* arrays whose stores are kept: a thread's own (RG_LOCAL), and a host array
   (RG_HOSTVAR: what the host's code between two calls writes, as an OpenCL
   port fills size_t global[2] and reads it back for its grid) */
static bool keeps_stores(const scan_region *r) { return r->kind == RG_LOCAL || r->kind == RG_HOSTVAR; }

/* may a store at offset a reach the element at offset b? only two different
   constants say no */
static bool may_alias(const sx *a, const sx *b) {
  uint64_t x, y;
  return a == b || !scan_expr_is_const(a, &x) || !scan_expr_is_const(b, &y) || x == y;
}

static void local_stored(interp *I, val ptr, val v) {
  scan_region *r = ptr.k == V_PTR && ptr.region >= 0 ? scan_model_reg(ptr.region) : NULL;
  if (!r || !scan_model_known(r)) {
    scan_eval_forget_stores(I); /* it may have been any of them */
    return;
  }
  if (!keeps_stores(r)) return;
  /* the records this store may overwrite go; those at other constant offsets stay */
  size_t kept = 0;
  for (size_t i = 0; i < I->stores.n; i++)
    if (I->stores.v[i].region != r->id || !may_alias(I->stores.v[i].off, ptr.e)) I->stores.v[kept++] = I->stores.v[i];
  I->stores.n = kept;
  if (v.k != V_INT) return;
  local_store st = {r->id, ptr.e, v.e, I->reach};
  VEC_PUSH(I->stores, st);
}

static const sx *local_load(interp *I, val ptr, ctype t) {
  if (ptr.k != V_PTR || ptr.region < 0 || !keeps_stores(scan_model_reg(ptr.region)) || t.k != CT_INT) return NULL;
  for (size_t i = 0; i < I->stores.n; i++) {
    local_store *st = &I->stores.v[i];
    if (st->region == ptr.region && st->off == ptr.e && st->v->w == t.w && implies(I->reach, st->reach)) return st->v;
  }
  return NULL;
}

val scan_eval_lval_load(interp *I, const lval *lv, CXCursor at) {
  ctype t = scan_front_ctype(lv->type);
  scan_loc loc = scan_front_cursor_loc(at);
  switch (lv->k) {
  case LV_NONE: return scan_eval_val_opaque(lv->type, loc, lv->why);
  case LV_VAR: {
    val v = t.k == CT_ARRAY ? member_array(I, lv) : lval_var_get(I, lv);
    if (v.k == V_NONE && t.k != CT_VOID && t.k != CT_OTHER) {
      v = scan_eval_val_opaque(lv->type, loc, scan_util_fmt("'%s' has no value here", scan_front_cursor_name(lv->decl)));
    }
    return v;
  }
  case LV_MEM: {
    if (t.k == CT_ARRAY) return lv->ptr;
    scan_eval_record_access(I, lv->ptr, scan_front_ctype_size(lv->type), AK_READ, at, NULL);
    scan_region *r = lv->ptr.k == V_PTR && lv->ptr.region >= 0 ? scan_model_reg(lv->ptr.region) : NULL;
    /* an element of an array of constants nothing writes: its value, or its range */
    if (r && r->has_vals && t.k == CT_INT && t.w == r->elsize * 8) return scan_eval_val_int(scan_tables_read(r, lv->ptr.e, t, loc));
    const sx *stored = local_load(I, lv->ptr, t);
    if (stored) return scan_eval_val_int(stored);
    /* an array member's elements (a kernel's struct parameter, set by the
       host; a local struct): not device memory, not followed either */
    if (r && r->kind == RG_MEMBER)
      return scan_eval_val_opaque(lv->type, loc, scan_util_fmt("the value is an element of '%s', which the model does not follow", r->name));
    if (I->device) return scan_eval_val_fresh(lv->type, VK_LOADED, scan_front_cursor_text(at), loc, NULL);
    return scan_eval_val_opaque(lv->type, loc, "the value is read from host memory");
  }
  }
  return scan_eval_val_none();
}

void scan_eval_lval_store(interp *I, const lval *lv, val v, CXCursor at) {
  if (scan_expr_is_false(I->reach)) return;
  switch (lv->k) {
  case LV_NONE: return;
  case LV_VAR: {
    if (!lv->npath) {
      scan_env_put(I->env, lv->frame, lv->decl, v);
      return;
    }
    val *b = scan_env_get(I->env, lv->frame, lv->decl);
    val cur = b ? *b : scan_eval_val_none();
    if (cur.k != V_REC)
      cur = scan_eval_val_opaque(clang_getCursorType(lv->decl), scan_front_cursor_loc(at), scan_util_fmt("'%s' has no value here", scan_front_cursor_name(lv->decl)));
    scan_env_put(I->env, lv->frame, lv->decl, store_path(cur, lv, 0, v));
    return;
  }
  case LV_MEM:
    scan_eval_record_access(I, lv->ptr, scan_front_ctype_size(lv->type), AK_WRITE, at, NULL);
    local_stored(I, lv->ptr, v);
    return;
  }
}

/* ---- operators ---- */
static val arith(sx_op op, val a, val b) { return scan_eval_val_int(scan_expr_bin(op, a.e, b.e)); }

static val int_binop(enum CXBinaryOperatorKind op, val a, val b, bool sgn) {
  if (op == CXBinaryOperator_Shl || op == CXBinaryOperator_Shr) {
    const sx *cnt = b.e->w > a.e->w ? scan_expr_ext(SX_TRUNC, b.e, a.e->w) : scan_expr_ext(SX_ZEXT, b.e, a.e->w);
    return scan_eval_val_int(scan_expr_bin(op == CXBinaryOperator_Shl ? SX_SHL : sgn ? SX_ASHR : SX_LSHR, a.e, cnt));
  }
  if (a.e->w != b.e->w) return scan_eval_val_none();
  switch (op) {
  case CXBinaryOperator_Add: return arith(SX_ADD, a, b);
  case CXBinaryOperator_Sub: return arith(SX_SUB, a, b);
  case CXBinaryOperator_Mul: return arith(SX_MUL, a, b);
  case CXBinaryOperator_Div: return arith(sgn ? SX_SDIV : SX_UDIV, a, b);
  case CXBinaryOperator_Rem: return arith(sgn ? SX_SREM : SX_UREM, a, b);
  case CXBinaryOperator_And: return arith(SX_AND, a, b);
  case CXBinaryOperator_Or: return arith(SX_OR, a, b);
  case CXBinaryOperator_Xor: return arith(SX_XOR, a, b);
  case CXBinaryOperator_LT: return arith(sgn ? SX_SLT : SX_ULT, a, b);
  case CXBinaryOperator_GT: return arith(sgn ? SX_SLT : SX_ULT, b, a);
  case CXBinaryOperator_LE: return arith(sgn ? SX_SLE : SX_ULE, a, b);
  case CXBinaryOperator_GE: return arith(sgn ? SX_SLE : SX_ULE, b, a);
  case CXBinaryOperator_EQ: return arith(SX_EQ, a, b);
  case CXBinaryOperator_NE: return scan_eval_val_int(scan_expr_not(scan_expr_bin(SX_EQ, a.e, b.e)));
  default: return scan_eval_val_none();
  }
}

static bool is_cmp_op(enum CXBinaryOperatorKind op) {
  return op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE;
}

/* an arithmetic operation on values of types ta, tb with result type tr */
static val binop(enum CXBinaryOperatorKind op, val a, CXType ta, val b, CXType tb, CXType tr, scan_loc loc) {
  ctype ca = scan_front_ctype(ta), cb = scan_front_ctype(tb);
  if (a.k == V_PTR && b.k == V_INT && (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)) {
    uint64_t el = scan_front_ctype_size(scan_front_ctype_pointee(ta));
    const sx *d = scan_expr_bin(SX_MUL, scan_eval_val_to64(b, cb.sgn), scan_expr_const(64, el ? el : 1));
    a.e = scan_expr_bin(op == CXBinaryOperator_Add ? SX_ADD : SX_SUB, a.e, d);
    return a;
  }
  if (a.k == V_INT && b.k == V_PTR && op == CXBinaryOperator_Add) return binop(op, b, tb, a, ta, tr, loc);
  if (a.k == V_PTR && b.k == V_PTR) {
    bool known = a.region >= 0 && a.region == b.region;
    if (op == CXBinaryOperator_Sub && known) {
      uint64_t el = scan_front_ctype_size(scan_front_ctype_pointee(ta));
      return scan_eval_val_conv(scan_eval_val_int(scan_expr_bin(SX_SDIV, scan_expr_bin(SX_SUB, a.e, b.e), scan_expr_const(64, el ? el : 1))),
                    tr, tr, loc);
    }
    if (is_cmp_op(op) && known) return int_binop(op, scan_eval_val_int(a.e), scan_eval_val_int(b.e), true);
    if ((op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) && (a.region < 0 || b.region < 0) &&
        a.region != b.region) {
      /* an allocation that succeeded is not null */
      int other = a.region < 0 ? b.region : a.region;
      if (scan_model_known(scan_model_reg(other))) return scan_eval_val_int(op == CXBinaryOperator_EQ ? scan_expr_false() : scan_expr_true());
    }
    return scan_eval_val_opaque(tr, loc, "the result compares or subtracts pointers the model cannot relate");
  }
  if (a.k == V_INT && b.k == V_INT) {
    val r = int_binop(op, a, b, ca.sgn);
    if (r.k != V_NONE) return r;
  }
  if (a.k == V_FLOAT || b.k == V_FLOAT) {
    if (is_cmp_op(op)) return scan_eval_val_opaque(tr, loc, "the condition compares floating-point values");
    return scan_eval_val_conv(scan_eval_val_float(), tr, tr, loc);
  }
  return scan_eval_val_opaque(tr, loc, "an operand is not a value the model follows");
}

static enum CXBinaryOperatorKind compound_base(enum CXBinaryOperatorKind op) {
  switch (op) {
  case CXBinaryOperator_MulAssign: return CXBinaryOperator_Mul;
  case CXBinaryOperator_DivAssign: return CXBinaryOperator_Div;
  case CXBinaryOperator_RemAssign: return CXBinaryOperator_Rem;
  case CXBinaryOperator_AddAssign: return CXBinaryOperator_Add;
  case CXBinaryOperator_SubAssign: return CXBinaryOperator_Sub;
  case CXBinaryOperator_ShlAssign: return CXBinaryOperator_Shl;
  case CXBinaryOperator_ShrAssign: return CXBinaryOperator_Shr;
  case CXBinaryOperator_AndAssign: return CXBinaryOperator_And;
  case CXBinaryOperator_XorAssign: return CXBinaryOperator_Xor;
  case CXBinaryOperator_OrAssign: return CXBinaryOperator_Or;
  default: return CXBinaryOperator_Invalid;
  }
}

/* the value of an lvalue without recording a read (the write that follows is the access) */
static val lval_peek(interp *I, const lval *lv, CXCursor at) {
  if (lv->k != LV_MEM) return scan_eval_lval_load(I, lv, at);
  if (I->device) return scan_eval_val_fresh(lv->type, VK_LOADED, scan_front_cursor_text(at), scan_front_cursor_loc(at), NULL);
  return scan_eval_val_opaque(lv->type, scan_front_cursor_loc(at), "the value is read from host memory");
}

typedef val (*evaluator)(interp *I, CXCursor e);

/* evaluates e by EV with reach narrowed to c; bindings it changes apply only under c */
static val eval_under(interp *I, CXCursor e, const sx *c, const sx **reach_out, evaluator ev) {
  const sx *r0 = I->reach;
  env *e0 = I->env;
  I->env = scan_env_copy(e0);
  I->reach = scan_expr_and(r0, c);
  val v = ev(I, e);
  *reach_out = I->reach;
  env *after = I->env;
  I->env = scan_env_merge(c, after, e0, scan_front_cursor_loc(e));
  I->reach = r0;
  return v;
}

static val eval_logic(interp *I, CXCursor e, bool is_and, CXCursor l, CXCursor r) {
  scan_loc loc = scan_front_cursor_loc(e);
  const sx *a = scan_eval_val_cond(scan_eval_expr(I, l), loc);
  const sx *rr;
  const sx *b = scan_eval_val_cond(eval_under(I, r, is_and ? a : scan_expr_not(a), &rr, scan_eval_expr), loc);
  const sx *v = is_and ? scan_expr_and(a, b) : scan_expr_or(a, b);
  /* a noreturn call on the right ends the paths that reached it */
  if (scan_expr_is_false(rr)) I->reach = scan_expr_and(I->reach, is_and ? scan_expr_not(a) : a);
  return scan_eval_val_conv(scan_eval_val_int(v), clang_getCursorType(e), cursor_type(e), loc);
}

static val eval_binary(interp *I, CXCursor e) {
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) != 2) return scan_eval_val_opaque(cursor_type(e), scan_front_cursor_loc(e), "malformed operator");
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  scan_loc loc = scan_front_cursor_loc(e);
  switch (op) {
  case CXBinaryOperator_LAnd: return eval_logic(I, e, true, k[0], k[1]);
  case CXBinaryOperator_LOr: return eval_logic(I, e, false, k[0], k[1]);
  case CXBinaryOperator_Comma:
    scan_eval_expr(I, k[0]);
    return scan_eval_expr(I, k[1]);
  case CXBinaryOperator_Assign: {
    lval lv = scan_eval_lval(I, k[0]);
    CXCursor rs = scan_front_cursor_strip(k[1]);
    if (lv.k == LV_VAR && cursor_kind(rs) == CXCursor_CallExpr) {
      I->hint_call = rs;
      I->hint_name = scan_eval_lval_name(&lv);
    }
    val v = scan_eval_expr(I, k[1]);
    I->hint_name = NULL;
    scan_eval_lval_store(I, &lv, v, k[0]);
    return v;
  }
  default: break;
  }
  enum CXBinaryOperatorKind base = compound_base(op);
  if (base != CXBinaryOperator_Invalid) {
    lval lv = scan_eval_lval(I, k[0]);
    val rhs = scan_eval_expr(I, k[1]);
    val old = lval_peek(I, &lv, k[0]);
    CXType lt = cursor_type(k[0]), rt = cursor_type(k[1]);
    val r;
    if (old.k == V_PTR) {
      r = binop(base, old, lt, rhs, rt, lt, loc);
    } else if (base == CXBinaryOperator_Shl || base == CXBinaryOperator_Shr) {
      r = binop(base, old, lt, rhs, rt, lt, loc);
    } else {
      /* computed in the right operand's (converted) type, stored back in the left's */
      val o = scan_eval_val_conv(old, lt, rt, loc);
      r = scan_eval_val_conv(binop(base, o, rt, rhs, rt, rt, loc), rt, lt, loc);
    }
    scan_eval_lval_store(I, &lv, r, k[0]);
    return r;
  }
  val a = scan_eval_expr(I, k[0]);
  val b = scan_eval_expr(I, k[1]);
  return binop(op, a, cursor_type(k[0]), b, cursor_type(k[1]), cursor_type(e), loc);
}

static val eval_unary(interp *I, CXCursor e) {
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) != 1) return scan_eval_val_opaque(cursor_type(e), scan_front_cursor_loc(e), "malformed operator");
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
  scan_loc loc = scan_front_cursor_loc(e);
  CXType t = cursor_type(e);
  switch (op) {
  case CXUnaryOperator_PostInc:
  case CXUnaryOperator_PreInc:
  case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreDec: {
    lval lv = scan_eval_lval(I, k[0]);
    val old = lval_peek(I, &lv, k[0]);
    bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
    val nv;
    if (old.k == V_INT) {
      nv = scan_eval_val_int(scan_expr_bin(inc ? SX_ADD : SX_SUB, old.e, scan_expr_const(old.e->w, 1)));
    } else if (old.k == V_PTR) {
      uint64_t el = scan_front_ctype_size(scan_front_ctype_pointee(cursor_type(k[0])));
      nv = old;
      nv.e = scan_expr_bin(inc ? SX_ADD : SX_SUB, old.e, scan_expr_const(64, el ? el : 1));
    } else {
      nv = scan_eval_val_opaque(cursor_type(k[0]), loc, "the value is not one the model follows");
    }
    scan_eval_lval_store(I, &lv, nv, k[0]);
    return op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ? nv : old;
  }
  case CXUnaryOperator_AddrOf: {
    lval lv = scan_eval_lval(I, k[0]);
    return scan_eval_lval_address(I, &lv);
  }
  case CXUnaryOperator_Deref: {
    lval lv = scan_eval_lval(I, e);
    return scan_eval_lval_load(I, &lv, e);
  }
  case CXUnaryOperator_Plus:
  case CXUnaryOperator_Extension: return scan_eval_expr(I, k[0]);
  case CXUnaryOperator_Minus:
  case CXUnaryOperator_Not: {
    val v = scan_eval_expr(I, k[0]);
    if (v.k == V_FLOAT) return v;
    if (v.k != V_INT) return scan_eval_val_opaque(t, loc, "the operand is not a value the model follows");
    return scan_eval_val_int(scan_expr_un(op == CXUnaryOperator_Minus ? SX_NEG : SX_NOT, v.e));
  }
  case CXUnaryOperator_LNot: {
    val v = scan_eval_expr(I, k[0]);
    return scan_eval_val_conv(scan_eval_val_int(scan_expr_not(scan_eval_val_cond(v, loc))), clang_getCursorType(e), t, loc);
  }
  default: return scan_eval_val_opaque(t, loc, "the operator is not modelled");
  }
}

/* c ? a : b, each arm evaluated by EV under its condition */
static val conditional(interp *I, CXCursor e, evaluator ev) {
  CXCursor *k;
  int n = scan_front_cursor_children(e, &k);
  scan_loc loc = scan_front_cursor_loc(e);
  if (n != 3) return scan_eval_val_opaque(cursor_type(e), loc, "malformed conditional");
  const sx *c = scan_eval_val_cond(scan_eval_expr(I, k[0]), loc);
  const sx *ra, *rb;
  val a = eval_under(I, k[1], c, &ra, ev);
  val b = eval_under(I, k[2], scan_expr_not(c), &rb, ev);
  /* an arm that does not return (assert's failure branch) narrows the path */
  if (scan_expr_is_false(ra)) I->reach = scan_expr_and(I->reach, scan_expr_not(c));
  if (scan_expr_is_false(rb)) I->reach = scan_expr_and(I->reach, c);
  if (scan_front_ctype(cursor_type(e)).k == CT_VOID) return scan_eval_val_none();
  return scan_eval_val_merge(c, a, b, loc);
}

static val eval_conditional(interp *I, CXCursor e) { return conditional(I, e, scan_eval_expr); }

/* the address an array expression decays to: a variable's, an element's, or
   either of two (fp64 ? table_dp : table_sp, an lvalue of array type) */
static val array_address(interp *I, CXCursor e) {
  CXCursor x = scan_front_cursor_strip(e);
  if (cursor_kind(x) == CXCursor_ConditionalOperator) return conditional(I, x, array_address);
  lval lv = scan_eval_lval(I, e);
  return lv.k == LV_VAR ? scan_eval_lval_load(I, &lv, e) : scan_eval_lval_address(I, &lv);
}

lval scan_eval_construct_on(interp *I, unsigned fr, CXCursor key, CXType t, CXCursor call, CXCursor ctor, CXCursor def,
                            const char *unset) {
  scan_env_put(I->env, fr, key, scan_eval_val_opaque(t, scan_front_cursor_loc(call), unset));
  lval lv;
  memset(&lv, 0, sizeof lv);
  lv.k = LV_VAR;
  lv.frame = fr;
  lv.decl = key;
  lv.type = t;
  val *args;
  int na = scan_exec_call_args(I, call, ctor, &args);
  I->self_arg = scan_eval_val_addr(lv);
  scan_exec_call_user(I, def, args, na, call);
  return lv;
}

static val construct(interp *I, CXCursor e, CXCursor ctor) {
  CXType t = cursor_type(e);
  int n = clang_Cursor_getNumArguments(e);
  scan_loc loc = scan_front_cursor_loc(e);
  if (scan_front_ctype_is_dim3(t)) {
    val f[3];
    for (int i = 0; i < 3; i++) f[i] = scan_eval_val_int(scan_expr_const(32, 1));
    for (int i = 0; i < n && i < 3; i++) {
      CXCursor a = clang_Cursor_getArgument(e, (unsigned)i);
      val v = scan_eval_expr(I, a);
      if (v.k == V_REC && n == 1) return v; /* dim3(uint3) or a copy */
      f[i] = v.k == V_INT ? scan_eval_val_conv(v, cursor_type(a), clang_getArgType(clang_getCursorType(ctor), (unsigned)i), loc)
                          : scan_eval_val_opaque(cursor_type(a), loc, "a launch dimension is not an integer the model follows");
    }
    val r = scan_eval_val_opaque(t, loc, "dim3");
    r = scan_eval_rec_set(r, scan_util_intern("x"), f[0]);
    r = scan_eval_rec_set(r, scan_util_intern("y"), f[1]);
    r = scan_eval_rec_set(r, scan_util_intern("z"), f[2]);
    return r;
  }
  val stl;
  if (scan_stl_construct(I, e, ctor, &stl)) return stl;
  CXCursor def = scan_unit_method(ctor);
  if (!clang_Cursor_isNull(I->hint_decl) && clang_equalCursors(I->hint_call, e) && !clang_Cursor_isNull(def) &&
      !clang_CXXConstructor_isCopyConstructor(ctor) && !clang_CXXConstructor_isMoveConstructor(ctor)) {
    /* a user's constructor for the variable being declared: it runs on that
       variable, whose members start with no value */
    CXCursor d = I->hint_decl;
    I->hint_decl = clang_getNullCursor();
    unsigned fr = I->fr ? I->fr->id : 0;
    scan_eval_construct_on(I, fr, d, t, e, ctor, def,
                           scan_util_fmt("a member of '%s' is not set by its constructor", scan_front_cursor_name(d)));
    val *b = scan_env_get(I->env, fr, d);
    return b ? *b : scan_eval_val_opaque(t, loc, "the object is not one the model follows");
  }
  if (n == 1) {
    CXCursor a = clang_Cursor_getArgument(e, 0);
    /* a copy, from a const object too (float4 v = a[i] reads a[i]) */
    if (clang_equalTypes(clang_getUnqualifiedType(clang_getCanonicalType(cursor_type(a))),
                         clang_getUnqualifiedType(clang_getCanonicalType(t))))
      return scan_eval_expr(I, a);
  }
  val *args;
  scan_exec_call_args(I, e, ctor, &args);
  return scan_eval_val_opaque(t, loc, scan_util_fmt("'%s' is built by a constructor the model does not follow", scan_front_cursor_text(e)));
}

/* a method the model does not follow, called on an object in memory (a[i].norm(),
   a[i] += v with a user operator): the object must exist, so the call is checked as
   a read of the whole object; what the method does inside is not followed */
static void method_object(interp *I, CXCursor e) {
  CXCursor *k;
  int n = scan_front_cursor_children(e, &k);
  if (n < 1) return;
  CXCursor callee = scan_front_cursor_strip(k[0]);
  CXCursor obj;
  if (cursor_kind(callee) == CXCursor_MemberRefExpr) {
    CXCursor *m;
    if (scan_front_cursor_children(callee, &m) != 1) return;
    obj = m[0];
  } else if (clang_Cursor_getNumArguments(e) >= 1) {
    obj = clang_Cursor_getArgument(e, 0); /* a member operator's object */
  } else {
    return;
  }
  CXType ot = cursor_type(obj);
  if (scan_front_ctype(ot).k == CT_PTR) {
    if (cursor_kind(callee) != CXCursor_MemberRefExpr) return;
    scan_eval_record_access(I, scan_eval_expr(I, obj), scan_front_ctype_size(scan_front_ctype_pointee(ot)), AK_READ, scan_front_cursor_strip(obj), NULL);
    return;
  }
  lval lv = scan_eval_lval(I, obj);
  if (lv.k == LV_MEM) scan_eval_record_access(I, lv.ptr, scan_front_ctype_size(lv.type), AK_READ, scan_front_cursor_strip(obj), NULL);
}

/* the object a method is called on, as the address of a variable (m.set(),
   p->set() with p = &m, set() inside another method), or V_NONE */
static val method_self(interp *I, CXCursor e) {
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) < 1) return scan_eval_val_none();
  CXCursor callee = scan_front_cursor_strip(k[0]);
  if (cursor_kind(callee) != CXCursor_MemberRefExpr) return scan_eval_val_none();
  CXCursor *m;
  int nm = scan_front_cursor_children(callee, &m);
  if (nm == 0) return self_of(I);
  if (nm != 1) return scan_eval_val_none();
  if (scan_front_ctype(cursor_type(m[0])).k == CT_PTR) {
    val p = scan_eval_expr(I, m[0]);
    return p.k == V_ADDR ? p : scan_eval_val_none();
  }
  lval lv = scan_eval_lval(I, m[0]);
  return lv.k == LV_VAR ? scan_eval_val_addr(lv) : scan_eval_val_none();
}

/* a call: its value, and what it does to the model (below) */
static val call_value(interp *I, CXCursor e);

/* min(a, b) or max(a, b) of integers (CUDA's min/umin/..., std::min and
   std::max, whose parameters are references: the arguments' values) */
val scan_eval_minmax(interp *I, CXCursor call, bool is_max, bool sgn) {
  val a[2];
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n && i < 2; i++) a[i] = scan_eval_expr(I, clang_Cursor_getArgument(call, (unsigned)i));
  if (n != 2 || a[0].k != V_INT || a[1].k != V_INT || a[0].e->w != a[1].e->w)
    return scan_eval_val_opaque(clang_getCursorType(call), scan_front_cursor_loc(call), "the arguments of min/max are not integers the model follows");
  const sx *lt = scan_expr_bin(sgn ? SX_SLT : SX_ULT, a[0].e, a[1].e);
  return scan_eval_val_int(is_max ? scan_expr_ite(lt, a[1].e, a[0].e) : scan_expr_ite(lt, a[0].e, a[1].e));
}

/* a call may write a local array through a pointer to it (a function whose
   body is not seen, memcpy): after it, every store before is forgotten. Its
   arguments, and a body the model follows, still read what was stored. A
   call of a plain function whose arguments are all numbers is given no
   pointer to write through: a function's own arrays keep their stores
   (shrRoundUp(16, width), not seen, between a host array's stores and its
   reads); a global one does not (the callee may name it, and one the model
   does not enter, or stops entering at --max-steps, writes it unseen). A
   constructor's object is a new one (dim3(local[0], local[1])); a method
   has its object's. */
static bool takes_no_pointer(CXCursor e) {
  enum CXCursorKind fk = clang_getCursorKind(clang_getCursorReferenced(e));
  if (fk != CXCursor_FunctionDecl && fk != CXCursor_Constructor) return false; /* dim3(x, y): a new object's */
  int n = clang_Cursor_getNumArguments(e);
  if (n < 0) return false;
  for (int i = 0; i < n; i++) {
    ct_kind k = scan_front_ctype(clang_getCursorType(clang_Cursor_getArgument(e, (unsigned)i))).k;
    if (k != CT_INT && k != CT_BOOL && k != CT_FLOAT) return false;
  }
  return true;
}

static val eval_call(interp *I, CXCursor e) {
  val v = call_value(I, e);
  if (!takes_no_pointer(e)) {
    scan_eval_forget_stores(I);
    return v;
  }
  size_t kept = 0;
  for (size_t i = 0; i < I->stores.n; i++)
    if (scan_model_reg(I->stores.v[i].region)->automatic) I->stores.v[kept++] = I->stores.v[i];
  I->stores.n = kept;
  return v;
}

static val call_value(interp *I, CXCursor e) {
  CXCursor config;
  scan_loc loc = scan_front_cursor_loc(e);
  if (scan_device_is_launch(e, &config)) {
    scan_device_launch(I, e, config);
    return scan_eval_val_none();
  }
  CXCursor callee = scan_front_callee(e);
  if (clang_Cursor_isNull(callee) || clang_isInvalid(cursor_kind(callee))) {
    val *args;
    scan_exec_call_args(I, e, clang_getNullCursor(), &args);
    return scan_eval_val_opaque(cursor_type(e), loc, "the call goes through a pointer the model does not follow");
  }
  if (cursor_kind(callee) == CXCursor_Constructor) return construct(I, e, callee);
  if (cursor_kind(callee) == CXCursor_CXXMethod && clang_CXXMethod_isDefaulted(callee) &&
      (clang_CXXMethod_isCopyAssignmentOperator(callee) || clang_CXXMethod_isMoveAssignmentOperator(callee)) &&
      clang_Cursor_getNumArguments(e) == 2) {
    /* a struct assigned as a whole (a[i] = make_float4(...)): a store like any other */
    CXCursor to = clang_Cursor_getArgument(e, 0);
    lval lv = scan_eval_lval(I, to);
    val v = scan_eval_expr(I, clang_Cursor_getArgument(e, 1));
    scan_eval_lval_store(I, &lv, v, to);
    return v;
  }
  val stl;
  if (!I->device && cursor_kind(callee) == CXCursor_CXXMethod && scan_stl_method(I, e, callee, &stl)) return stl;
  if (cursor_kind(callee) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(callee)) {
    val self = method_self(I, e);
    CXCursor def = scan_unit_method(callee);
    if (self.k == V_ADDR && !clang_Cursor_isNull(def)) {
      /* a user's method on a variable the model follows: its body, with 'this' */
      val *args;
      int na = scan_exec_call_args(I, e, callee, &args);
      I->self_arg = self;
      return scan_exec_call_user(I, def, args, na, e);
    }
    method_object(I, e);
  }
  const char *name = scan_front_cursor_name(callee);
  val out;
  if (I->device ? scan_device_call(I, e, name, callee, &out) : scan_host_call(I, e, name, callee, &out)) return out;
  val *args;
  int n;
  if (scan_host_noreturn_name(name)) {
    scan_exec_call_args(I, e, callee, &args);
    I->reach = scan_expr_false();
    return scan_eval_val_none();
  }
  CXCursor def = scan_unit_definition(callee);
  n = scan_exec_call_args(I, e, callee, &args);
  if (!clang_Cursor_isNull(def)) return scan_exec_call_user(I, def, args, n, e);
  /* a function the model cannot see into: what it returns, and what it may
     write through pointers to variables, become opaque; in a kernel, what it
     does with a pointer into an allocation is an unknown */
  for (int i = 0; i < n; i++) scan_eval_record_opaque_use(I, args[i], clang_Cursor_getArgument(e, (unsigned)i), name);
  for (int i = 0; i < n; i++)
    if (args[i].k == V_ADDR && !clang_isConstQualifiedType(scan_front_ctype_pointee(clang_getArgType(clang_getCursorType(callee), (unsigned)i))))
      scan_eval_lval_store(I, args[i].addr,
               scan_eval_val_opaque(args[i].addr->type, loc, scan_util_fmt("the value is set by a call to '%s' at line %u", name, loc.line)), e);
  if (!strncmp(name, "cuda", 4) && scan_front_ctype(cursor_type(e)).k == CT_INT)
    return scan_eval_val_fresh(cursor_type(e), VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
  return scan_eval_val_opaque(cursor_type(e), loc, scan_util_fmt("the value is returned by '%s' (line %u), whose body is not analysed", name, loc.line));
}

static val eval_cast(interp *I, CXCursor e, CXCursor operand) {
  val v = scan_eval_expr(I, operand);
  return scan_eval_val_conv(v, cursor_type(operand), cursor_type(e), scan_front_cursor_loc(e));
}

static val eval_node(interp *I, CXCursor e);

val scan_eval_expr(interp *I, CXCursor e) {
  const char *deep = scan_exec_nest_enter(I, e);
  if (deep) return scan_eval_val_opaque(cursor_type(e), scan_front_cursor_loc(e), deep);
  I->steps++;
  val v = eval_node(I, e);
  scan_exec_nest_leave();
  return v;
}

static val eval_node(interp *I, CXCursor e) {
  CXType t = cursor_type(e);
  CXCursor *k;
  int n = scan_front_cursor_children(e, &k);
  scan_loc loc = scan_front_cursor_loc(e);
  val v;
  switch (cursor_kind(e)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_UnaryExpr:
    if (const_eval(e, &v)) return v;
    return scan_eval_val_opaque(t, loc, "the constant is not an integer the model follows");
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr: return scan_eval_val_ptr(-1, scan_expr_const(64, 0));
  case CXCursor_FloatingLiteral: return scan_eval_val_float();
  case CXCursor_StringLiteral: return scan_eval_val_unknown_ptr("the pointer is a string literal");
  case CXCursor_ParenExpr: return n == 1 ? scan_eval_expr(I, k[0]) : scan_eval_val_none();
  case CXCursor_UnexposedExpr:
    if (n == 1) {
      ctype ct = scan_front_ctype(t), cc = scan_front_ctype(cursor_type(k[0]));
      if (ct.k == CT_PTR && cc.k == CT_ARRAY) return array_address(I, k[0]);
      return eval_cast(I, e, k[0]);
    }
    if (const_eval(e, &v)) return v; /* a default argument */
    if (n == 0) return scan_eval_val_opaque(t, loc, "the expression is not one the model follows");
    break;
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
    if (n >= 1) return eval_cast(I, e, k[n - 1]);
    break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: return eval_binary(I, e);
  case CXCursor_UnaryOperator: return eval_unary(I, e);
  case CXCursor_ConditionalOperator: return eval_conditional(I, e);
  case CXCursor_MemberRefExpr:
    if (scan_device_builtin_var(I, e, &v)) return v;
    /* fall through */
  case CXCursor_ArraySubscriptExpr: {
    lval lv = scan_eval_lval(I, e);
    return scan_eval_lval_load(I, &lv, e);
  }
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind dk = cursor_kind(d);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) {
      if (const_eval(e, &v)) return v;
      if (n == 1) return scan_eval_expr(I, k[0]);
      if (dk == CXCursor_FunctionDecl) return scan_eval_val_unknown_ptr("the pointer is a function's address");
      return scan_eval_val_opaque(t, loc, scan_util_fmt("'%s' is not a value the model follows", scan_front_cursor_name(d)));
    }
    if (!strcmp(scan_front_cursor_name(d), "warpSize")) return scan_eval_val_int(scan_expr_const(32, 32));
    lval lv = scan_eval_lval(I, e);
    v = scan_eval_lval_load(I, &lv, e);
    if (v.k == V_NONE && scan_front_ctype(t).k != CT_REC && const_eval(e, &v)) return v;
    return v;
  }
  case CXCursor_CallExpr: return eval_call(I, e);
  case CXCursor_CXXNewExpr: scan_host_new(I, e, &v); return v;
  case CXCursor_CXXDeleteExpr: scan_host_delete(I, e); return scan_eval_val_none();
  case CXCursor_InitListExpr:
    if (scan_front_ctype(t).k == CT_REC) {
      /* {a, b, c} for a struct: fields in order */
      val r = scan_eval_val_opaque(t, loc, "a field has no initialiser");
      for (int i = 0; i < n && r.k == V_REC && i < r.r->n; i++) r = scan_eval_rec_set(r, r.r->names[i], scan_eval_expr(I, k[i]));
      return r;
    }
    for (int i = 0; i < n; i++) scan_eval_expr(I, k[i]);
    if (n == 1 && scan_front_ctype(t).k != CT_ARRAY) return scan_eval_expr(I, k[0]);
    return scan_eval_val_none();
  case CXCursor_CXXThisExpr: return self_of(I);
  case CXCursor_StmtExpr: {
    /* ({ s1; ...; e; }): the statements, then the last one's value */
    CXCursor *b;
    int nb = n == 1 && cursor_kind(k[0]) == CXCursor_CompoundStmt ? scan_front_cursor_children(k[0], &b) : 0;
    for (int i = 0; i + 1 < nb && !scan_expr_is_false(I->reach); i++) scan_exec_stmt(I, b[i]);
    if (nb == 0 || scan_expr_is_false(I->reach)) return scan_eval_val_opaque(t, loc, "the statement expression has no value");
    if (clang_isExpression(cursor_kind(b[nb - 1]))) return scan_eval_expr(I, b[nb - 1]);
    scan_exec_stmt(I, b[nb - 1]);
    return scan_eval_val_none();
  }
  default: break;
  }
  for (int i = 0; i < n; i++)
    if (clang_isExpression(cursor_kind(k[i]))) scan_eval_expr(I, k[i]);
  CXString ks = clang_getCursorKindSpelling(cursor_kind(e));
  const char *why = scan_util_fmt("the expression '%s' (%s) is not modelled", scan_front_cursor_text(e), clang_getCString(ks));
  clang_disposeString(ks);
  return scan_eval_val_opaque(t, loc, why);
}
