/* scan_unit.c: one translation unit from its entry points. Host functions
 * that nothing in the unit calls (main first) are interpreted with their
 * parameters as program inputs; the kernels they launch are interpreted at
 * each launch. Kernels and device functions that no analysed code reaches
 * are interpreted under an arbitrary launch, so that no access in the file
 * goes unexamined. */
#include "scan_interp.h"

#include <stdlib.h>

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }
static bool null(CXCursor c) { return clang_Cursor_isNull(c) != 0; }

static unsigned next_frame = 1;
unsigned unit_frame(void) { return next_frame++; }

/* names of the functions the interpreter entered, for templates */
static VEC(const char *) entered;

void unit_entered(CXCursor def) {
  const char *n = cur_name(def);
  for (size_t i = 0; i < entered.n; i++)
    if (entered.v[i] == n) return;
  VEC_PUSH(entered, n);
}

static bool was_entered(CXCursor f) {
  const char *n = cur_name(f);
  for (size_t i = 0; i < entered.n; i++)
    if (entered.v[i] == n) return true;
  return false;
}

typedef struct {
  cursor_vec defs;      /* function definitions in user code */
  cursor_vec templates; /* function templates in user code */
  cursor_vec called;    /* definitions some other function calls */
  cursor_vec calls;     /* the definition of every direct call's callee, repeated */
  cursor_vec refs;      /* the definition of every function named, repeated */
} unit;

static bool contains(cursor_vec *v, CXCursor c) {
  for (size_t i = 0; i < v->n; i++)
    if (clang_equalCursors(v->v[i], c)) return true;
  return false;
}

CXCursor unit_definition(CXCursor callee) {
  CXCursor d = clang_getCursorDefinition(callee);
  if (null(d) || cur_in_system(d)) return clang_getNullCursor();
  enum CXCursorKind k = kind(d);
  if (k == CXCursor_FunctionDecl || (k == CXCursor_CXXMethod && clang_CXXMethod_isStatic(d))) return d;
  return clang_getNullCursor();
}

static size_t count(cursor_vec *v, CXCursor c) {
  size_t n = 0;
  for (size_t i = 0; i < v->n; i++) n += clang_equalCursors(v->v[i], c) != 0;
  return n;
}

/* every function named, called or not: inside bodies, and in a global's initializer
   (a table of callbacks), which the analysis does not run */
static enum CXChildVisitResult ref_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit *u = data;
  if (kind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (!null(d) && kind(d) == CXCursor_FunctionDecl) VEC_PUSH(u->refs, d);
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult call_visit(CXCursor c, CXCursor parent, CXClientData data) {
  unit *u = data;
  ref_visit(c, parent, data);
  if (kind(c) == CXCursor_CallExpr) {
    CXCursor callee = clang_getCursorReferenced(c);
    if (!null(callee)) {
      CXCursor d = clang_getCursorDefinition(callee);
      if (!null(d)) VEC_PUSH(u->calls, d);
      if (!null(d) && !contains(&u->called, d)) VEC_PUSH(u->called, d);
      CXCursor t = clang_getSpecializedCursorTemplate(callee);
      if (!null(t) && !contains(&u->called, t)) VEC_PUSH(u->called, t);
    }
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit *u = data;
  if (cur_in_system(c)) return CXChildVisit_Continue;
  switch (kind(c)) {
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl: return CXChildVisit_Recurse;
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
    if (clang_isCursorDefinition(c)) {
      VEC_PUSH(u->defs, c);
      clang_visitChildren(c, call_visit, u);
    }
    return CXChildVisit_Continue;
  case CXCursor_FunctionTemplate:
    if (clang_isCursorDefinition(c)) {
      VEC_PUSH(u->templates, c);
      clang_visitChildren(c, call_visit, u);
    }
    return CXChildVisit_Continue;
  case CXCursor_VarDecl: clang_visitChildren(c, ref_visit, u); return CXChildVisit_Continue;
  default: return CXChildVisit_Continue;
  }
}

static bool is_kernel(CXCursor f) { return cur_has_attr(f, CXCursor_CUDAGlobalAttr); }
static bool is_device_only(CXCursor f) {
  return cur_has_attr(f, CXCursor_CUDADeviceAttr) && !cur_has_attr(f, CXCursor_CUDAHostAttr);
}

/* an entry's parameters: inputs, and pointers to allocations nobody here made;
   for a function whose address is taken (std::thread(work, i), a callback) the
   values it is called with are not known, and not arbitrary either */
static void run_entry(CXCursor fn, bool address_taken) {
  const char *name = cur_name(fn);
  VEC(val) args = {0};
  CXCursor *k;
  int n = cur_children(fn, &k);
  bool is_main = !strcmp(name, "main");
  for (int i = 0; i < n; i++) {
    if (kind(k[i]) != CXCursor_ParmDecl) continue;
    CXType t = clang_getCursorType(k[i]);
    const char *pn = cur_name(k[i]);
    const char *why = is_main        ? "the pointer is main's argv"
                      : address_taken ? scan_fmt("'%s' is a parameter of '%s', which is called through its address", pn, name)
                                      : scan_fmt("'%s' is a parameter of '%s', which nothing in the analysed code calls", pn, name);
    val v = v_fresh(t, address_taken ? VK_OPAQUE : VK_INPUT, pn, cur_loc(k[i]), why);
    if (is_main && v.k == V_INT && args.n == 0) scan_var_fact((int)v.e->k, sx_bin(SX_SLE, sx_const(v.e->w, 1), v.e));
    VEC_PUSH(args, v);
  }
  interp I;
  memset(&I, 0, sizeof I);
  I.env = env_new();
  I.reach = sx_true();
  I.device = false;
  call_user(&I, fn, args.v, (int)args.n, fn);
}

static int by_line(const void *a, const void *b) {
  return loc_cmp(cur_loc(*(const CXCursor *)a), cur_loc(*(const CXCursor *)b));
}

void unit_analyse(scan_tu *t) {
  unit u;
  memset(&u, 0, sizeof u);
  entered.n = 0;
  clang_visitChildren(clang_getTranslationUnitCursor(t->tu), top_visit, &u);
  if (u.defs.n) qsort(u.defs.v, u.defs.n, sizeof *u.defs.v, by_line);
  /* host entry points: main first */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < u.defs.n; i++) {
      CXCursor f = u.defs.v[i];
      bool is_main = !strcmp(cur_name(f), "main");
      if ((pass == 0) != is_main || is_kernel(f) || is_device_only(f) || contains(&u.called, f)) continue;
      if (kind(f) == CXCursor_CXXMethod) continue;
      run_entry(f, count(&u.refs, f) > count(&u.calls, f));
    }
  /* what no launch or call reached */
  for (size_t i = 0; i < u.defs.n; i++) {
    CXCursor f = u.defs.v[i];
    if (is_kernel(f) && !launch_count(f)) run_free(f);
    else if (is_device_only(f) && !contains(&u.called, f)) run_free(f);
  }
  for (size_t i = 0; i < u.templates.n; i++) {
    CXCursor f = u.templates.v[i];
    if (!was_entered(f) && (is_kernel(f) || is_device_only(f))) {
      diag_new(FK_UNKNOWN, cur_loc(f), scan_fmt("'%s' is a template that is never instantiated: its accesses are not analysed", cur_name(f)));
    }
  }
}

void unit_reset(void) {
  next_frame = 1;
  memset(&entered, 0, sizeof entered);
}
