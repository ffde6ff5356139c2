/* scan_exec.c: statements, loops and calls. Both arms of an if run on copies
 * of the bindings and are joined with the condition; return, break and
 * continue end the path they are on (the reach becomes false there). A loop
 * runs its body once for an arbitrary iteration: its induction variable is
 * a fresh variable bounded by the start value, the step's direction and the
 * condition; every other variable the loop changes is opaque in the body and
 * after the loop, so nothing that depends on it is ever called safe by guess. */
#include "scan_interp.h"

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }
static bool null(CXCursor c) { return clang_Cursor_isNull(c) != 0; }

/* ---- which variables a statement changes ---- */
typedef struct {
  cursor_vec *out;
} mod_acc;

static CXCursor base_var(CXCursor e) {
  e = scan_front_cursor_strip(e);
  if (kind(e) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(e);
    if (kind(d) == CXCursor_VarDecl || kind(d) == CXCursor_ParmDecl) return d;
  }
  if (kind(e) == CXCursor_MemberRefExpr) {
    CXCursor *k;
    if (scan_front_cursor_children(e, &k) == 1 && scan_front_ctype(clang_getCursorType(k[0])).k != CT_PTR) return base_var(k[0]);
  }
  return clang_getNullCursor();
}

static void add_mod(mod_acc *a, CXCursor d) {
  if (null(d)) return;
  for (size_t i = 0; i < a->out->n; i++)
    if (clang_equalCursors(a->out->v[i], d)) return;
  VEC_PUSH(*a->out, d);
}

static enum CXChildVisitResult mod_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  mod_acc *a = data;
  CXCursor *k;
  switch (kind(c)) {
  case CXCursor_BinaryOperator:
    if (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign && scan_front_cursor_children(c, &k) == 2)
      add_mod(a, base_var(k[0]));
    break;
  case CXCursor_CompoundAssignOperator:
    if (scan_front_cursor_children(c, &k) == 2) add_mod(a, base_var(k[0]));
    break;
  case CXCursor_UnaryOperator: {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if ((op <= CXUnaryOperator_PreDec && op != CXUnaryOperator_Invalid) || op == CXUnaryOperator_AddrOf)
      if (scan_front_cursor_children(c, &k) == 1) add_mod(a, base_var(k[0]));
    break;
  }
  case CXCursor_CallExpr: {
    CXCursor callee = clang_getCursorReferenced(c), obj;
    int n = clang_Cursor_getNumArguments(c);
    /* v.push_back(x), v.resize(n): the vector changes */
    if (scan_stl_changes(c, &obj)) add_mod(a, base_var(obj));
    for (int i = 0; i < n && !null(callee); i++) {
      CXType pt = clang_getArgType(clang_getCursorType(callee), (unsigned)i);
      if (scan_front_ctype(pt).k == CT_REF && !clang_isConstQualifiedType(clang_getPointeeType(pt)))
        add_mod(a, base_var(clang_Cursor_getArgument(c, (unsigned)i)));
    }
    break;
  }
  default: break;
  }
  return CXChildVisit_Recurse;
}

void scan_exec_modified_vars(CXCursor s, cursor_vec *out) {
  mod_acc a = {out};
  mod_visit(s, clang_getNullCursor(), &a);
  clang_visitChildren(s, mod_visit, &a);
}

static bool in_list(CXCursor d, CXCursor *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (clang_equalCursors(v[i], d)) return true;
  return false;
}

/* ---- loops ---- */
typedef struct {
  CXCursor var;      /* the counter */
  CXCursor step_stmt; /* while loops: the statement in the body that steps it */
  int dir;           /* +1 up, -1 down */
  bool geometric;    /* *=, <<=, /=, >>= */
  int shift;         /* geometric by a power of two: the bits per step, else -1 */
  const sx *step;    /* additive steps: the amount, at the counter's width */
  const sx *assumed; /* what the model assumes of a signed step (it is positive), or NULL */
} ivinfo;

static val *binding(interp *I, CXCursor d, unsigned *frame) {
  unsigned f = I->fr ? I->fr->id : 0;
  val *b = scan_env_get(I->env, f, d);
  if (!b) {
    b = scan_env_get(I->env, 0, d);
    f = 0;
  }
  if (frame) *frame = f;
  return b;
}

typedef struct {
  cursor_vec *mods;
  bool invariant;
} inv_acc;

static enum CXChildVisitResult inv_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  inv_acc *a = data;
  if (kind(c) == CXCursor_DeclRefExpr && in_list(clang_getCursorReferenced(c), a->mods->v, a->mods->n)) {
    a->invariant = false;
    return CXChildVisit_Break;
  }
  /* calls and memory reads may differ from one iteration to the next */
  if (kind(c) == CXCursor_CallExpr || kind(c) == CXCursor_ArraySubscriptExpr ||
      (kind(c) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref)) {
    a->invariant = false;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static bool loop_invariant(CXCursor e, cursor_vec *mods) {
  inv_acc a = {mods, true};
  inv_visit(e, clang_getNullCursor(), &a);
  if (a.invariant) clang_visitChildren(e, inv_visit, &a);
  return a.invariant;
}

/* is s a step of a counter (i++, i += c, i = i + c, i <<= 1, ...)? */
static bool as_step(interp *I, CXCursor s, cursor_vec *mods, ivinfo *iv) {
  s = scan_front_cursor_strip(s);
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  memset(iv, 0, sizeof *iv);
  iv->shift = -1;
  if (kind(s) == CXCursor_UnaryOperator && n == 1) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(s);
    if (op == CXUnaryOperator_Invalid || op > CXUnaryOperator_PreDec) return false;
    iv->var = base_var(k[0]);
    if (null(iv->var) || scan_front_ctype(clang_getCursorType(iv->var)).k != CT_INT) return false;
    iv->dir = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
    iv->step = scan_expr_const(scan_front_ctype(clang_getCursorType(iv->var)).w, 1);
    return true;
  }
  if (n != 2) return false;
  CXCursor lhs = k[0], rhs = k[1];
  iv->var = base_var(lhs);
  if (null(iv->var) || kind(scan_front_cursor_strip(lhs)) != CXCursor_DeclRefExpr) return false;
  ctype vt = scan_front_ctype(clang_getCursorType(iv->var));
  if (vt.k != CT_INT) return false;
  int op = kind(s) == CXCursor_CompoundAssignOperator || kind(s) == CXCursor_BinaryOperator
               ? (int)clang_getCursorBinaryOperatorKind(s) : -1;
  if (op == CXBinaryOperator_Assign) {
    /* i = i + e, i = e + i, i = i - e, and the same for *, <<, /, >> */
    CXCursor r = scan_front_cursor_strip(rhs);
    CXCursor *rk;
    if (kind(r) != CXCursor_BinaryOperator || scan_front_cursor_children(r, &rk) != 2) return false;
    int rop = (int)clang_getCursorBinaryOperatorKind(r);
    bool commutes = rop == CXBinaryOperator_Add || rop == CXBinaryOperator_Mul;
    switch (rop) {
    case CXBinaryOperator_Add: op = CXBinaryOperator_AddAssign; break;
    case CXBinaryOperator_Sub: op = CXBinaryOperator_SubAssign; break;
    case CXBinaryOperator_Mul: op = CXBinaryOperator_MulAssign; break;
    case CXBinaryOperator_Div: op = CXBinaryOperator_DivAssign; break;
    case CXBinaryOperator_Shl: op = CXBinaryOperator_ShlAssign; break;
    case CXBinaryOperator_Shr: op = CXBinaryOperator_ShrAssign; break;
    default: return false;
    }
    if (clang_equalCursors(base_var(rk[0]), iv->var)) rhs = rk[1];
    else if (commutes && clang_equalCursors(base_var(rk[1]), iv->var)) rhs = rk[0];
    else return false;
  }
  if (!loop_invariant(rhs, mods)) return false;
  val sv = scan_eval_expr(I, rhs);
  if (sv.k != V_INT) return false;
  ctype st = scan_front_ctype(clang_getCursorType(rhs));
  const sx *step = sv.e->w == vt.w ? sv.e : sv.e->w > vt.w ? scan_expr_ext(SX_TRUNC, sv.e, vt.w) : scan_expr_ext(st.sgn ? SX_SEXT : SX_ZEXT, sv.e, vt.w);
  uint64_t c;
  bool cst = scan_expr_is_const(step, &c);
  int64_t sc = cst ? scan_expr_sext_val(c, vt.w) : 0;
  switch (op) {
  case CXBinaryOperator_AddAssign:
  case CXBinaryOperator_SubAssign:
    iv->dir = op == CXBinaryOperator_AddAssign ? 1 : -1;
    if (cst && st.sgn && sc < 0) {
      iv->dir = -iv->dir;
      step = scan_expr_const(vt.w, (uint64_t)-sc);
    } else if (!cst && st.sgn) {
      /* a signed step of unknown sign (int stride = blockDim.x * gridDim.x):
         the loop is taken to move the way its operator says */
      iv->assumed = scan_expr_bin(SX_SLT, scan_expr_const(vt.w, 0), step);
    } else if (cst && !sc) {
      return false;
    }
    iv->step = step;
    return true;
  case CXBinaryOperator_MulAssign:
  case CXBinaryOperator_ShlAssign:
  case CXBinaryOperator_DivAssign:
  case CXBinaryOperator_ShrAssign: {
    bool shifts = op == CXBinaryOperator_ShlAssign || op == CXBinaryOperator_ShrAssign;
    if (!cst || sc < 1 || (!shifts && sc < 2) || sc >= 64) return false;
    iv->dir = op == CXBinaryOperator_MulAssign || op == CXBinaryOperator_ShlAssign ? 1 : -1;
    iv->geometric = true;
    iv->shift = shifts ? (int)sc : !(sc & (sc - 1)) ? __builtin_ctzll((unsigned long long)sc) : -1;
    return true;
  }
  default: return false;
  }
}

/* the condition mentions the variable directly */
static bool mentions(CXCursor e, CXCursor d) {
  cursor_vec one = {0};
  VEC_PUSH(one, d);
  return !loop_invariant(e, &one);
}

/* a while loop's counter: stepped by one top-level statement of the body and
   changed nowhere else in it */
static bool while_step(interp *I, CXCursor cond, CXCursor body, cursor_vec *mods, ivinfo *iv) {
  CXCursor *k, one[1] = {body};
  int n = kind(body) == CXCursor_CompoundStmt ? scan_front_cursor_children(body, &k) : (k = one, 1);
  for (int i = n - 1; i >= 0; i--) {
    ivinfo t;
    if (!as_step(I, k[i], mods, &t) || !mentions(cond, t.var)) continue;
    cursor_vec other = {0};
    for (int j = 0; j < n; j++)
      if (j != i) scan_exec_modified_vars(k[j], &other);
    if (in_list(t.var, other.v, other.n)) return false;
    *iv = t;
    iv->step_stmt = k[i];
    return true;
  }
  return false;
}

static bool find_iv(interp *I, bool is_for, CXCursor cond, CXCursor inc, CXCursor body, cursor_vec *mods, ivinfo *iv) {
  if (null(cond)) return false;
  if (is_for) {
    if (null(inc) || !as_step(I, inc, mods, iv) || !mentions(cond, iv->var)) return false;
    cursor_vec inbody = {0};
    scan_exec_modified_vars(body, &inbody);
    return !in_list(iv->var, inbody.v, inbody.n);
  }
  return while_step(I, cond, body, mods, iv);
}

typedef struct {
  interp *I;
  cursor_vec *mods;
  scan_loc loc;
  const char *fmt;
} havoc_arg;

/* the type of field name of record type t (CXType_Invalid when none) */
typedef struct {
  const char *name;
  CXType t;
} field_find;
static enum CXVisitorResult field_type_visit(CXCursor c, CXClientData d) {
  field_find *f = d;
  if (scan_front_cursor_name(c) != f->name) return CXVisit_Continue;
  f->t = clang_getCursorType(c);
  return CXVisit_Break;
}
static CXType field_type(CXType t, const char *name) {
  field_find f = {name, {CXType_Invalid, {0, 0}}};
  if (t.kind != CXType_Invalid) clang_Type_visitFields(clang_getCanonicalType(t), field_type_visit, &f);
  return f.t;
}

static val havoc_val(val v, CXType t, scan_loc loc, const char *why) {
  /* an array member's address (scan_eval.c's member_array) is the
     variable's, which no loop moves */
  if (v.k == V_PTR && v.region >= 0 && scan_model_reg(v.region)->kind == RG_MEMBER && scan_front_ctype(t).k == CT_ARRAY)
    return v;
  switch (v.k) {
  case V_INT: return scan_eval_val_int(scan_expr_opaque(v.e->w, scan_front_ctype(t).sgn, loc, why));
  case V_PTR:
    if (v.region < 0) return scan_eval_val_unknown_ptr(why);
    v.e = scan_expr_opaque(64, true, loc, why);
    return v;
  case V_REC: {
    val r = v;
    for (int i = 0; i < v.r->n; i++)
      r = scan_eval_rec_set(r, v.r->names[i], havoc_val(v.r->vals[i], field_type(t, v.r->names[i]), loc, why));
    return r;
  }
  case V_NONE: return scan_eval_val_opaque(t, loc, why);
  default: return v;
  }
}

static void havoc(interp *I, cursor_vec *mods, CXCursor except, scan_loc loc, const char *fmt) {
  for (size_t i = 0; i < mods->n; i++) {
    CXCursor d = mods->v[i];
    if (!null(except) && clang_equalCursors(d, except)) continue;
    CXType t = clang_getCursorType(d);
    if (scan_front_ctype(t).k == CT_ARRAY || scan_front_ctype(t).k == CT_REF) continue;
    unsigned f;
    val *b = binding(I, d, &f);
    if (!b) continue;
    scan_env_put(I->env, f, d, havoc_val(*b, t, loc, scan_util_fmt(fmt, scan_front_cursor_name(d), loc.line)));
  }
}

/* the facts that hold for the counter L at the start of an iteration */
/* the counter of a loop that shifts by s bits a step is start shifted by s
   times a (hidden) number of steps: 512, 256, 128, ... exactly */
static const sx *shift_fact(const ivinfo *iv, const sx *L, const sx *start, bool sgn) {
  unsigned w = L->w;
  int k = scan_expr_var_new(VK_LOOP, scan_util_fmt("steps of %s", scan_front_cursor_name(iv->var)), w, false, scan_front_cursor_loc(iv->var));
  scan_expr_var_get(k)->hidden = true;
  const sx *K = scan_expr_var(k), *by = scan_expr_bin(SX_MUL, K, scan_expr_const(w, (uint64_t)iv->shift));
  const sx *f = scan_expr_bin(SX_ULT, K, scan_expr_const(w, w));
  sx_op op = iv->dir > 0 ? SX_SHL : sgn ? SX_ASHR : SX_LSHR;
  return scan_expr_and(f, scan_expr_bin(SX_EQ, L, scan_expr_bin(op, start, by)));
}

static const sx *iv_facts(const ivinfo *iv, const sx *L, const sx *start) {
  bool sgn = scan_front_ctype(clang_getCursorType(iv->var)).sgn;
  sx_op le = sgn ? SX_SLE : SX_ULE;
  unsigned w = L->w;
  if (!iv->geometric) {
    const sx *f = iv->dir > 0 ? scan_expr_bin(le, start, L) : scan_expr_bin(le, L, start);
    /* the counter moves in whole steps from its start */
    uint64_t c;
    if (!scan_expr_is_const(iv->step, &c) || c > 1) {
      const sx *diff = iv->dir > 0 ? scan_expr_bin(SX_SUB, L, start) : scan_expr_bin(SX_SUB, start, L);
      f = scan_expr_and(f, scan_expr_bin(SX_EQ, scan_expr_bin(SX_UREM, diff, iv->step), scan_expr_const(w, 0)));
    }
    return f;
  }
  const sx *zero = scan_expr_const(w, 0);
  /* 1, 2, 4, ... never below a non-negative start; 512, 256, ... never above
     it nor below zero (the bounds are what intervals use) */
  const sx *f = iv->dir > 0 ? scan_expr_bin(le, start, L)
                : sgn         ? scan_expr_and(scan_expr_bin(SX_SLE, L, start), scan_expr_bin(SX_SLE, zero, L))
                              : scan_expr_bin(SX_ULE, L, start);
  if (iv->shift >= 0) f = scan_expr_and(f, shift_fact(iv, L, start, sgn));
  return sgn ? scan_expr_or(scan_expr_bin(SX_SLT, start, zero), f) : f;
}

/* the counter as a fresh variable bound in the loop's frame: the facts every
   value it takes satisfies (from its start, in whole steps); with exit_why,
   the value it leaves the loop with, an opaque value for that reason; its
   variable in *id where id is given */
static const sx *counter(const ivinfo *iv, const sx *start, unsigned frame, interp *I, int *id, const char *exit_why) {
  ctype t = scan_front_ctype(clang_getCursorType(iv->var));
  int v = scan_expr_var_new(exit_why ? VK_OPAQUE : VK_LOOP, exit_why ? "?" : scan_front_cursor_name(iv->var), t.w, t.sgn, scan_front_cursor_loc(iv->var));
  if (exit_why) scan_expr_var_get(v)->why = exit_why;
  if (id) *id = v;
  const sx *L = scan_expr_var(v);
  scan_env_put(I->env, frame, iv->var, scan_eval_val_int(L));
  const sx *f = iv_facts(iv, L, start);
  return iv->assumed ? scan_expr_and(f, iv->assumed) : f;
}

/* e mentions variable v */
static bool mentions_var(const sx *e, uint64_t v) {
  int_vec vs = {0};
  unsigned char *seen = scan_util_alloc(scan_expr_var_count() + 1);
  scan_expr_vars(e, &vs, seen);
  return v < scan_expr_var_count() && seen[v];
}

static void push_jump(interp *I, jump *j, bool is_switch) {
  memset(j, 0, sizeof *j);
  j->brk = j->cont = scan_expr_false();
  j->is_switch = is_switch;
  j->up = I->jmp;
  I->jmp = j;
}

/* ---- ping-pong buffers ---- */
/* to = from between two variables: 'to = from;' or 'T *to = from;' */
static bool copy_of(CXCursor s, CXCursor *to, CXCursor *from) {
  CXCursor *k;
  s = scan_front_cursor_strip(s);
  if (kind(s) == CXCursor_DeclStmt) {
    if (scan_front_cursor_children(s, &k) != 1 || kind(k[0]) != CXCursor_VarDecl) return false;
    CXCursor init = clang_Cursor_getVarDeclInitializer(k[0]);
    *to = k[0];
    *from = null(init) ? init : base_var(init);
    return !null(*from) && kind(scan_front_cursor_strip(init)) == CXCursor_DeclRefExpr;
  }
  if (kind(s) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(s) != CXBinaryOperator_Assign ||
      scan_front_cursor_children(s, &k) != 2 || kind(scan_front_cursor_strip(k[0])) != CXCursor_DeclRefExpr || kind(scan_front_cursor_strip(k[1])) != CXCursor_DeclRefExpr)
    return false;
  *to = base_var(k[0]);
  *from = base_var(k[1]);
  return !null(*to) && !null(*from);
}

static bool is_ptr_var(CXCursor d) { return !null(d) && scan_front_ctype(clang_getCursorType(d)).k == CT_PTR; }

/* two pointer variables that a loop's body swaps once (std::swap(a, b), or
   t = a; a = b; b = t;) and changes nowhere else: buffers used in turn, as
   stencils and iterative solvers do. Their values in an iteration are the
   two they had at entry, in one order or the other. */
static bool find_swap(CXCursor body, CXCursor *a, CXCursor *b) {
  CXCursor *k, one[1] = {body};
  int n = kind(body) == CXCursor_CompoundStmt ? scan_front_cursor_children(body, &k) : (k = one, 1);
  for (int i = 0; i < n; i++) {
    CXCursor c = scan_front_cursor_strip(k[i]), t, x, y, x2, y2, t2;
    int len;
    if (kind(c) == CXCursor_CallExpr && !strcmp(scan_front_cursor_name(c), "swap") && clang_Cursor_getNumArguments(c) == 2) {
      x = base_var(clang_Cursor_getArgument(c, 0));
      y = base_var(clang_Cursor_getArgument(c, 1));
      len = 1;
    } else if (i + 2 < n && copy_of(k[i], &t, &x) && copy_of(k[i + 1], &x2, &y) && copy_of(k[i + 2], &y2, &t2) &&
               clang_equalCursors(x, x2) && clang_equalCursors(y, y2) && clang_equalCursors(t, t2)) {
      len = 3;
    } else {
      continue;
    }
    if (!is_ptr_var(x) || !is_ptr_var(y) || clang_equalCursors(x, y)) return false;
    cursor_vec other = {0};
    for (int j = 0; j < n; j++)
      if (j < i || j >= i + len) scan_exec_modified_vars(k[j], &other);
    if (in_list(x, other.v, other.n) || in_list(y, other.v, other.n)) return false;
    *a = x;
    *b = y;
    return true;
  }
  return false;
}

/* ---- relations a loop keeps (scan_invariant.c) ---- */
#define INV_VARS 6   /* integers tracked per loop */
#define INV_ROUNDS 6 /* trials of the body before giving up */

/* may the body run as a trial, its accesses then taken back: nothing in it
   changes the model otherwise (an allocation, a free, a launch, a host call
   other than arithmetic), leaves by goto, or continues (the back edge is then
   the end of the body, which the trial sees) */
static const char *const trial_host_calls[] = {"min", "max", "abs", "labs", "llabs", "fabs", "fabsf", "sqrt", "sqrtf",
                                               "floor", "floorf", "ceil", "ceilf", "printf", "fprintf", "puts", NULL};
static const char *const trial_device_never[] = {"malloc", "free", "cudaMalloc", "cudaFree", "memcpy", "memset", NULL};

static bool named_in(const char *n, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(n, list[i])) return true;
  return false;
}

static enum CXChildVisitResult trial_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  bool *ok = data;
  switch (kind(c)) {
  case CXCursor_ContinueStmt:
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
  case CXCursor_CXXNewExpr:
  case CXCursor_CXXDeleteExpr:
  case CXCursor_LambdaExpr:
    *ok = false;
    return CXChildVisit_Break;
  case CXCursor_CallExpr: {
    CXCursor config;
    const char *n = scan_front_cursor_name(c);
    if (scan_device_is_launch(c, &config) || !n || named_in(n, trial_device_never)) *ok = false;
    break;
  }
  default:
    break;
  }
  return *ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static enum CXChildVisitResult trial_host_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  bool *ok = data;
  if (kind(c) == CXCursor_CallExpr) {
    const char *n = scan_front_cursor_name(c);
    if (!n || !named_in(n, trial_host_calls)) *ok = false;
  }
  return *ok ? CXChildVisit_Recurse : CXChildVisit_Break;
}

static bool trial_safe(interp *I, CXCursor body) {
  bool ok = true;
  clang_visitChildren(body, trial_visit, &ok);
  if (ok && !I->device) clang_visitChildren(body, trial_host_visit, &ok);
  return ok;
}

typedef struct {
  scan_inv *inv;
  CXCursor d[INV_VARS]; /* the variables, in the loop's frame */
  scan_inv_var v[INV_VARS];
  int n;
} loop_inv;

/* the integers the loop changes (its counter too, when it moves by whole
   steps), with their entry values from pre and their opaque values in I->env */
static int inv_vars(interp *I, env *pre, const cursor_vec *mods, const cursor_vec *inc_mods, const ivinfo *iv,
                    bool has_iv, loop_inv *L) {
  L->n = 0;
  for (size_t i = 0; i < mods->n && L->n < INV_VARS; i++) {
    CXCursor d = mods->v[i];
    bool is_ctr = has_iv && clang_equalCursors(d, iv->var);
    if (is_ctr ? iv->geometric : in_list(d, inc_mods->v, inc_mods->n)) continue;
    ctype t = scan_front_ctype(clang_getCursorType(d));
    unsigned f;
    val *now = binding(I, d, &f);
    val *then = scan_env_get(pre, f, d);
    if (t.k != CT_INT || !now || !then || now->k != V_INT || then->k != V_INT || now->e->op != SX_VAR ||
        now->e->w != then->e->w)
      continue;
    L->d[L->n] = d;
    L->v[L->n] = (scan_inv_var){then->e, now->e, t.sgn, is_ctr};
    L->n++;
  }
  return L->n;
}

/* the tracked variables' values in I->env (NULL: not an integer there); a
   for loop's counter steps after the body */
static void inv_values(interp *I, const loop_inv *L, const ivinfo *iv, bool is_for, const sx **out) {
  for (int i = 0; i < L->n; i++) {
    if (L->v[i].counter && is_for) {
      out[i] = scan_expr_bin(iv->dir > 0 ? SX_ADD : SX_SUB, L->v[i].x, iv->step);
      continue;
    }
    val *b = binding(I, L->d[i], NULL);
    out[i] = b && b->k == V_INT && b->e->w == L->v[i].x->w ? b->e : NULL;
  }
}

/* does an access the body made (those from the na-th on) have an address
   that depends on a tracked variable other than the counter? A loop whose
   changed integers index nothing (tallies, sums) is not worth the tests:
   HeCBench's deredundancy tested 259 candidates for none */
static bool addresses_use(const loop_inv *L, size_t na) {
  for (size_t a = na; a < scan_model_state.accesses.n; a++)
    for (int i = 0; i < L->n; i++)
      if (!L->v[i].counter && mentions_var(scan_model_state.accesses.v[a].off, L->v[i].x->k)) return true;
  return false;
}

/* Houdini over the body: it runs as a trial (accesses and uses taken back)
   under every candidate left, until the candidates it keeps are all of them.
   I->reach is the top of an iteration (the condition holds); I->env has the
   opaque values. On return the invariants are facts of those values, and L
   keeps them for the values after the loop. */
static void infer_at(interp *I, env *pre, const sx *entry, CXCursor body, const cursor_vec *mods, CXCursor inc,
                     const ivinfo *iv, bool has_iv, bool is_for, loop_inv *L) {
  cursor_vec inc_mods = {0};
  if (!null(inc)) scan_exec_modified_vars(inc, &inc_mods);
  if (!inv_vars(I, pre, mods, &inc_mods, iv, has_iv, L)) return;
  bool any = false;
  for (int i = 0; i < L->n; i++) any |= !L->v[i].counter;
  if (!any) return;
  scan_inv *inv = scan_invariant_new(L->v, L->n, entry);
  const sx *next[INV_VARS];
  bool stable = false;
  for (int round = 0; round < INV_ROUNDS && !stable && scan_invariant_count(inv); round++) {
    env *saved = I->env;
    const sx *saved_reach = I->reach;
    size_t na = scan_model_state.accesses.n, nu = scan_model_state.uses.n, np = scan_model_state.parts.n;
    size_t nr = I->fr ? I->fr->rets.n : 0; /* a return in the body: the real run's counts */
    I->env = scan_env_copy(saved);
    I->reach = scan_expr_and(I->reach, scan_invariant_assumed(inv));
    I->trial = true;
    jump j;
    push_jump(I, &j, false);
    scan_eval_forget_stores(I);
    scan_exec_stmt(I, body);
    I->jmp = j.up;
    bool used = round > 0 || addresses_use(L, na);
    inv_values(I, L, iv, is_for, next);
    const sx *back = I->reach;
    I->trial = false;
    I->env = saved;
    I->reach = saved_reach;
    scan_eval_forget_stores(I);
    scan_model_state.accesses.n = na;
    scan_model_state.uses.n = nu;
    scan_model_state.parts.n = np;
    if (I->fr) I->fr->rets.n = nr;
    if (!used) return;
    stable = scan_invariant_step(inv, back, next);
  }
  if (!stable || !scan_invariant_count(inv)) return;
  const sx *x[INV_VARS];
  for (int i = 0; i < L->n; i++) x[i] = L->v[i].x;
  scan_invariant_attach(inv, x);
  L->inv = inv;
}

/* loops (by where they are) whose inference found nothing, and how often:
   a helper's loop runs once per call site (HeCBench's segsort calls its
   binary search from hundreds), and one that keeps nothing at its first
   three sites mostly keeps nothing at the rest; one that kept something
   once is always tried */
#define INV_GIVE_UP 3
#define INV_FRUITFUL (~0u)
static VEC(struct loop_misses { scan_loc at; unsigned misses; }) fruitless;

/* the entry of the loop at 'at' (made with none) */
static size_t misses_of(scan_loc at) {
  for (size_t i = 0; i < fruitless.n; i++)
    if (!scan_util_loc_cmp(fruitless.v[i].at, at)) return i;
  struct loop_misses m = {at, 0};
  VEC_PUSH(fruitless, m);
  return fruitless.n - 1;
}

void scan_exec_reset(void) { memset(&fruitless, 0, sizeof fruitless); }

static void infer_invariants(interp *I, env *pre, const sx *entry, CXCursor body, const cursor_vec *mods,
                             CXCursor inc, const ivinfo *iv, bool has_iv, bool is_for, loop_inv *L) {
  L->inv = NULL;
  if (I->trial || !trial_safe(I, body)) return;
  size_t at = misses_of(scan_front_cursor_loc(body));
  unsigned misses = fruitless.v[at].misses;
  if (misses >= INV_GIVE_UP && misses != INV_FRUITFUL) return;
  infer_at(I, pre, entry, body, mods, inc, iv, has_iv, is_for, L);
  if (L->inv) fruitless.v[at].misses = INV_FRUITFUL;
  else if (misses != INV_FRUITFUL) fruitless.v[at].misses = misses + 1;
}

/* the path is after code with an error at where (scan_exec_stmt) */
static void taint(interp *I, const char *where) {
  if (!I->taint)
    I->taint = scan_util_fmt("code with an error at %s came before it, and what that code does is not known", where);
}

/* the function being run is a template's (or an instance of one), where
   dependent types are no sign of an error */
static bool in_template(const interp *I) {
  return kind(I->fr->fn) == CXCursor_FunctionTemplate || !null(clang_getSpecializedCursorTemplate(I->fr->fn));
}

/* a loop with a statement with errors anywhere in it: its next iteration
   comes after that statement, so the whole loop is tainted from the start */
static void taint_loop(interp *I, CXCursor loop) {
  const char *where = I->fr && I->fr->in_part && !I->taint ? scan_front_error_in(loop, in_template(I)) : NULL;
  if (where) taint(I, where);
}

static void exec_loop(interp *I, CXCursor loop, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body, bool is_for,
                      bool is_do) {
  scan_loc loc = scan_front_cursor_loc(loop);
  taint_loop(I, loop);
  if (!null(init)) scan_exec_stmt(I, init);
  if (scan_expr_is_false(I->reach)) return;
  cursor_vec mods = {0};
  scan_exec_modified_vars(body, &mods);
  if (!null(cond)) scan_exec_modified_vars(cond, &mods);
  if (!null(inc)) scan_exec_modified_vars(inc, &mods);
  const sx *entry = I->reach;
  env *pre = I->env;
  I->env = scan_env_copy(pre);
  ivinfo iv;
  bool has_iv = !is_do && find_iv(I, is_for, cond, inc, body, &mods, &iv);
  const sx *facts = scan_expr_true(), *start = NULL;
  unsigned ivf = 0;
  if (has_iv) {
    val *b = binding(I, iv.var, &ivf);
    if (!b || b->k != V_INT) {
      has_iv = false;
    } else {
      start = b->e;
      facts = counter(&iv, start, ivf, I, NULL, NULL);
    }
  }
  /* buffers the body swaps keep their values: an iteration runs with them
     as they came, and again swapped */
  CXCursor pa, pb;
  unsigned fa, fb;
  val *ba, *bb;
  bool ping = !is_do && find_swap(body, &pa, &pb) && (ba = binding(I, pa, &fa)) && (bb = binding(I, pb, &fb)) &&
              ba->k == V_PTR && bb->k == V_PTR && ba->region >= 0 && bb->region >= 0;
  val va = ping ? *ba : scan_eval_val_none(), vb = ping ? *bb : scan_eval_val_none();
  cursor_vec kept = {0};
  for (size_t i = 0; i < mods.n; i++)
    if (!ping || (!clang_equalCursors(mods.v[i], pa) && !clang_equalCursors(mods.v[i], pb))) VEC_PUSH(kept, mods.v[i]);
  havoc(I, &kept, has_iv ? iv.var : clang_getNullCursor(), loc, "'%s' is changed by the loop at line %u");
  I->reach = scan_expr_and(entry, facts);
  const sx *c = scan_expr_true();
  if (!null(cond) && !is_do) {
    c = scan_eval_val_cond(scan_eval_expr(I, cond), loc);
    val *b = has_iv ? binding(I, iv.var, NULL) : NULL;
    if (b && b->k == V_INT && b->e->op == SX_VAR && !scan_expr_is_true(c) && !mentions_var(c, b->e->k)) {
      /* a condition that does not bound the counter (i < n with n a double:
         a comparison of floating-point values, which the model does not
         follow): the counter's values in the body are an opaque value, so
         that a question that needs its bound is an unknown, never a finding */
      facts = counter(&iv, start, ivf, I, NULL,
                      scan_util_fmt("the condition of the loop at line %u does not bound '%s' as the model follows it",
                                    loc.line, scan_front_cursor_name(iv.var)));
      I->reach = scan_expr_and(entry, facts);
    }
    I->reach = scan_expr_and(I->reach, c);
  }
  loop_inv li = {0};
  if (!ping && !is_do) infer_invariants(I, pre, entry, body, &mods, inc, &iv, has_iv, is_for, &li);
  env *top = ping ? scan_env_copy(I->env) : NULL;
  const sx *top_reach = I->reach;
  jump j;
  push_jump(I, &j, false);
  /* an earlier iteration may have stored anything in a local array */
  scan_eval_forget_stores(I);
  scan_exec_stmt(I, body);
  if (ping) {
    I->env = top;
    scan_env_put(I->env, fa, pa, vb);
    scan_env_put(I->env, fb, pb, va);
    I->reach = top_reach;
    scan_eval_forget_stores(I);
    scan_exec_stmt(I, body);
  }
  scan_eval_forget_stores(I);
  if (is_do && !null(cond)) {
    I->reach = scan_expr_or(I->reach, j.cont);
    scan_eval_expr(I, cond);
  }
  I->jmp = j.up;
  /* after the loop: what it changed has some value the model does not know,
     but for a counter of a loop left only through its condition: a value the
     counter takes (its facts) at which the condition fails
     (while ((n & 31) != 0) n++; leaves n a multiple of 32, at least its start) */
  I->env = scan_env_copy(pre);
  bool forever = null(cond) || scan_expr_is_true(c);
  bool exit_value = has_iv && !forever && scan_expr_is_false(j.brk);
  havoc(I, &mods, exit_value ? iv.var : clang_getNullCursor(), loc, "'%s' has the value the loop at line %u leaves");
  I->reach = forever && !is_do ? scan_expr_and(entry, j.brk) : entry;
  if (exit_value) {
    /* The facts hold of the exit value but do not make it: it is the first
       value at which the condition fails, which they do not say. So it is an
       opaque value bounded by them: they prove accesses safe, and a question
       they leave open is an unknown, never a finding. The condition once
       more, at that value, for its value only: its accesses were recorded in
       the loop. Facts of the variable, so that a question takes them only
       where it depends on the counter */
    int id;
    const sx *at_exit = counter(&iv, start, ivf, I, &id,
                                scan_util_fmt("'%s' has the value the loop at line %u leaves", scan_front_cursor_name(iv.var), loc.line));
    size_t na = scan_model_state.accesses.n, nu = scan_model_state.uses.n;
    const sx *fails = scan_expr_not(scan_eval_val_cond(scan_eval_expr(I, cond), loc));
    scan_model_state.accesses.n = na;
    scan_model_state.uses.n = nu;
    scan_expr_var_fact(id, scan_expr_and(at_exit, fails));
  }
  /* a loop left only through its condition leaves at the top of an
     iteration, where its invariants hold */
  if (li.inv && !forever && scan_expr_is_false(j.brk)) {
    const sx *after[INV_VARS];
    for (int i = 0; i < li.n; i++) {
      val *b = binding(I, li.d[i], NULL);
      after[i] = b && b->k == V_INT && b->e->w == li.v[i].x->w ? b->e : NULL;
    }
    scan_invariant_attach(li.inv, after);
  }
}

static void exec_range_for(interp *I, CXCursor s) {
  taint_loop(I, s);
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  scan_loc loc = scan_front_cursor_loc(s);
  cursor_vec mods = {0};
  scan_exec_modified_vars(s, &mods);
  const sx *entry = I->reach;
  env *pre = I->env;
  I->env = scan_env_copy(pre);
  havoc(I, &mods, clang_getNullCursor(), loc, "'%s' is changed by the loop at line %u");
  jump j;
  push_jump(I, &j, false);
  scan_eval_forget_stores(I);
  for (int i = 0; i < n; i++) {
    if (kind(k[i]) == CXCursor_VarDecl) {
      scan_env_put(I->env, I->fr->id, k[i],
              scan_eval_val_opaque(clang_getCursorType(k[i]), loc, scan_util_fmt("'%s' is an element of a range", scan_front_cursor_name(k[i]))));
    } else if (i == n - 1) {
      scan_exec_stmt(I, k[i]);
    }
  }
  I->jmp = j.up;
  scan_eval_forget_stores(I);
  I->env = scan_env_copy(pre);
  havoc(I, &mods, clang_getNullCursor(), loc, "'%s' has the value the loop at line %u leaves");
  I->reach = entry;
}

/* ---- if and switch ---- */
static void exec_if(interp *I, CXCursor s) {
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  int i = 0;
  /* C++17 init statement or condition variable */
  while (i < n - 2 && !clang_isExpression(kind(k[i]))) {
    if (kind(k[i]) == CXCursor_VarDecl) scan_exec_declare_var(I, k[i]);
    else scan_exec_stmt(I, k[i]);
    i++;
  }
  if (i >= n - 1) return;
  CXCursor cond = k[i], then_s = k[i + 1];
  bool has_else = i + 2 < n;
  scan_loc loc = scan_front_cursor_loc(s);
  const sx *c = scan_eval_val_cond(scan_eval_expr(I, cond), loc);
  const sx *r0 = I->reach;
  env *e0 = I->env;
  I->env = scan_env_copy(e0);
  I->reach = scan_expr_and(r0, c);
  if (!scan_expr_is_false(I->reach)) scan_exec_stmt(I, then_s);
  env *et = I->env;
  const sx *rt = I->reach;
  I->env = has_else ? scan_env_copy(e0) : e0;
  I->reach = scan_expr_and(r0, scan_expr_not(c));
  if (has_else && !scan_expr_is_false(I->reach)) scan_exec_stmt(I, k[i + 2]);
  env *ee = I->env;
  const sx *re = I->reach;
  if (scan_expr_is_false(rt)) I->env = ee;
  else if (scan_expr_is_false(re)) I->env = et;
  else I->env = scan_env_merge(c, et, ee, loc);
  I->reach = scan_expr_or(rt, re);
}

typedef struct {
  interp *I;
  val x;
  CXType xt;
  const sx *any; /* some case label matches */
} sw_ctx;

static const sx *case_match(sw_ctx *w, CXCursor c) {
  CXCursor *k;
  if (scan_front_cursor_children(c, &k) < 1 || w->x.k != V_INT) return scan_expr_opaque(1, false, scan_front_cursor_loc(c), "the switch's value is not followed");
  CXEvalResult r = clang_Cursor_Evaluate(k[0]);
  if (!r) return scan_expr_opaque(1, false, scan_front_cursor_loc(c), "the case label is not a constant the model reads");
  uint64_t v = clang_EvalResult_isUnsignedInt(r) ? clang_EvalResult_getAsUnsigned(r) : (uint64_t)clang_EvalResult_getAsLongLong(r);
  clang_EvalResult_dispose(r);
  return scan_expr_bin(SX_EQ, w->x.e, scan_expr_const(w->x.e->w, v));
}

static void case_values(sw_ctx *w, CXCursor s) {
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  if (kind(s) == CXCursor_CaseStmt) {
    w->any = scan_expr_or(w->any, case_match(w, s));
    if (n == 2) case_values(w, k[1]);
  } else if (kind(s) == CXCursor_DefaultStmt && n == 1) {
    case_values(w, k[0]);
  }
}

static void switch_item(sw_ctx *w, CXCursor s, const sx *R, env *entry) {
  interp *I = w->I;
  enum CXCursorKind sk = kind(s);
  if (sk != CXCursor_CaseStmt && sk != CXCursor_DefaultStmt) {
    scan_exec_stmt(I, s);
    return;
  }
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  const sx *m = sk == CXCursor_CaseStmt ? case_match(w, s) : scan_expr_not(w->any);
  const sx *enter = scan_expr_and(R, m);
  if (scan_expr_is_false(I->reach)) I->env = scan_env_copy(entry);
  else I->env = scan_env_merge(I->reach, I->env, scan_env_copy(entry), scan_front_cursor_loc(s));
  I->reach = scan_expr_or(I->reach, enter);
  if (n >= 1) switch_item(w, k[n - 1], R, entry);
}

/* after a switch or a once-through body: the paths that broke out join the
   fall-through path, with their bindings */
static void join_breaks(interp *I, jump *j, scan_loc at) {
  if (!j->brk_env) return;
  I->env = scan_expr_is_false(I->reach) ? j->brk_env : scan_env_merge(I->reach, I->env, j->brk_env, at);
  I->reach = scan_expr_or(I->reach, j->brk);
}

static void exec_switch(interp *I, CXCursor s) {
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  if (n < 2) return;
  CXCursor body = k[n - 1];
  for (int i = 0; i < n - 2; i++) {
    if (kind(k[i]) == CXCursor_VarDecl) scan_exec_declare_var(I, k[i]);
    else scan_exec_stmt(I, k[i]);
  }
  sw_ctx w = {I, scan_eval_expr(I, k[n - 2]), clang_getCursorType(k[n - 2]), scan_expr_false()};
  const sx *R = I->reach;
  env *entry = I->env;
  CXCursor *items;
  int ni = kind(body) == CXCursor_CompoundStmt ? scan_front_cursor_children(body, &items) : 0;
  bool has_default = false;
  for (int i = 0; i < ni; i++) {
    case_values(&w, items[i]);
    if (kind(items[i]) == CXCursor_DefaultStmt) has_default = true;
  }
  jump j;
  push_jump(I, &j, true);
  I->reach = scan_expr_false();
  I->env = scan_env_copy(entry);
  for (int i = 0; i < ni; i++) switch_item(&w, items[i], R, entry);
  I->jmp = j.up;
  if (!has_default) {
    const sx *none = scan_expr_and(R, scan_expr_not(w.any));
    I->env = scan_expr_is_false(I->reach) ? scan_env_copy(entry) : scan_env_merge(I->reach, I->env, scan_env_copy(entry), scan_front_cursor_loc(s));
    I->reach = scan_expr_or(I->reach, none);
  }
  join_breaks(I, &j, scan_front_cursor_loc(s));
}

/* do { ... } while (0): the body once, as error-checking macros wrap a
   statement; break and continue both leave it, with their bindings */
static void exec_once(interp *I, CXCursor s, CXCursor body) {
  jump j;
  push_jump(I, &j, false);
  j.once = true;
  scan_exec_stmt(I, body);
  I->jmp = j.up;
  join_breaks(I, &j, scan_front_cursor_loc(s));
}

static void exec_break(interp *I, bool is_break) {
  jump *j = I->jmp;
  if (!is_break)
    while (j && j->is_switch) j = j->up;
  if (!j) return;
  if (is_break || j->once) {
    j->brk = scan_expr_or(j->brk, I->reach);
    if (j->is_switch || j->once)
      j->brk_env = j->brk_env ? scan_env_merge(I->reach, I->env, j->brk_env, (scan_loc){0}) : scan_env_copy(I->env);
  } else {
    j->cont = scan_expr_or(j->cont, I->reach);
  }
  I->reach = scan_expr_false();
}

/* ---- declarations ---- */
void scan_exec_declare_var(interp *I, CXCursor d) {
  CXType t = clang_getCursorType(d);
  ctype c = scan_front_ctype(t);
  scan_loc loc = scan_front_cursor_loc(d);
  unsigned fr = I->fr ? I->fr->id : 0;
  bool shared = scan_front_cursor_has_attr(d, CXCursor_CUDASharedAttr);
  if (c.k == CT_ARRAY) {
    int r;
    if (I->device) {
      r = scan_device_array(I, d, t);
    } else {
      /* a variable-length array (float a[n]) has no constant size */
      uint64_t sz = scan_front_ctype_size(t);
      r = scan_model_region(RG_HOSTVAR, scan_front_cursor_name(d), loc,
                       sz ? scan_expr_const(64, sz) : scan_expr_opaque(64, false, loc, scan_util_fmt("the size of '%s' is not a constant", scan_front_cursor_name(d))),
                       sz ? scan_util_fmt("%llu", (unsigned long long)sz) : NULL);
      scan_model_reg(r)->automatic = clang_Cursor_getStorageClass(d) != CX_SC_Static;
    }
    scan_tables_values(d, scan_model_reg(r));
    scan_env_put(I->env, fr, d, scan_eval_val_ptr(r, scan_expr_const(64, 0)));
    return;
  }
  if (shared && I->device) {
    /* a __shared__ scalar: other threads write it */
    scan_env_put(I->env, fr, d, scan_eval_val_fresh(t, VK_LOADED, scan_front_cursor_name(d), loc, NULL));
    return;
  }
  CXCursor init = clang_Cursor_getVarDeclInitializer(d);
  val v;
  if (null(init)) {
    v = c.k == CT_REC ? scan_eval_val_opaque(t, loc, scan_util_fmt("'%s' is not initialised", scan_front_cursor_name(d))) : scan_eval_val_none();
  } else if (c.k == CT_REF) {
    lval lv = scan_eval_lval(I, init);
    v = lv.k == LV_NONE ? scan_eval_val_none() : scan_eval_val_addr(lv);
  } else {
    CXCursor s = scan_front_cursor_strip(init);
    CXCursor *sk;
    int sn;
    /* below explicit casts: float *h = (float *)malloc(n) names the buffer 'h' */
    while ((kind(s) == CXCursor_CStyleCastExpr || kind(s) == CXCursor_CXXStaticCastExpr ||
            kind(s) == CXCursor_CXXReinterpretCastExpr) && (sn = scan_front_cursor_children(s, &sk)) > 0)
      s = scan_front_cursor_strip(sk[sn - 1]);
    if (kind(s) == CXCursor_CallExpr || kind(s) == CXCursor_CXXNewExpr) {
      I->hint_call = s;
      I->hint_name = scan_front_cursor_name(d);
      I->hint_decl = d;
    }
    v = scan_eval_expr(I, init);
    I->hint_name = NULL;
    I->hint_decl = clang_getNullCursor();
    v = scan_eval_val_conv(v, clang_getCursorType(init), t, loc);
    if (I->device && c.k == CT_PTR) v = scan_device_partition(I, d, v);
  }
  scan_env_put(I->env, fr, d, v);
}

/* ---- calls ---- */
int scan_exec_call_args(interp *I, CXCursor call, CXCursor callee, val **out) {
  int n = clang_Cursor_getNumArguments(call);
  if (n < 0) n = 0;
  CXType ft = null(callee) ? clang_getCursorType(clang_getNullCursor()) : clang_getCursorType(callee);
  val *a = scan_util_alloc(((size_t)n + 1) * sizeof *a);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
    CXType pt = clang_getArgType(ft, (unsigned)i);
    if (pt.kind != CXType_Invalid && scan_front_ctype(pt).k == CT_REF) {
      lval lv = scan_eval_lval(I, arg);
      a[i] = lv.k == LV_NONE ? scan_eval_val_none() : scan_eval_val_addr(lv);
    } else {
      a[i] = scan_eval_expr(I, arg);
    }
  }
  *out = a;
  return n;
}

static enum CXChildVisitResult goto_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (kind(c) == CXCursor_GotoStmt || kind(c) == CXCursor_IndirectGotoStmt) {
    *(CXCursor *)d = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

static CXCursor body_of(CXCursor def) {
  CXCursor *k;
  int n = scan_front_cursor_children(def, &k);
  for (int i = n - 1; i >= 0; i--)
    if (kind(k[i]) == CXCursor_CompoundStmt) return k[i];
  return clang_getNullCursor();
}

/* a constructor's member initialisers (: rows_(rows), data_(nullptr)), into
   the object, in the order written */
static void member_inits(interp *I, CXCursor ctor) {
  if (I->fr->self.k != V_ADDR) return;
  CXCursor *k;
  int n = scan_front_cursor_children(ctor, &k);
  for (int i = 0; i + 1 < n; i++) {
    if (kind(k[i]) != CXCursor_MemberRef || !clang_isExpression(kind(k[i + 1]))) continue;
    CXCursor f = clang_getCursorReferenced(k[i]);
    lval lv = *I->fr->self.addr;
    if (kind(f) != CXCursor_FieldDecl || lv.k != LV_VAR || lv.npath >= LV_PATH) continue;
    lv.path[lv.npath++] = scan_front_cursor_name(f);
    lv.type = clang_getCursorType(f);
    val v = scan_eval_expr(I, k[i + 1]);
    scan_eval_lval_store(I, &lv, scan_eval_val_conv(v, clang_getCursorType(k[i + 1]), lv.type, scan_front_cursor_loc(k[i + 1])), k[i + 1]);
    i++;
  }
}

/* A parameter declared as an array of a constant size (float x[12], as
   generated code and fixed-size helpers write them) whose argument the model
   does not follow (a function nothing analysed calls, an argument it cannot
   compute): it points to the start of that many elements, as its declaration
   says. An access shown inside them is in bounds under that assumption; one
   that may leave them is an unknown, never a finding: C lets a caller pass a
   larger array (scan_check.c). A followed argument is kept: the caller's
   array, not the declaration, bounds it. */
static val declared_extent(CXCursor parm, val v) {
  CXType t = clang_getCursorType(parm);
  /* an entry's fresh argument of an array type has no value (V_NONE) */
  bool followed = v.k != V_NONE && (v.k != V_PTR || v.region < 0 || scan_model_reg(v.region)->kind != RG_UNKNOWN);
  if (t.kind != CXType_ConstantArray || followed) return v;
  uint64_t bytes = scan_front_ctype_size(t);
  long long n = clang_getArraySize(t);
  if (!bytes || n <= 0) return v;
  const char *name = scan_front_cursor_name(parm);
  int r = scan_model_region(RG_PARAM, name, scan_front_cursor_loc(parm), scan_expr_const(64, bytes),
                            scan_util_fmt("%llu", (unsigned long long)bytes));
  scan_model_reg(r)->why =
      scan_util_fmt("it may leave the %lld elements (%llu bytes) that parameter '%s' is declared with ('%s'), "
                    "and the array passed is not known", n, (unsigned long long)bytes, name, scan_front_type_text(t));
  return scan_eval_val_ptr(r, scan_expr_const(64, 0));
}

val scan_exec_call_user(interp *I, CXCursor def, const val *args, int nargs, CXCursor call) {
  CXType rt = clang_getResultType(clang_getCursorType(def));
  scan_loc loc = scan_front_cursor_loc(call);
  const char *name = scan_front_cursor_name(def);
  if (I->depth >= 12) return scan_eval_val_opaque(rt, loc, scan_util_fmt("calls nest too deep at '%s'", name));
  /* each call is followed anew, so calls that fan out through many levels
     multiply, and each fork of a path copies the bindings: past the budget
     the calls left are not entered (eight copied bindings count as a step) */
  if (I->steps + (scan_env_copied() - I->copied0) / 8 > scan_main_options.max_steps)
    return scan_eval_val_opaque(rt, loc, scan_util_fmt("the call to '%s' comes after the entry point's budget of %lu steps (--max-steps)",
                                      name, scan_main_options.max_steps));
  for (frame *f = I->fr; f; f = f->up)
    if (clang_equalCursors(f->fn, def)) return scan_eval_val_opaque(rt, loc, scan_util_fmt("'%s' is recursive", name));
  CXCursor body = body_of(def);
  if (null(body)) return scan_eval_val_opaque(rt, loc, scan_util_fmt("'%s' has no body here", name));
  scan_unit_entered(def);
  frame fr;
  memset(&fr, 0, sizeof fr);
  fr.id = scan_unit_frame();
  fr.fn = def;
  fr.ret_type = rt;
  fr.up = I->fr;
  fr.why = I->fr ? I->fr->why : NULL;
  fr.in_part = scan_front_fn_in_part(def);
  fr.self = I->self_arg;
  I->self_arg = scan_eval_val_none();
  CXCursor g = clang_getNullCursor();
  clang_visitChildren(body, goto_visit, &g);
  if (!null(g)) fr.why = scan_util_fmt("'%s' uses goto (line %u), which the model does not follow", name, scan_front_cursor_loc(g).line);
  CXCursor *k;
  int n = scan_front_cursor_children(def, &k), pi = 0;
  for (int i = 0; i < n; i++) {
    if (kind(k[i]) != CXCursor_ParmDecl) continue;
    val v = pi < nargs ? args[pi] : scan_eval_val_opaque(clang_getCursorType(k[i]), loc, "the argument is missing");
    v = declared_extent(k[i], v);
    scan_env_put(I->env, fr.id, k[i], v);
    pi++;
  }
  jump *j0 = I->jmp;
  frame *f0 = I->fr;
  I->jmp = NULL;
  I->fr = &fr;
  I->depth++;
  if (kind(def) == CXCursor_Constructor) member_inits(I, def);
  scan_exec_stmt(I, body);
  I->depth--;
  I->fr = f0;
  I->jmp = j0;
  const sx *fall = I->reach;
  /* the value: the last return's where no path falls off the end, each
     earlier return's under the path it was taken on */
  size_t nr = fr.rets.n;
  val v;
  if (scan_front_ctype(rt).k == CT_VOID) v = scan_eval_val_none();
  else if (scan_expr_is_false(fall) && nr > 0) v = fr.rets.v[--nr].v;
  else v = scan_eval_val_opaque(rt, loc, scan_util_fmt("'%s' ends without returning a value", name));
  const sx *exits = fall;
  if (nr < fr.rets.n) exits = scan_expr_or(exits, fr.rets.v[nr].reach);
  for (size_t i = nr; i-- > 0;) {
    v = scan_eval_val_merge(fr.rets.v[i].reach, fr.rets.v[i].v, v, loc);
    exits = scan_expr_or(exits, fr.rets.v[i].reach);
  }
  I->reach = exits;
  scan_env_drop(I->env, fr.id);
  return v;
}

/* ---- statements ---- */
static void record_unmodelled(interp *I, CXCursor s, const char *why) {
  if (!I->device || scan_expr_is_false(I->reach)) return;
  scan_access a;
  memset(&a, 0, sizeof a);
  a.loc = scan_front_cursor_loc(s);
  a.kind = AK_WRITE;
  a.base = "memory";
  a.region = scan_model_unknown_region(why);
  a.part = -1;
  a.off = scan_expr_const(64, 0);
  a.width = scan_expr_const(64, 1);
  a.reach = I->reach;
  a.ctx = I->ctx;
  a.why = why;
  a.taint = I->taint;
  VEC_PUSH(scan_model_state.accesses, a);
}

/* ---- nesting ---- */
static unsigned nest;

const char *scan_exec_nest_enter(interp *I, CXCursor at) {
  if (nest < INTERP_MAX_NEST) {
    nest++;
    return NULL;
  }
  const char *why = scan_util_fmt("the code at line %u is nested more than %d levels deep (statements, expressions and calls "
                             "together), past what the model follows",
                             scan_front_cursor_loc(at).line, INTERP_MAX_NEST);
  record_unmodelled(I, at, why);
  for (frame *f = I->fr; f; f = f->up)
    if (!f->why) f->why = why;
  return why;
}

void scan_exec_nest_leave(void) { nest--; }

static void exec_stmt(interp *I, CXCursor s);

/* a condition the compiler folds to false (while (0), while (false)) */
static bool const_false(CXCursor cond) {
  CXEvalResult r = clang_Cursor_Evaluate(cond);
  if (!r) return false;
  bool f = clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
  clang_EvalResult_dispose(r);
  return f;
}

/* ---- goto ---- */
/* paths left by goto that a label may take up */
static bool gone(interp *I) { return I->fr && I->fr->gone && !scan_expr_is_false(I->fr->gone); }

static enum CXChildVisitResult label_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (kind(c) != CXCursor_LabelStmt) return CXChildVisit_Recurse;
  *(bool *)d = true;
  return CXChildVisit_Break;
}

/* a statement that no path reaches runs only where a goto may land in it */
static bool has_label(CXCursor s) {
  bool found = kind(s) == CXCursor_LabelStmt;
  if (!found) clang_visitChildren(s, label_visit, &found);
  return found;
}

/* ---- statements with errors, in a function analysed in part ----
 * A statement with an error (a call of a library whose header is missing)
 * is skipped: every variable it declares or names gets a value the model
 * does not know (it may have written any of them), local arrays' stores are
 * forgotten, and from there on the path is tainted: an access after it,
 * here or in a kernel launched after it, is proved in bounds or left
 * unknown, never reported (a guard the statement held is not seen). What it
 * allocates, frees or launches is not seen either. */
typedef struct {
  interp *I;
  const char *why;
} havoc_ctx;

static enum CXChildVisitResult havoc_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  havoc_ctx *h = data;
  interp *I = h->I;
  scan_loc loc = scan_front_cursor_loc(c);
  if (kind(c) == CXCursor_VarDecl && !clang_isInvalidDeclaration(c)) {
    CXType t = clang_getCursorType(c);
    ctype ct = scan_front_ctype(t);
    val v = ct.k == CT_ARRAY ? scan_eval_val_unknown_ptr(h->why)
            : ct.k == CT_REF ? scan_eval_val_none()
                             : scan_eval_val_opaque(t, loc, h->why);
    scan_env_put(I->env, I->fr ? I->fr->id : 0, c, v);
  } else if (kind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if ((kind(d) == CXCursor_VarDecl || kind(d) == CXCursor_ParmDecl) && !clang_isInvalidDeclaration(d) &&
        scan_front_ctype(clang_getCursorType(d)).k != CT_ARRAY) {
      lval lv = scan_eval_lval(I, c);
      if (lv.k != LV_NONE) scan_eval_lval_store(I, &lv, scan_eval_val_opaque(lv.type, loc, h->why), c);
    }
  }
  return CXChildVisit_Recurse;
}

static void skip_stmt(interp *I, CXCursor s, const char *where) {
  havoc_ctx h = {I, scan_util_fmt("the value is set by code with an error at %s", where)};
  clang_visitChildren(s, havoc_visit, &h);
  I->stores.n = 0;
  taint(I, where);
}

void scan_exec_stmt(interp *I, CXCursor s) {
  if (scan_expr_is_false(I->reach) && !(gone(I) && has_label(s))) return;
  if (I->fr && I->fr->in_part) {
    const char *where = scan_front_stmt_skipped(s, in_template(I));
    if (where) {
      skip_stmt(I, s, where);
      return;
    }
  }
  if (scan_exec_nest_enter(I, s)) return;
  I->steps++;
  exec_stmt(I, s);
  scan_exec_nest_leave();
}

static void exec_stmt(interp *I, CXCursor s) {
  CXCursor *k;
  int n = scan_front_cursor_children(s, &k);
  switch (kind(s)) {
  case CXCursor_CompoundStmt:
    for (int i = 0; i < n && (!scan_expr_is_false(I->reach) || gone(I)); i++) scan_exec_stmt(I, k[i]);
    return;
  case CXCursor_DeclStmt:
    for (int i = 0; i < n; i++)
      if (kind(k[i]) == CXCursor_VarDecl) scan_exec_declare_var(I, k[i]);
    return;
  case CXCursor_IfStmt: exec_if(I, s); return;
  case CXCursor_ForStmt: {
    /* children: init, condition, increment, body; any of the first three may be missing */
    CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
    if (n < 1) return;
    CXCursor body = k[n - 1];
    /* libclang leaves absent parts out: place them by their positions in the source */
    unsigned semi[2] = {0, 0};
    CXToken *toks;
    unsigned nt;
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(s);
    clang_tokenize(tu, clang_getCursorExtent(s), &toks, &nt);
    int depth = 0, found = 0;
    for (unsigned t = 0; t < nt && found < 2; t++) {
      CXString ts = clang_getTokenSpelling(tu, toks[t]);
      const char *tx = clang_getCString(ts);
      if (!strcmp(tx, "(")) depth++;
      else if (!strcmp(tx, ")")) depth--;
      else if (!strcmp(tx, ";") && depth == 1) clang_getExpansionLocation(clang_getTokenLocation(tu, toks[t]), NULL, NULL, NULL, &semi[found++]);
      clang_disposeString(ts);
    }
    clang_disposeTokens(tu, toks, nt);
    /* all three there: in that order, wherever they were spelled (a loop
       written by a macro, KERNEL_LOOP(i, n), has every token at the macro's
       one expansion location) */
    for (int i = 0; i < n - 1; i++) {
      unsigned off;
      clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(k[i])), NULL, NULL, NULL, &off);
      if (n == 4) *(i == 0 ? &init : i == 1 ? &cond : &inc) = k[i];
      else if (found == 2 && off < semi[0]) init = k[i];
      else if (found == 2 && off < semi[1]) cond = k[i];
      else inc = k[i];
    }
    exec_loop(I, s, init, cond, inc, body, true, false);
    return;
  }
  case CXCursor_WhileStmt:
    if (n >= 2) exec_loop(I, s, clang_getNullCursor(), k[n - 2], clang_getNullCursor(), k[n - 1], false, false);
    return;
  case CXCursor_DoStmt:
    if (n == 2 && const_false(k[1])) exec_once(I, s, k[0]);
    else if (n == 2) exec_loop(I, s, clang_getNullCursor(), k[1], clang_getNullCursor(), k[0], false, true);
    return;
  case CXCursor_CXXForRangeStmt: exec_range_for(I, s); return;
  case CXCursor_SwitchStmt: exec_switch(I, s); return;
  case CXCursor_ReturnStmt: {
    val v = n >= 1 ? scan_eval_expr(I, k[0]) : scan_eval_val_none();
    if (I->fr) {
      ret_item r = {I->reach, v};
      VEC_PUSH(I->fr->rets, r);
    }
    I->reach = scan_expr_false();
    return;
  }
  case CXCursor_BreakStmt: exec_break(I, true); return;
  case CXCursor_ContinueStmt: exec_break(I, false); return;
  case CXCursor_LabelStmt:
    if (gone(I)) {
      I->env = scan_expr_is_false(I->reach) ? scan_env_copy(I->fr->gone_env) : scan_env_merge(I->reach, I->env, I->fr->gone_env, scan_front_cursor_loc(s));
      I->reach = scan_expr_or(I->reach, I->fr->gone);
    }
    if (n >= 1) scan_exec_stmt(I, k[n - 1]);
    return;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    if (n >= 1) scan_exec_stmt(I, k[n - 1]);
    return;
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
    /* the path leaves; the function's accesses and uses are all reported unknown */
    if (I->fr) {
      I->fr->gone_env = gone(I) ? scan_env_merge(I->reach, I->env, I->fr->gone_env, scan_front_cursor_loc(s)) : scan_env_copy(I->env);
      I->fr->gone = gone(I) ? scan_expr_or(I->fr->gone, I->reach) : I->reach;
    }
    I->reach = scan_expr_false();
    return;
  case CXCursor_CXXTryStmt:
    /* the try block; a handler runs only on a path where something threw,
     * which the model does not follow (its returns would otherwise end the
     * path the program takes when nothing throws, as when a command line
     * parsed with std::stoi inside a try has a catch that returns) */
    if (n >= 1) scan_exec_stmt(I, k[0]);
    return;
  case CXCursor_NullStmt: return;
  case CXCursor_GCCAsmStmt:
  case CXCursor_MSAsmStmt:
    record_unmodelled(I, s, "inline assembly is not analysed");
    return;
  default:
    if (clang_isExpression(kind(s))) scan_eval_expr(I, s);
    else
      for (int i = 0; i < n; i++) scan_exec_stmt(I, k[i]);
  }
}
