/* scan_eval.c: expressions. Every integer operation follows C: the AST
 * already carries the usual arithmetic conversions and promotions as
 * implicit casts, so an operation here works in its operands' type, signed
 * or unsigned by that type, wrapping at its width; pointer arithmetic scales
 * by the element size and keeps the allocation the pointer came from. */
#include "scan_interp.h"

#include <stdlib.h>

val v_none(void) {
  val v = {0};
  v.k = V_NONE;
  v.region = -1;
  v.part = -1;
  return v;
}

val v_int(const sx *e) {
  val v = v_none();
  v.k = V_INT;
  v.e = e;
  return v;
}

val v_float(void) {
  val v = v_none();
  v.k = V_FLOAT;
  return v;
}

val v_ptr(int region, const sx *off) {
  val v = v_none();
  v.k = V_PTR;
  v.region = region;
  v.e = off;
  return v;
}

val v_unknown_ptr(const char *why) { return v_ptr(model_unknown_region(why), sx_const(64, 0)); }

val v_addr(lval lv) {
  val v = v_none();
  v.k = V_ADDR;
  lval *p = scan_alloc(sizeof *p);
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
  return v_fresh(ft, a->k, a->name ? scan_fmt("%s.%s", a->name, name) : NULL, a->loc, a->why);
}

val v_fresh(CXType t, scan_vkind k, const char *name, scan_loc loc, const char *why) {
  ctype c = ct_of(t);
  switch (c.k) {
  case CT_INT:
  case CT_BOOL: {
    if (k == VK_OPAQUE) return v_int(scan_opaque(c.w, c.sgn, loc, why));
    int id = scan_var_new(k, name ? name : "?", c.w, c.sgn, loc);
    scan_var_get(id)->why = why;
    return v_int(sx_var(id));
  }
  case CT_PTR:
    return v_unknown_ptr(k == VK_LOADED ? scan_fmt("the pointer is read from memory at line %u", loc.line)
                                        : why ? why : "the pointer's allocation is not known");
  case CT_FLOAT: return v_float();
  case CT_REC: {
    fresh_arg a = {k, name, loc, why};
    return rec_from_type(t, fresh_field, &a);
  }
  default: return v_none();
  }
}

val v_opaque(CXType t, scan_loc loc, const char *why) { return v_fresh(t, VK_OPAQUE, NULL, loc, why); }

/* ---- records ---- */
typedef struct {
  VEC(const char *) names;
  VEC(CXType) types;
} fields_acc;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d) {
  fields_acc *a = d;
  VEC_PUSH(a->names, cur_name(c));
  VEC_PUSH(a->types, clang_getCursorType(c));
  return CXVisit_Continue;
}

val rec_from_type(CXType t, val (*field)(CXType ft, const char *name, void *arg), void *arg) {
  fields_acc a = {0};
  clang_Type_visitFields(clang_getCanonicalType(t), field_visit, &a);
  rec *r = scan_alloc(sizeof *r);
  r->n = (int)a.names.n;
  r->names = a.names.v;
  r->vals = scan_alloc((a.names.n + 1) * sizeof *r->vals);
  for (size_t i = 0; i < a.names.n; i++) r->vals[i] = field(a.types.v[i], a.names.v[i], arg);
  val v = v_none();
  v.k = V_REC;
  v.r = r;
  return v;
}

val rec_get(val r, const char *f) {
  if (r.k == V_REC)
    for (int i = 0; i < r.r->n; i++)
      if (r.r->names[i] == f) return r.r->vals[i];
  return v_none();
}

val rec_set(val r, const char *f, val v) {
  if (r.k != V_REC) return r;
  rec *n = scan_alloc(sizeof *n);
  n->n = r.r->n;
  n->names = r.r->names;
  n->vals = scan_alloc((size_t)(n->n + 1) * sizeof *n->vals);
  memcpy(n->vals, r.r->vals, (size_t)n->n * sizeof *n->vals);
  for (int i = 0; i < n->n; i++)
    if (n->names[i] == f) n->vals[i] = v;
  r.r = n;
  return r;
}

/* ---- conversions ---- */
const sx *v_to64(val v, bool sgn) { return sx_ext(sgn ? SX_SEXT : SX_ZEXT, v.e, 64); }

static const sx *int_conv(const sx *e, bool from_sgn, unsigned to_w) {
  if (to_w == 1) return sx_not(sx_bin(SX_EQ, e, sx_const(e->w, 0)));
  if (e->w == to_w) return e;
  if (e->w > to_w) return sx_ext(SX_TRUNC, e, to_w);
  return sx_ext(from_sgn && e->w > 1 ? SX_SEXT : SX_ZEXT, e, to_w);
}

const sx *v_cond(val v, scan_loc loc) {
  switch (v.k) {
  case V_INT: return v.e->w == 1 ? v.e : sx_not(sx_bin(SX_EQ, v.e, sx_const(v.e->w, 0)));
  case V_PTR:
  case V_ADDR:
    if (v.k == V_PTR && v.region < 0) return sx_false();
    return scan_opaque(1, false, loc, "the condition tests a pointer");
  default: return scan_opaque(1, false, loc, "the condition is not an integer the model follows");
  }
}

val v_conv(val v, CXType from, CXType to, scan_loc loc) {
  ctype f = ct_of(from), t = ct_of(to);
  switch (t.k) {
  case CT_INT:
  case CT_BOOL:
    if (v.k == V_INT) return v_int(int_conv(v.e, f.sgn, t.w));
    if (v.k == V_PTR && v.region < 0) return v_int(sx_const(t.w, 0));
    if (v.k == V_FLOAT) return v_opaque(to, loc, "the value is converted from floating point");
    if (v.k == V_PTR || v.k == V_ADDR) {
      if (t.k == CT_BOOL) return v_int(v_cond(v, loc));
      return v_opaque(to, loc, "a pointer is converted to an integer");
    }
    return v_opaque(to, loc, "the value is not one the model follows");
  case CT_PTR:
    if (v.k == V_PTR || v.k == V_ADDR) return v;
    if (v.k == V_INT) {
      uint64_t k;
      if (sx_is_const(v.e, &k) && k == 0) return v_ptr(-1, sx_const(64, 0));
      return v_unknown_ptr(scan_fmt("an integer is converted to a pointer at line %u", loc.line));
    }
    if (f.k == CT_ARRAY || f.k == CT_PTR) return v.k == V_NONE ? v_unknown_ptr("the pointer is not modelled") : v;
    return v_unknown_ptr("the pointer is not modelled");
  case CT_FLOAT: return v_float();
  case CT_VOID: return v_none();
  default: return v;
  }
}

bool v_same(val a, val b) {
  if (a.k != b.k) return false;
  switch (a.k) {
  case V_INT: return a.e == b.e;
  case V_PTR: return a.region == b.region && a.part == b.part && a.e == b.e;
  case V_REC:
    if (a.r == b.r) return true;
    if (a.r->n != b.r->n) return false;
    for (int i = 0; i < a.r->n; i++)
      if (!v_same(a.r->vals[i], b.r->vals[i])) return false;
    return true;
  case V_ADDR: return a.addr == b.addr;
  default: return true;
  }
}

val v_merge(const sx *c, val a, val b, scan_loc at) {
  if (v_same(a, b)) return a;
  if (a.k == V_INT && b.k == V_INT && a.e->w == b.e->w) return v_int(sx_ite(c, a.e, b.e));
  if (a.k == V_PTR && b.k == V_PTR && a.region == b.region && a.part == b.part) {
    val r = a;
    r.e = sx_ite(c, a.e, b.e);
    return r;
  }
  if (a.k == V_PTR && b.k == V_PTR)
    return v_unknown_ptr(scan_fmt("the pointer refers to different allocations depending on the path (joined at line %u)", at.line));
  if (a.k == V_REC && b.k == V_REC && a.r->n == b.r->n) {
    val r = a;
    for (int i = 0; i < a.r->n; i++) r = rec_set(r, a.r->names[i], v_merge(c, a.r->vals[i], b.r->vals[i], at));
    return r;
  }
  if (a.k == V_FLOAT && b.k == V_FLOAT) return a;
  /* set on one path only: reading it on the other would read an uninitialised
     variable, which the model does not follow; it keeps the value it was given */
  if (b.k == V_NONE) return a;
  if (a.k == V_NONE) return b;
  if (a.k == V_INT) return v_int(scan_opaque(a.e->w, false, at, "the variable holds values of different kinds on different paths"));
  if (b.k == V_INT) return v_int(scan_opaque(b.e->w, false, at, "the variable holds values of different kinds on different paths"));
  return v_none();
}

/* ---- helpers ---- */
static CXType ty(CXCursor c) { return clang_getCursorType(c); }
static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

static bool const_eval(CXCursor e, val *out) {
  CXEvalResult r = clang_Cursor_Evaluate(e);
  if (!r) return false;
  bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
  if (ok) {
    ctype t = ct_of(ty(e));
    uint64_t k = clang_EvalResult_isUnsignedInt(r) ? clang_EvalResult_getAsUnsigned(r)
                                                   : (uint64_t)clang_EvalResult_getAsLongLong(r);
    if (t.k == CT_INT || t.k == CT_BOOL) *out = v_int(sx_const(t.w, k));
    else if (t.k == CT_PTR && !k) *out = v_ptr(-1, sx_const(64, 0));
    else ok = false;
  }
  clang_EvalResult_dispose(r);
  return ok;
}

const char *ptr_text(CXCursor at) {
  CXCursor *k;
  int n = cur_children(at, &k);
  switch (kind(at)) {
  case CXCursor_ArraySubscriptExpr:
    if (n == 2) return cur_text(cur_strip(ct_of(ty(k[0])).k == CT_PTR ? k[0] : k[1]));
    break;
  case CXCursor_UnaryOperator:
    if (n == 1) return cur_text(cur_strip(k[0]));
    break;
  case CXCursor_MemberRefExpr:
    if (n == 1 && ct_of(ty(k[0])).k == CT_PTR) return cur_text(cur_strip(k[0]));
    if (n == 1) return ptr_text(cur_strip(k[0]));
    break;
  default: break;
  }
  return cur_text(at);
}

void record_access(interp *I, val ptr, uint64_t width, scan_akind kind_, CXCursor at, const char *base) {
  if (!I->device || sx_is_false(I->reach)) return;
  record_access_n(I, ptr, sx_const(64, width ? width : 1), (unsigned)width, kind_, at, NULL);
  M.accesses.v[M.accesses.n - 1].base = base ? base : ptr_text(at);
}

void record_access_n(interp *I, val ptr, const sx *width, unsigned elem, scan_akind kind_, CXCursor at, const char *what) {
  if (!I->device || sx_is_false(I->reach)) return;
  scan_access a = {0};
  a.loc = cur_loc(at);
  a.kind = kind_;
  a.base = ptr_text(at);
  a.part = -1;
  if (ptr.k == V_PTR && ptr.region >= 0) {
    a.region = ptr.region;
    a.part = ptr.part;
    a.off = ptr.e;
  } else {
    a.region = model_unknown_region(ptr.k == V_PTR ? "the pointer is null" : "the pointer is not one the model follows");
    a.off = sx_const(64, 0);
  }
  a.width = width;
  a.elem = elem;
  a.reach = I->reach;
  a.ctx = I->ctx;
  a.what = what;
  a.why = I->fr ? I->fr->why : NULL;
  VEC_PUSH(M.accesses, a);
}

void record_opaque_use(interp *I, val ptr, CXCursor at, const char *what) {
  if (!I->device || sx_is_false(I->reach) || ptr.k != V_PTR || ptr.region < 0) return;
  record_access_n(I, ptr, sx_const(64, 1), 0, AK_USE, at, what);
  scan_access *a = &M.accesses.v[M.accesses.n - 1];
  a->why = scan_fmt("'%s' has no body the analysis can see, so what it touches is not known", what);
}

/* ---- lvalues ---- */
static lval lv_none(const char *why, CXType t) {
  lval l;
  memset(&l, 0, sizeof l);
  l.k = LV_NONE;
  l.why = why;
  l.type = t;
  return l;
}

static lval lv_mem(val ptr, CXType t) {
  lval l = lv_none(NULL, t);
  l.k = LV_MEM;
  l.ptr = ptr.k == V_PTR ? ptr : v_unknown_ptr("the pointer is not one the model follows");
  return l;
}

static val lv_var_get(interp *I, const lval *lv);

const char *lv_name(const lval *lv) {
  if (lv->k != LV_VAR) return "?";
  scan_buf b = {0};
  buf_add(&b, "%s", cur_name(lv->decl));
  for (int i = 0; i < lv->npath; i++) buf_add(&b, ".%s", lv->path[i]);
  return b.s;
}

val lv_address(interp *I, const lval *lv) {
  if (lv->k == LV_MEM) return lv->ptr;
  /* an array variable holds its own address */
  if (lv->k == LV_VAR && ct_of(lv->type).k == CT_ARRAY) return lv_var_get(I, lv);
  if (lv->k == LV_VAR) return v_addr(*lv);
  return v_unknown_ptr(lv->why ? lv->why : "the address is not modelled");
}

/* a variable with static storage, bound in frame 0 on first use */
static lval global_var(interp *I, CXCursor d, CXType t) {
  ctype c = ct_of(t);
  scan_loc loc = cur_loc(d);
  bool dev = cur_has_attr(d, CXCursor_CUDADeviceAttr) || cur_has_attr(d, CXCursor_CUDAConstantAttr) ||
             cur_has_attr(d, CXCursor_CUDASharedAttr);
  if (cur_has_attr(d, CXCursor_CUDASharedAttr) && I->device) {
    /* a __shared__ variable at namespace scope: one per block of each launch */
    lval l = lv_none(NULL, t);
    l.k = LV_VAR;
    l.frame = 0;
    l.decl = d;
    val *b = env_get(I->env, 0, d);
    if (!b) env_put(I->env, 0, d, v_ptr(device_array(I, d, t), sx_const(64, 0)));
    return l;
  }
  if (c.k == CT_ARRAY || (dev && I->device)) {
    val *b = env_get(I->env, 0, d);
    if (!b) {
      int r = model_region(dev ? RG_GLOBALVAR : RG_HOSTVAR, cur_name(d), loc, sx_const(64, ct_size(t)),
                           scan_fmt("%llu", (unsigned long long)ct_size(t)));
      env_put(I->env, 0, d, v_ptr(r, sx_const(64, 0)));
      b = env_get(I->env, 0, d);
    }
    if (c.k == CT_ARRAY) {
      lval l = lv_none(NULL, t);
      l.k = LV_VAR;
      l.frame = 0;
      l.decl = d;
      return l;
    }
    return lv_mem(*b, t);
  }
  if (dev) return lv_none(scan_fmt("'%s' is device memory read on the host", cur_name(d)), t);
  lval l = lv_none(NULL, t);
  l.k = LV_VAR;
  l.frame = 0;
  l.decl = d;
  if (!env_get(I->env, 0, d)) {
    val v;
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    if (!(clang_isConstQualifiedType(t) && !clang_Cursor_isNull(init) && const_eval(init, &v)))
      v = v_opaque(t, loc, scan_fmt("'%s' is a global variable whose value is not known here", cur_name(d)));
    env_put(I->env, 0, d, v);
  }
  return l;
}

static lval ev_lv_node(interp *I, CXCursor e);

/* 'this': the object of the method being interpreted, where the model
   follows it (a variable the method was called on) */
static val self_of(interp *I) {
  if (I->fr && I->fr->self.k == V_ADDR) return I->fr->self;
  return v_unknown_ptr("the pointer is 'this', of an object the model does not follow");
}

lval ev_lv(interp *I, CXCursor e) {
  const char *deep = nest_enter(I, e);
  if (deep) return lv_none(deep, ty(e));
  lval l = ev_lv_node(I, e);
  nest_leave();
  return l;
}

static lval ev_lv_node(interp *I, CXCursor e) {
  CXType t = ty(e);
  CXCursor *k;
  int n = cur_children(e, &k);
  switch (kind(e)) {
  case CXCursor_ParenExpr:
  case CXCursor_UnexposedExpr:
    if (n == 1) return ev_lv(I, k[0]);
    break;
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind dk = kind(d);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) break;
    CXType dt = clang_getCursorType(d);
    unsigned fr = I->fr ? I->fr->id : 0;
    val *b = env_get(I->env, fr, d);
    unsigned bf = fr;
    if (!b) {
      b = env_get(I->env, 0, d);
      bf = 0;
    }
    if (!b && clang_Cursor_hasVarDeclGlobalStorage(d) == 1) return global_var(I, d, dt);
    if (ct_of(dt).k == CT_REF) {
      if (b && b->k == V_ADDR) {
        lval l = *b->addr;
        return l;
      }
      return lv_none(scan_fmt("the reference '%s' is not bound to a variable the model follows", cur_name(d)), t);
    }
    lval l = lv_none(NULL, dt);
    l.k = LV_VAR;
    l.frame = bf;
    l.decl = d;
    return l;
  }
  case CXCursor_ArraySubscriptExpr: {
    if (n != 2) break;
    /* a[i] or i[a]: the index is the integer (the base's type may read as an
       array: a parameter declared double x[8], a row of double phi[][Y][Z]) */
    ctype c1 = ct_of(ty(k[1]));
    int pi = c1.k == CT_INT || c1.k == CT_BOOL ? 0 : ct_of(ty(k[0])).k == CT_PTR ? 0 : 1;
    val p = ev(I, k[pi]);
    val i = ev(I, k[1 - pi]);
    uint64_t size = ct_size(t);
    if (p.k != V_PTR || i.k != V_INT)
      return lv_mem(v_unknown_ptr(p.k == V_PTR ? "the index is not an integer the model follows"
                                               : "the pointer is not one the model follows"),
                    t);
    const sx *idx = v_to64(i, ct_of(ty(k[1 - pi])).sgn);
    p.e = sx_bin(SX_ADD, p.e, sx_bin(SX_MUL, idx, sx_const(64, size ? size : 1)));
    return lv_mem(p, t);
  }
  case CXCursor_MemberRefExpr: {
    CXCursor f = clang_getCursorReferenced(e);
    if (n > 1 || kind(f) != CXCursor_FieldDecl) break;
    long long bits = clang_Cursor_getOffsetOfField(f);
    lval b;
    if (n == 0 || ct_of(ty(k[0])).k == CT_PTR) {
      /* p->f, this->f, or f in a method (this implied) */
      val p = n == 0 ? self_of(I) : ev(I, k[0]);
      if (p.k == V_ADDR) {
        b = *p.addr;
      } else {
        if (p.k == V_PTR && bits >= 0) p.e = sx_bin(SX_ADD, p.e, sx_const(64, (uint64_t)bits / 8));
        return lv_mem(p, t);
      }
    } else {
      b = ev_lv(I, k[0]);
    }
    if (b.k == LV_MEM) {
      if (bits >= 0) b.ptr.e = sx_bin(SX_ADD, b.ptr.e, sx_const(64, (uint64_t)bits / 8));
      b.type = t;
      return b;
    }
    if (b.k == LV_VAR && b.npath < LV_PATH) {
      b.path[b.npath++] = cur_name(f);
      b.type = t;
      return b;
    }
    return lv_none(b.why ? b.why : "the member is nested too deep", t);
  }
  case CXCursor_UnaryOperator:
    if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Deref && n == 1) {
      val p = ev(I, k[0]);
      if (p.k == V_ADDR) {
        lval l = *p.addr;
        l.type = t;
        return l;
      }
      return lv_mem(p, t);
    }
    break;
  default: break;
  }
  return lv_none(scan_fmt("the expression '%s' is not a location the model follows", cur_text(e)), t);
}

static val lv_var_get(interp *I, const lval *lv) {
  val *b = env_get(I->env, lv->frame, lv->decl);
  if (!b) return v_none();
  val v = *b;
  for (int i = 0; i < lv->npath; i++) v = rec_get(v, lv->path[i]);
  return v;
}

val lv_load(interp *I, const lval *lv, CXCursor at) {
  ctype t = ct_of(lv->type);
  scan_loc loc = cur_loc(at);
  switch (lv->k) {
  case LV_NONE: return v_opaque(lv->type, loc, lv->why);
  case LV_VAR: {
    val v = lv_var_get(I, lv);
    if (v.k == V_NONE && t.k != CT_VOID && t.k != CT_OTHER) {
      v = v_opaque(lv->type, loc, scan_fmt("'%s' has no value here", cur_name(lv->decl)));
    }
    return v;
  }
  case LV_MEM: {
    if (t.k == CT_ARRAY) return lv->ptr;
    record_access(I, lv->ptr, ct_size(lv->type), AK_READ, at, NULL);
    scan_region *r = lv->ptr.k == V_PTR && lv->ptr.region >= 0 ? model_reg(lv->ptr.region) : NULL;
    if (r && r->has_vals && t.k == CT_INT && t.w >= 8) {
      /* an element of a const array of constants: a value in its range */
      const sx *v = scan_opaque(t.w, t.sgn, loc, scan_fmt("the value is an element of the constant array '%s'", r->name));
      sx_op le = t.sgn ? SX_SLE : SX_ULE;
      scan_var_fact((int)v->k, sx_and(sx_bin(le, sx_const(t.w, (uint64_t)r->lo), v), sx_bin(le, v, sx_const(t.w, (uint64_t)r->hi))));
      return v_int(v);
    }
    if (I->device) return v_fresh(lv->type, VK_LOADED, cur_text(at), loc, NULL);
    return v_opaque(lv->type, loc, "the value is read from host memory");
  }
  }
  return v_none();
}

static val store_path(val cur, const lval *lv, int i, val v) {
  if (i == lv->npath) return v;
  if (cur.k != V_REC) return cur;
  return rec_set(cur, lv->path[i], store_path(rec_get(cur, lv->path[i]), lv, i + 1, v));
}

void lv_store(interp *I, const lval *lv, val v, CXCursor at) {
  if (sx_is_false(I->reach)) return;
  switch (lv->k) {
  case LV_NONE: return;
  case LV_VAR: {
    if (!lv->npath) {
      env_put(I->env, lv->frame, lv->decl, v);
      return;
    }
    val *b = env_get(I->env, lv->frame, lv->decl);
    val cur = b ? *b : v_none();
    if (cur.k != V_REC)
      cur = v_opaque(clang_getCursorType(lv->decl), cur_loc(at), scan_fmt("'%s' has no value here", cur_name(lv->decl)));
    env_put(I->env, lv->frame, lv->decl, store_path(cur, lv, 0, v));
    return;
  }
  case LV_MEM: record_access(I, lv->ptr, ct_size(lv->type), AK_WRITE, at, NULL); return;
  }
}

/* ---- operators ---- */
static val arith(sx_op op, val a, val b) { return v_int(sx_bin(op, a.e, b.e)); }

static val int_binop(enum CXBinaryOperatorKind op, val a, val b, bool sgn) {
  if (op == CXBinaryOperator_Shl || op == CXBinaryOperator_Shr) {
    const sx *cnt = b.e->w > a.e->w ? sx_ext(SX_TRUNC, b.e, a.e->w) : sx_ext(SX_ZEXT, b.e, a.e->w);
    return v_int(sx_bin(op == CXBinaryOperator_Shl ? SX_SHL : sgn ? SX_ASHR : SX_LSHR, a.e, cnt));
  }
  if (a.e->w != b.e->w) return v_none();
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
  case CXBinaryOperator_NE: return v_int(sx_not(sx_bin(SX_EQ, a.e, b.e)));
  default: return v_none();
  }
}

static bool is_cmp_op(enum CXBinaryOperatorKind op) {
  return op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE;
}

/* an arithmetic operation on values of types ta, tb with result type tr */
static val binop(enum CXBinaryOperatorKind op, val a, CXType ta, val b, CXType tb, CXType tr, scan_loc loc) {
  ctype ca = ct_of(ta), cb = ct_of(tb);
  if (a.k == V_PTR && b.k == V_INT && (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)) {
    uint64_t el = ct_size(ct_pointee(ta));
    const sx *d = sx_bin(SX_MUL, v_to64(b, cb.sgn), sx_const(64, el ? el : 1));
    a.e = sx_bin(op == CXBinaryOperator_Add ? SX_ADD : SX_SUB, a.e, d);
    return a;
  }
  if (a.k == V_INT && b.k == V_PTR && op == CXBinaryOperator_Add) return binop(op, b, tb, a, ta, tr, loc);
  if (a.k == V_PTR && b.k == V_PTR) {
    bool known = a.region >= 0 && a.region == b.region;
    if (op == CXBinaryOperator_Sub && known) {
      uint64_t el = ct_size(ct_pointee(ta));
      return v_conv(v_int(sx_bin(SX_SDIV, sx_bin(SX_SUB, a.e, b.e), sx_const(64, el ? el : 1))),
                    tr, tr, loc);
    }
    if (is_cmp_op(op) && known) return int_binop(op, v_int(a.e), v_int(b.e), true);
    if ((op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) && (a.region < 0 || b.region < 0) &&
        a.region != b.region) {
      /* an allocation that succeeded is not null */
      int other = a.region < 0 ? b.region : a.region;
      if (model_reg(other)->kind != RG_UNKNOWN) return v_int(op == CXBinaryOperator_EQ ? sx_false() : sx_true());
    }
    return v_opaque(tr, loc, "the result compares or subtracts pointers the model cannot relate");
  }
  if (a.k == V_INT && b.k == V_INT) {
    val r = int_binop(op, a, b, ca.sgn);
    if (r.k != V_NONE) return r;
  }
  if (a.k == V_FLOAT || b.k == V_FLOAT) {
    if (is_cmp_op(op)) return v_opaque(tr, loc, "the condition compares floating-point values");
    return v_conv(v_float(), tr, tr, loc);
  }
  return v_opaque(tr, loc, "an operand is not a value the model follows");
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
static val lv_peek(interp *I, const lval *lv, CXCursor at) {
  if (lv->k != LV_MEM) return lv_load(I, lv, at);
  if (I->device) return v_fresh(lv->type, VK_LOADED, cur_text(at), cur_loc(at), NULL);
  return v_opaque(lv->type, cur_loc(at), "the value is read from host memory");
}

/* evaluates e with reach narrowed to c; bindings it changes apply only under c */
static val ev_under(interp *I, CXCursor e, const sx *c, const sx **reach_out) {
  const sx *r0 = I->reach;
  env *e0 = I->env;
  I->env = env_copy(e0);
  I->reach = sx_and(r0, c);
  val v = ev(I, e);
  *reach_out = I->reach;
  env *after = I->env;
  I->env = env_merge(c, after, e0, cur_loc(e));
  I->reach = r0;
  return v;
}

static val ev_logic(interp *I, CXCursor e, bool is_and, CXCursor l, CXCursor r) {
  scan_loc loc = cur_loc(e);
  const sx *a = v_cond(ev(I, l), loc);
  const sx *rr;
  const sx *b = v_cond(ev_under(I, r, is_and ? a : sx_not(a), &rr), loc);
  const sx *v = is_and ? sx_and(a, b) : sx_or(a, b);
  /* a noreturn call on the right ends the paths that reached it */
  if (sx_is_false(rr)) I->reach = sx_and(I->reach, is_and ? sx_not(a) : a);
  return v_conv(v_int(v), clang_getCursorType(e), ty(e), loc);
}

static val ev_binary(interp *I, CXCursor e) {
  CXCursor *k;
  if (cur_children(e, &k) != 2) return v_opaque(ty(e), cur_loc(e), "malformed operator");
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
  scan_loc loc = cur_loc(e);
  switch (op) {
  case CXBinaryOperator_LAnd: return ev_logic(I, e, true, k[0], k[1]);
  case CXBinaryOperator_LOr: return ev_logic(I, e, false, k[0], k[1]);
  case CXBinaryOperator_Comma:
    ev(I, k[0]);
    return ev(I, k[1]);
  case CXBinaryOperator_Assign: {
    lval lv = ev_lv(I, k[0]);
    CXCursor rs = cur_strip(k[1]);
    if (lv.k == LV_VAR && kind(rs) == CXCursor_CallExpr) {
      I->hint_call = rs;
      I->hint_name = lv_name(&lv);
    }
    val v = ev(I, k[1]);
    I->hint_name = NULL;
    lv_store(I, &lv, v, k[0]);
    return v;
  }
  default: break;
  }
  enum CXBinaryOperatorKind base = compound_base(op);
  if (base != CXBinaryOperator_Invalid) {
    lval lv = ev_lv(I, k[0]);
    val rhs = ev(I, k[1]);
    val old = lv_peek(I, &lv, k[0]);
    CXType lt = ty(k[0]), rt = ty(k[1]);
    val r;
    if (old.k == V_PTR) {
      r = binop(base, old, lt, rhs, rt, lt, loc);
    } else if (base == CXBinaryOperator_Shl || base == CXBinaryOperator_Shr) {
      r = binop(base, old, lt, rhs, rt, lt, loc);
    } else {
      /* computed in the right operand's (converted) type, stored back in the left's */
      val o = v_conv(old, lt, rt, loc);
      r = v_conv(binop(base, o, rt, rhs, rt, rt, loc), rt, lt, loc);
    }
    lv_store(I, &lv, r, k[0]);
    return r;
  }
  val a = ev(I, k[0]);
  val b = ev(I, k[1]);
  return binop(op, a, ty(k[0]), b, ty(k[1]), ty(e), loc);
}

static val ev_unary(interp *I, CXCursor e) {
  CXCursor *k;
  if (cur_children(e, &k) != 1) return v_opaque(ty(e), cur_loc(e), "malformed operator");
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
  scan_loc loc = cur_loc(e);
  CXType t = ty(e);
  switch (op) {
  case CXUnaryOperator_PostInc:
  case CXUnaryOperator_PreInc:
  case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreDec: {
    lval lv = ev_lv(I, k[0]);
    val old = lv_peek(I, &lv, k[0]);
    bool inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
    val nv;
    if (old.k == V_INT) {
      nv = v_int(sx_bin(inc ? SX_ADD : SX_SUB, old.e, sx_const(old.e->w, 1)));
    } else if (old.k == V_PTR) {
      uint64_t el = ct_size(ct_pointee(ty(k[0])));
      nv = old;
      nv.e = sx_bin(inc ? SX_ADD : SX_SUB, old.e, sx_const(64, el ? el : 1));
    } else {
      nv = v_opaque(ty(k[0]), loc, "the value is not one the model follows");
    }
    lv_store(I, &lv, nv, k[0]);
    return op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ? nv : old;
  }
  case CXUnaryOperator_AddrOf: {
    lval lv = ev_lv(I, k[0]);
    return lv_address(I, &lv);
  }
  case CXUnaryOperator_Deref: {
    lval lv = ev_lv(I, e);
    return lv_load(I, &lv, e);
  }
  case CXUnaryOperator_Plus:
  case CXUnaryOperator_Extension: return ev(I, k[0]);
  case CXUnaryOperator_Minus:
  case CXUnaryOperator_Not: {
    val v = ev(I, k[0]);
    if (v.k == V_FLOAT) return v;
    if (v.k != V_INT) return v_opaque(t, loc, "the operand is not a value the model follows");
    return v_int(sx_un(op == CXUnaryOperator_Minus ? SX_NEG : SX_NOT, v.e));
  }
  case CXUnaryOperator_LNot: {
    val v = ev(I, k[0]);
    return v_conv(v_int(sx_not(v_cond(v, loc))), clang_getCursorType(e), t, loc);
  }
  default: return v_opaque(t, loc, "the operator is not modelled");
  }
}

static val ev_conditional(interp *I, CXCursor e) {
  CXCursor *k;
  int n = cur_children(e, &k);
  scan_loc loc = cur_loc(e);
  if (n != 3) return v_opaque(ty(e), loc, "malformed conditional");
  const sx *c = v_cond(ev(I, k[0]), loc);
  const sx *ra, *rb;
  val a = ev_under(I, k[1], c, &ra);
  val b = ev_under(I, k[2], sx_not(c), &rb);
  /* an arm that does not return (assert's failure branch) narrows the path */
  if (sx_is_false(ra)) I->reach = sx_and(I->reach, sx_not(c));
  if (sx_is_false(rb)) I->reach = sx_and(I->reach, c);
  if (ct_of(ty(e)).k == CT_VOID) return v_none();
  return v_merge(c, a, b, loc);
}

static val construct(interp *I, CXCursor e, CXCursor ctor) {
  CXType t = ty(e);
  int n = clang_Cursor_getNumArguments(e);
  scan_loc loc = cur_loc(e);
  if (ct_is_dim3(t)) {
    val f[3];
    for (int i = 0; i < 3; i++) f[i] = v_int(sx_const(32, 1));
    for (int i = 0; i < n && i < 3; i++) {
      CXCursor a = clang_Cursor_getArgument(e, (unsigned)i);
      val v = ev(I, a);
      if (v.k == V_REC && n == 1) return v; /* dim3(uint3) or a copy */
      f[i] = v.k == V_INT ? v_conv(v, ty(a), clang_getArgType(clang_getCursorType(ctor), (unsigned)i), loc)
                          : v_opaque(ty(a), loc, "a launch dimension is not an integer the model follows");
    }
    val r = v_opaque(t, loc, "dim3");
    r = rec_set(r, scan_intern("x"), f[0]);
    r = rec_set(r, scan_intern("y"), f[1]);
    r = rec_set(r, scan_intern("z"), f[2]);
    return r;
  }
  CXCursor def = unit_method(ctor);
  if (!clang_Cursor_isNull(I->hint_decl) && clang_equalCursors(I->hint_call, e) && !clang_Cursor_isNull(def) &&
      !clang_CXXConstructor_isCopyConstructor(ctor) && !clang_CXXConstructor_isMoveConstructor(ctor)) {
    /* a user's constructor for the variable being declared: it runs on that
       variable, whose members start with no value */
    CXCursor d = I->hint_decl;
    I->hint_decl = clang_getNullCursor();
    unsigned fr = I->fr ? I->fr->id : 0;
    env_put(I->env, fr, d, v_opaque(t, loc, scan_fmt("a member of '%s' is not set by its constructor", cur_name(d))));
    lval lv;
    memset(&lv, 0, sizeof lv);
    lv.k = LV_VAR;
    lv.frame = fr;
    lv.decl = d;
    lv.type = t;
    val *args;
    int na = call_args(I, e, ctor, &args);
    I->self_arg = v_addr(lv);
    call_user(I, def, args, na, e);
    val *b = env_get(I->env, fr, d);
    return b ? *b : v_opaque(t, loc, "the object is not one the model follows");
  }
  if (n == 1) {
    CXCursor a = clang_Cursor_getArgument(e, 0);
    /* a copy, from a const object too (float4 v = a[i] reads a[i]) */
    if (clang_equalTypes(clang_getUnqualifiedType(clang_getCanonicalType(ty(a))),
                         clang_getUnqualifiedType(clang_getCanonicalType(t))))
      return ev(I, a);
  }
  val *args;
  call_args(I, e, ctor, &args);
  return v_opaque(t, loc, scan_fmt("'%s' is built by a constructor the model does not follow", cur_text(e)));
}

/* a method the model does not follow, called on an object in memory (a[i].norm(),
   a[i] += v with a user operator): the object must exist, so the call is checked as
   a read of the whole object; what the method does inside is not followed */
static void method_object(interp *I, CXCursor e) {
  CXCursor *k;
  int n = cur_children(e, &k);
  if (n < 1) return;
  CXCursor callee = cur_strip(k[0]);
  CXCursor obj;
  if (kind(callee) == CXCursor_MemberRefExpr) {
    CXCursor *m;
    if (cur_children(callee, &m) != 1) return;
    obj = m[0];
  } else if (clang_Cursor_getNumArguments(e) >= 1) {
    obj = clang_Cursor_getArgument(e, 0); /* a member operator's object */
  } else {
    return;
  }
  CXType ot = ty(obj);
  if (ct_of(ot).k == CT_PTR) {
    if (kind(callee) != CXCursor_MemberRefExpr) return;
    record_access(I, ev(I, obj), ct_size(ct_pointee(ot)), AK_READ, cur_strip(obj), NULL);
    return;
  }
  lval lv = ev_lv(I, obj);
  if (lv.k == LV_MEM) record_access(I, lv.ptr, ct_size(lv.type), AK_READ, cur_strip(obj), NULL);
}

/* the object a method is called on, as the address of a variable (m.set(),
   p->set() with p = &m, set() inside another method), or V_NONE */
static val method_self(interp *I, CXCursor e) {
  CXCursor *k;
  if (cur_children(e, &k) < 1) return v_none();
  CXCursor callee = cur_strip(k[0]);
  if (kind(callee) != CXCursor_MemberRefExpr) return v_none();
  CXCursor *m;
  int nm = cur_children(callee, &m);
  if (nm == 0) return self_of(I);
  if (nm != 1) return v_none();
  if (ct_of(ty(m[0])).k == CT_PTR) {
    val p = ev(I, m[0]);
    return p.k == V_ADDR ? p : v_none();
  }
  lval lv = ev_lv(I, m[0]);
  return lv.k == LV_VAR ? v_addr(lv) : v_none();
}

static val ev_call(interp *I, CXCursor e) {
  CXCursor config;
  scan_loc loc = cur_loc(e);
  if (is_launch(e, &config)) {
    launch(I, e, config);
    return v_none();
  }
  CXCursor callee = clang_getCursorReferenced(e);
  if (clang_Cursor_isNull(callee) || clang_isInvalid(kind(callee))) {
    val *args;
    call_args(I, e, clang_getNullCursor(), &args);
    return v_opaque(ty(e), loc, "the call goes through a pointer the model does not follow");
  }
  if (kind(callee) == CXCursor_Constructor) return construct(I, e, callee);
  if (kind(callee) == CXCursor_CXXMethod && clang_CXXMethod_isDefaulted(callee) &&
      (clang_CXXMethod_isCopyAssignmentOperator(callee) || clang_CXXMethod_isMoveAssignmentOperator(callee)) &&
      clang_Cursor_getNumArguments(e) == 2) {
    /* a struct assigned as a whole (a[i] = make_float4(...)): a store like any other */
    CXCursor to = clang_Cursor_getArgument(e, 0);
    lval lv = ev_lv(I, to);
    val v = ev(I, clang_Cursor_getArgument(e, 1));
    lv_store(I, &lv, v, to);
    return v;
  }
  if (kind(callee) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(callee)) {
    val self = method_self(I, e);
    CXCursor def = unit_method(callee);
    if (self.k == V_ADDR && !clang_Cursor_isNull(def)) {
      /* a user's method on a variable the model follows: its body, with 'this' */
      val *args;
      int na = call_args(I, e, callee, &args);
      I->self_arg = self;
      return call_user(I, def, args, na, e);
    }
    method_object(I, e);
  }
  const char *name = cur_name(callee);
  val out;
  if (I->device ? device_call(I, e, name, callee, &out) : host_call(I, e, name, callee, &out)) return out;
  val *args;
  int n;
  if (noreturn_name(name)) {
    call_args(I, e, callee, &args);
    I->reach = sx_false();
    return v_none();
  }
  CXCursor def = unit_definition(callee);
  n = call_args(I, e, callee, &args);
  if (!clang_Cursor_isNull(def)) return call_user(I, def, args, n, e);
  /* a function the model cannot see into: what it returns, and what it may
     write through pointers to variables, become opaque; in a kernel, what it
     does with a pointer into an allocation is an unknown */
  for (int i = 0; i < n; i++) record_opaque_use(I, args[i], clang_Cursor_getArgument(e, (unsigned)i), name);
  for (int i = 0; i < n; i++)
    if (args[i].k == V_ADDR && !clang_isConstQualifiedType(ct_pointee(clang_getArgType(clang_getCursorType(callee), (unsigned)i))))
      lv_store(I, args[i].addr,
               v_opaque(args[i].addr->type, loc, scan_fmt("the value is set by a call to '%s' at line %u", name, loc.line)), e);
  if (!strncmp(name, "cuda", 4) && ct_of(ty(e)).k == CT_INT)
    return v_fresh(ty(e), VK_RUNTIME, scan_fmt("%s@%u", name, loc.line), loc, NULL);
  return v_opaque(ty(e), loc, scan_fmt("the value is returned by '%s' (line %u), whose body is not analysed", name, loc.line));
}

static val ev_cast(interp *I, CXCursor e, CXCursor operand) {
  val v = ev(I, operand);
  return v_conv(v, ty(operand), ty(e), cur_loc(e));
}

static val ev_node(interp *I, CXCursor e);

val ev(interp *I, CXCursor e) {
  const char *deep = nest_enter(I, e);
  if (deep) return v_opaque(ty(e), cur_loc(e), deep);
  I->steps++;
  val v = ev_node(I, e);
  nest_leave();
  return v;
}

static val ev_node(interp *I, CXCursor e) {
  CXType t = ty(e);
  CXCursor *k;
  int n = cur_children(e, &k);
  scan_loc loc = cur_loc(e);
  val v;
  switch (kind(e)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral:
  case CXCursor_CXXBoolLiteralExpr:
  case CXCursor_UnaryExpr:
    if (const_eval(e, &v)) return v;
    return v_opaque(t, loc, "the constant is not an integer the model follows");
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr: return v_ptr(-1, sx_const(64, 0));
  case CXCursor_FloatingLiteral: return v_float();
  case CXCursor_StringLiteral: return v_unknown_ptr("the pointer is a string literal");
  case CXCursor_ParenExpr: return n == 1 ? ev(I, k[0]) : v_none();
  case CXCursor_UnexposedExpr:
    if (n == 1) {
      ctype ct = ct_of(t), cc = ct_of(ty(k[0]));
      if (ct.k == CT_PTR && cc.k == CT_ARRAY) {
        lval lv = ev_lv(I, k[0]);
        return lv.k == LV_VAR ? lv_load(I, &lv, k[0]) : lv_address(I, &lv);
      }
      return ev_cast(I, e, k[0]);
    }
    if (const_eval(e, &v)) return v; /* a default argument */
    if (n == 0) return v_opaque(t, loc, "the expression is not one the model follows");
    break;
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
    if (n >= 1) return ev_cast(I, e, k[n - 1]);
    break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: return ev_binary(I, e);
  case CXCursor_UnaryOperator: return ev_unary(I, e);
  case CXCursor_ConditionalOperator: return ev_conditional(I, e);
  case CXCursor_MemberRefExpr:
    if (builtin_var(I, e, &v)) return v;
    /* fall through */
  case CXCursor_ArraySubscriptExpr: {
    lval lv = ev_lv(I, e);
    return lv_load(I, &lv, e);
  }
  case CXCursor_DeclRefExpr: {
    CXCursor d = clang_getCursorReferenced(e);
    enum CXCursorKind dk = kind(d);
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) {
      if (const_eval(e, &v)) return v;
      if (n == 1) return ev(I, k[0]);
      if (dk == CXCursor_FunctionDecl) return v_unknown_ptr("the pointer is a function's address");
      return v_opaque(t, loc, scan_fmt("'%s' is not a value the model follows", cur_name(d)));
    }
    if (!strcmp(cur_name(d), "warpSize")) return v_int(sx_const(32, 32));
    lval lv = ev_lv(I, e);
    v = lv_load(I, &lv, e);
    if (v.k == V_NONE && ct_of(t).k != CT_REC && const_eval(e, &v)) return v;
    return v;
  }
  case CXCursor_CallExpr: return ev_call(I, e);
  case CXCursor_CXXNewExpr: host_new(I, e, &v); return v;
  case CXCursor_CXXDeleteExpr: host_delete(I, e); return v_none();
  case CXCursor_InitListExpr:
    if (ct_of(t).k == CT_REC) {
      /* {a, b, c} for a struct: fields in order */
      val r = v_opaque(t, loc, "a field has no initialiser");
      for (int i = 0; i < n && r.k == V_REC && i < r.r->n; i++) r = rec_set(r, r.r->names[i], ev(I, k[i]));
      return r;
    }
    for (int i = 0; i < n; i++) ev(I, k[i]);
    if (n == 1 && ct_of(t).k != CT_ARRAY) return ev(I, k[0]);
    return v_none();
  case CXCursor_CXXThisExpr: return self_of(I);
  case CXCursor_StmtExpr: {
    /* ({ s1; ...; e; }): the statements, then the last one's value */
    CXCursor *b;
    int nb = n == 1 && kind(k[0]) == CXCursor_CompoundStmt ? cur_children(k[0], &b) : 0;
    for (int i = 0; i + 1 < nb && !sx_is_false(I->reach); i++) exec(I, b[i]);
    if (nb == 0 || sx_is_false(I->reach)) return v_opaque(t, loc, "the statement expression has no value");
    if (clang_isExpression(kind(b[nb - 1]))) return ev(I, b[nb - 1]);
    exec(I, b[nb - 1]);
    return v_none();
  }
  default: break;
  }
  for (int i = 0; i < n; i++)
    if (clang_isExpression(kind(k[i]))) ev(I, k[i]);
  CXString ks = clang_getCursorKindSpelling(kind(e));
  const char *why = scan_fmt("the expression '%s' (%s) is not modelled", cur_text(e), clang_getCString(ks));
  clang_disposeString(ks);
  return v_opaque(t, loc, why);
}
