/* scan_unit.c: a program from its entry points. A program is the
 * translation units analysed together (the files of one gsan scan), as the
 * linker joins them: a function declared in one and defined in another is
 * followed into its definition, matched by its USR. Host functions that
 * nothing in the program calls (main first) are interpreted with their
 * parameters as program inputs; the kernels they launch are interpreted at
 * each launch. Kernels and device functions that no analysed code reaches
 * are interpreted under an arbitrary launch, so that no access in the files
 * goes unexamined. */
#include "scan_interp.h"

#include <stdlib.h>

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }
static bool null(CXCursor c) { return clang_Cursor_isNull(c) != 0; }

static unsigned next_frame = 1;
unsigned scan_unit_frame(void) { return next_frame++; }

/* names of the functions the interpreter entered, for templates; and their
   USRs, for functions (overloads share a name) */
static VEC(const char *) entered, entered_usr;

void scan_unit_entered(CXCursor def) {
  const char *n = scan_front_cursor_name(def), *u = scan_unit_usr(def);
  bool seen = false;
  for (size_t i = 0; i < entered_usr.n && !seen; i++) seen = entered_usr.v[i] == u;
  if (!seen) VEC_PUSH(entered_usr, u);
  for (size_t i = 0; i < entered.n; i++)
    if (entered.v[i] == n) return;
  VEC_PUSH(entered, n);
}

static bool was_entered_usr(CXCursor f) {
  const char *u = scan_unit_usr(f);
  for (size_t i = 0; i < entered_usr.n; i++)
    if (entered_usr.v[i] == u) return true;
  return false;
}

static bool was_entered(CXCursor f) {
  const char *n = scan_front_cursor_name(f);
  for (size_t i = 0; i < entered.n; i++)
    if (entered.v[i] == n) return true;
  return false;
}

typedef VEC(const char *) usr_vec;

typedef struct {
  cursor_vec defs;      /* function definitions in user code, of every unit */
  cursor_vec templates; /* function templates in user code */
  usr_vec called;       /* functions some other function calls (USRs) */
  usr_vec calls;        /* the callee of every direct call, repeated */
  usr_vec refs;         /* every function named, repeated */
  cursor_vec broken;    /* definitions not analysed: errors (scan_front_fn_broken) */
  cursor_vec in_part;   /* definitions analysed in part: errors in statements (scan_front_fn_in_part) */
  usr_vec called_by_errors; /* functions called in statements with errors, which are skipped */
  bool visiting_in_part; /* call_visit is in one: its statements with errors call nothing */
  bool visiting_template;
} unit;

static unit P; /* the program being analysed */

/* a declaration's identity across translation units (interned) */
const char *scan_unit_usr(CXCursor c) {
  CXString s = clang_getCursorUSR(c);
  const char *r = scan_util_intern(clang_getCString(s));
  clang_disposeString(s);
  return r;
}

static bool has(usr_vec *v, const char *u) {
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i] == u) return true;
  return false;
}

static size_t count(usr_vec *v, const char *u) {
  size_t n = 0;
  for (size_t i = 0; i < v->n; i++) n += v->v[i] == u;
  return n;
}

/* the definition in user code, in this unit or another of the program */
static CXCursor defined(CXCursor callee) {
  CXCursor d = clang_getCursorDefinition(callee);
  if (null(d) && !null(callee)) {
    const char *u = scan_unit_usr(callee);
    for (size_t i = 0; i < P.defs.n && *u; i++)
      if (scan_unit_usr(P.defs.v[i]) == u) {
        d = P.defs.v[i];
        break;
      }
  }
  return null(d) || scan_front_cursor_in_system(d) || (scan_front_fn_broken(d) && !scan_front_fn_in_part(d))
             ? clang_getNullCursor()
             : d;
}

static bool has_usr(cursor_vec *v, const char *d) {
  for (size_t i = 0; i < v->n; i++)
    if (scan_unit_usr(v->v[i]) == d) return true;
  return false;
}

/* a definition with errors, kept once for its remark: set aside (not
   visited) unless it is analysed in part */
static bool set_aside(unit *u, CXCursor c) {
  if (!scan_front_fn_broken(c)) return false;
  const char *d = scan_unit_usr(c);
  bool part = scan_front_fn_in_part(c);
  cursor_vec *v = part ? &u->in_part : &u->broken;
  if (!has_usr(v, d)) VEC_PUSH(*v, c);
  return !part;
}

CXCursor scan_unit_definition(CXCursor callee) {
  CXCursor d = defined(callee);
  enum CXCursorKind k = kind(d);
  return k == CXCursor_FunctionDecl || (k == CXCursor_CXXMethod && clang_CXXMethod_isStatic(d)) ? d : clang_getNullCursor();
}

CXCursor scan_unit_method(CXCursor callee) {
  CXCursor d = defined(callee);
  return kind(d) == CXCursor_CXXMethod || kind(d) == CXCursor_Constructor ? d : clang_getNullCursor();
}

/* every function named, called or not: inside bodies, and in a global's initializer
   (a table of callbacks), which the analysis does not run */
static enum CXChildVisitResult ref_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit *u = data;
  if (kind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (!null(d) && kind(d) == CXCursor_FunctionDecl) VEC_PUSH(u->refs, scan_unit_usr(d));
  }
  return CXChildVisit_Recurse;
}

/* the functions a statement with errors calls: no analysed code calls
   them there (the statement is skipped), yet main reaches them */
static enum CXChildVisitResult skipped_call_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit *u = data;
  if (kind(c) == CXCursor_CallExpr) {
    const char *d = scan_unit_usr(scan_front_callee(c));
    if (*d && !has(&u->called_by_errors, d)) VEC_PUSH(u->called_by_errors, d);
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult call_visit(CXCursor c, CXCursor parent, CXClientData data) {
  unit *u = data;
  /* a statement with errors calls nothing (scan_exec.c skips it) */
  if (u->visiting_in_part && scan_front_holds_statements(kind(parent)) && scan_front_stmt_skipped(c, u->visiting_template)) {
    skipped_call_visit(c, parent, data);
    clang_visitChildren(c, skipped_call_visit, data);
    return CXChildVisit_Continue;
  }
  ref_visit(c, parent, data);
  if (kind(c) == CXCursor_CallExpr) {
    CXCursor callee = scan_front_callee(c);
    if (!null(callee)) {
      const char *d = scan_unit_usr(callee);
      if (*d) VEC_PUSH(u->calls, d);
      if (*d && !has(&u->called, d)) VEC_PUSH(u->called, d);
      CXCursor t = clang_getSpecializedCursorTemplate(callee);
      if (!null(t) && !has(&u->called, scan_unit_usr(t))) VEC_PUSH(u->called, scan_unit_usr(t));
    }
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit *u = data;
  if (scan_front_cursor_in_system(c)) return CXChildVisit_Continue;
  switch (kind(c)) {
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl: return CXChildVisit_Recurse;
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
  case CXCursor_Constructor:
    if (clang_isCursorDefinition(c) && !set_aside(u, c)) {
      /* an inline function of a header that several units include: once */
      const char *d = scan_unit_usr(c);
      for (size_t i = 0; i < u->defs.n; i++)
        if (scan_unit_usr(u->defs.v[i]) == d) return CXChildVisit_Continue;
      VEC_PUSH(u->defs, c);
      u->visiting_in_part = scan_front_fn_in_part(c);
      clang_visitChildren(c, call_visit, u);
      u->visiting_in_part = false;
    }
    return CXChildVisit_Continue;
  case CXCursor_FunctionTemplate:
    if (clang_isCursorDefinition(c) && !set_aside(u, c)) {
      VEC_PUSH(u->templates, c);
      u->visiting_in_part = scan_front_fn_in_part(c);
      u->visiting_template = true;
      clang_visitChildren(c, call_visit, u);
      u->visiting_in_part = u->visiting_template = false;
    }
    return CXChildVisit_Continue;
  case CXCursor_VarDecl: clang_visitChildren(c, ref_visit, u); return CXChildVisit_Continue;
  default: return CXChildVisit_Continue;
  }
}

static bool is_kernel(CXCursor f) { return scan_front_cursor_has_attr(f, CXCursor_CUDAGlobalAttr); }
static bool is_device_only(CXCursor f) {
  return scan_front_cursor_has_attr(f, CXCursor_CUDADeviceAttr) && !scan_front_cursor_has_attr(f, CXCursor_CUDAHostAttr);
}

/* an entry's parameters: inputs, and pointers to allocations nobody here made;
   for a function whose address is taken (std::thread(work, i), a callback) the
   values it is called with are not known, and not arbitrary either */
static void run_entry(CXCursor fn, bool address_taken, bool dead, bool by_errors) {
  const char *name = scan_front_cursor_name(fn);
  VEC(val) args = {0};
  CXCursor *k;
  int n = scan_front_cursor_children(fn, &k);
  bool is_main = !strcmp(name, "main");
  for (int i = 0; i < n; i++) {
    if (kind(k[i]) != CXCursor_ParmDecl) continue;
    CXType t = clang_getCursorType(k[i]);
    const char *pn = scan_front_cursor_name(k[i]);
    const char *why = is_main        ? "the pointer is main's argv"
                      : address_taken ? scan_util_fmt("'%s' is a parameter of '%s', which is called through its address", pn, name)
                      : dead          ? scan_util_fmt("'%s' is a parameter of '%s', which the program's main does not reach", pn, name)
                      : by_errors     ? scan_util_fmt("'%s' is a parameter of '%s', which only code with errors calls", pn, name)
                                      : scan_util_fmt("'%s' is a parameter of '%s', which nothing in the analysed code calls", pn, name);
    val v = scan_eval_val_fresh(t, address_taken || dead ? VK_OPAQUE : VK_INPUT, pn, scan_front_cursor_loc(k[i]), why);
    if (is_main && v.k == V_INT && args.n == 0) scan_expr_var_fact((int)v.e->k, scan_expr_bin(SX_SLE, scan_expr_const(v.e->w, 1), v.e));
    VEC_PUSH(args, v);
  }
  interp I;
  memset(&I, 0, sizeof I);
  I.env = scan_env_new();
  I.reach = scan_expr_true();
  I.device = false;
  I.copied0 = scan_env_copied();
  scan_exec_call_user(&I, fn, args.v, (int)args.n, fn);
}

static int by_line(const void *a, const void *b) {
  return scan_util_loc_cmp(scan_front_cursor_loc(*(const CXCursor *)a), scan_front_cursor_loc(*(const CXCursor *)b));
}

/* ---- programs: which units the linker would join ---- */
static int find(int *parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

void scan_unit_programs(scan_tu *t, int n, int *program) {
  unit *u = scan_util_alloc(((size_t)n + 1) * sizeof *u);
  int *parent = scan_util_alloc(((size_t)n + 1) * sizeof *parent);
  for (int i = 0; i < n; i++) {
    memset(&u[i], 0, sizeof u[i]);
    clang_visitChildren(clang_getTranslationUnitCursor(t[i].tu), top_visit, &u[i]);
    parent[i] = i;
  }
  /* a unit that names a function it does not define joins the one unit that
     defines it; a function several units define (main, or a static helper of
     the same name) joins none */
  usr_vec defs = {0};
  VEC(int) def_unit = {0};
  for (int j = 0; j < n; j++)
    for (size_t d = 0; d < u[j].defs.n; d++) {
      VEC_PUSH(defs, scan_unit_usr(u[j].defs.v[d]));
      VEC_PUSH(def_unit, j);
    }
  for (int i = 0; i < n; i++)
    for (size_t r = 0; r < u[i].refs.n + u[i].calls.n; r++) {
      const char *name = r < u[i].refs.n ? u[i].refs.v[r] : u[i].calls.v[r - u[i].refs.n];
      int owner = -1, owners = 0;
      for (size_t d = 0; d < defs.n && owners < 2; d++)
        if (defs.v[d] == name) {
          owners += def_unit.v[d] == i ? 2 : 1; /* defined here: nothing to join */
          owner = def_unit.v[d];
        }
      if (owners == 1) parent[find(parent, i)] = find(parent, owner);
    }
  for (int i = 0; i < n; i++) program[i] = find(parent, i);
}

void scan_unit_analyse(scan_tu *t, int n) {
  memset(&P, 0, sizeof P);
  entered.n = 0;
  entered_usr.n = 0;
  for (int i = 0; i < n; i++) clang_visitChildren(clang_getTranslationUnitCursor(t[i].tu), top_visit, &P);
  if (P.defs.n) qsort(P.defs.v, P.defs.n, sizeof *P.defs.v, by_line);
  /* host entry points: main first; with a main, a function nothing calls is
     code main does not reach (or reaches through a pointer): its accesses are
     still examined, but with arguments that are not known, never inputs */
  bool has_main = false;
  for (size_t i = 0; i < P.defs.n; i++) has_main |= !strcmp(scan_front_cursor_name(P.defs.v[i]), "main");
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < P.defs.n; i++) {
      CXCursor f = P.defs.v[i];
      const char *u = scan_unit_usr(f);
      bool is_main = !strcmp(scan_front_cursor_name(f), "main");
      if ((pass == 0) != is_main || is_kernel(f) || is_device_only(f) || has(&P.called, u)) continue;
      if (kind(f) == CXCursor_CXXMethod || kind(f) == CXCursor_Constructor) continue;
      bool by_errors = has(&P.called_by_errors, u);
      run_entry(f, count(&P.refs, u) > count(&P.calls, u), has_main && !is_main && !by_errors, by_errors);
    }
  /* what no launch or call reached */
  for (size_t i = 0; i < P.defs.n; i++)
    if (is_kernel(P.defs.v[i]) && !scan_device_launch_count(P.defs.v[i])) scan_device_run_free(P.defs.v[i]);
  /* then, after every kernel (which may enter it), a device function no
     analysed code called: a function that nothing calls, or that the
     analysis never entered (its callers not launched, a template never
     instantiated); a method nothing calls (one called on an array's element
     is checked as a read of the element, by design). Last line first: a
     helper is mostly defined before its callers, which enter it. */
  for (size_t i = P.defs.n; i-- > 0;) {
    CXCursor f = P.defs.v[i];
    if (!is_kernel(f) && is_device_only(f) && (kind(f) == CXCursor_FunctionDecl ? !was_entered_usr(f) : !has(&P.called, scan_unit_usr(f))))
      scan_device_run_free(f);
  }
  for (size_t i = 0; i < P.broken.n; i++) {
    CXCursor f = P.broken.v[i];
    scan_diag_once(FK_UNKNOWN, scan_front_cursor_loc(f),
                   scan_util_fmt("'%s' is not analysed: %s", scan_front_cursor_name(f), scan_front_fn_broken(f)));
  }
  for (size_t i = 0; i < P.in_part.n; i++) {
    CXCursor f = P.in_part.v[i];
    scan_diag_once(FK_UNKNOWN, scan_front_cursor_loc(f),
                   scan_util_fmt("'%s' is analysed in part: %s; its statements with errors are skipped, and an access "
                                 "after one is proved in bounds or left unknown, never reported",
                                 scan_front_cursor_name(f), scan_front_fn_broken(f)));
  }
  for (size_t i = 0; i < P.templates.n; i++) {
    CXCursor f = P.templates.v[i];
    if (!was_entered(f) && (is_kernel(f) || is_device_only(f))) {
      scan_diag_once(FK_UNKNOWN, scan_front_cursor_loc(f), scan_util_fmt("'%s' is a template that is never instantiated: its accesses are not analysed", scan_front_cursor_name(f)));
    }
  }
}

void scan_unit_reset(void) {
  next_frame = 1;
  memset(&P, 0, sizeof P);
  memset(&entered, 0, sizeof entered);
  memset(&entered_usr, 0, sizeof entered_usr);
}
