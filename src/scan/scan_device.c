/* scan_device.c: kernels. A launch binds the kernel's parameters to the
 * host's argument values and its thread model to the launch configuration:
 * per launch, variables for gridDim, blockDim, blockIdx and threadIdx with
 * CUDA's facts (ids below dimensions, dimensions within the hardware's
 * limits); the body then runs for one generic thread. Also the arrays a
 * kernel declares (static and dynamic shared, local), the partitions carved
 * from them, and the device functions the model knows by name. */
#include "scan_interp.h"

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

#define MAX_DYNSHM 232448u /* 227 KiB: the most a block can be given (sm_90) */

static const char *const axes = "xyz";

/* what a launch can have: threads per block per axis, blocks per axis */
static const uint64_t max_block[3] = {1024, 1024, 64}, max_grid[3] = {0x7fffffffu, 65535, 65535};

/* a block of at most 1024 threads: b[0] * b[1] * b[2] <= 1024, in 64 bits */
static const sx *threads_fit(const sx *const b[3]) {
  const sx *prod = scan_expr_const(64, 1);
  for (int a = 0; a < 3; a++) prod = scan_expr_bin(SX_MUL, prod, scan_expr_ext(SX_ZEXT, b[a], 64));
  return scan_expr_bin(SX_ULE, prod, scan_expr_const(64, 1024));
}

static int new_launch(const char *kernel, scan_loc site, bool free_launch) {
  scan_launch L;
  memset(&L, 0, sizeof L);
  L.kernel = kernel;
  L.site = site;
  L.free_launch = free_launch;
  L.dynshm_region = -1;
  static const scan_vkind kinds[4] = {VK_GRID, VK_BLOCK, VK_BLOCKIDX, VK_THREADIDX};
  static const char *const names[4] = {"gridDim", "blockDim", "blockIdx", "threadIdx"};
  int *arr[4] = {L.grid, L.block, L.bidx, L.tidx};
  for (int k = 0; k < 4; k++)
    for (int a = 0; a < 3; a++) {
      arr[k][a] = scan_expr_var_new(kinds[k], scan_util_fmt("%s.%c", names[k], axes[a]), 32, false, site);
      scan_expr_var_get(arr[k][a])->axis = a;
      scan_expr_var_get(arr[k][a])->launch = (int)scan_model_state.launches.n;
    }
  const sx *dims[3] = {scan_expr_var(L.block[0]), scan_expr_var(L.block[1]), scan_expr_var(L.block[2])};
  const sx *threads = threads_fit(dims);
  for (int a = 0; a < 3; a++) {
    const sx *b = scan_expr_var(L.block[a]), *g = scan_expr_var(L.grid[a]);
    scan_expr_var_fact(L.block[a], scan_expr_bin(SX_ULE, scan_expr_const(32, 1), b));
    scan_expr_var_fact(L.block[a], scan_expr_bin(SX_ULE, b, scan_expr_const(32, max_block[a])));
    scan_expr_var_fact(L.block[a], threads);
    scan_expr_var_fact(L.grid[a], scan_expr_bin(SX_ULE, scan_expr_const(32, 1), g));
    scan_expr_var_fact(L.grid[a], scan_expr_bin(SX_ULE, g, scan_expr_const(32, max_grid[a])));
    scan_expr_var_fact(L.tidx[a], scan_expr_bin(SX_ULT, scan_expr_var(L.tidx[a]), b));
    scan_expr_var_fact(L.bidx[a], scan_expr_bin(SX_ULT, scan_expr_var(L.bidx[a]), g));
  }
  VEC_PUSH(scan_model_state.launches, L);
  return (int)scan_model_state.launches.n - 1;
}

int scan_device_launch_count(CXCursor kernel) {
  const char *n = scan_front_cursor_name(kernel);
  int c = 0;
  for (size_t i = 0; i < scan_model_state.launches.n; i++)
    if (scan_model_state.launches.v[i].kernel == n && !scan_model_state.launches.v[i].free_launch) c++;
  return c;
}

typedef struct {
  CXCursor found;
} cfg_acc;

static enum CXChildVisitResult cfg_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  if (kind(c) == CXCursor_CallExpr) {
    const char *n = scan_front_cursor_name(c);
    if (!strcmp(n, "__cudaPushCallConfiguration") || !strcmp(n, "cudaConfigureCall")) {
      ((cfg_acc *)d)->found = c;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Continue;
}

bool scan_device_is_launch(CXCursor call, CXCursor *config) {
  cfg_acc a = {clang_getNullCursor()};
  clang_visitChildren(call, cfg_visit, &a);
  *config = a.found;
  return !clang_Cursor_isNull(a.found);
}

/* a dim3 argument's three fields */
static void dims_of(val v, CXCursor at, const sx *out[3]) {
  for (int a = 0; a < 3; a++) {
    char f[2] = {axes[a], 0};
    val x = v.k == V_REC ? scan_eval_rec_get(v, scan_util_intern(f)) : v.k == V_INT && a == 0 ? v : scan_eval_val_int(scan_expr_const(32, 1));
    if (x.k == V_INT && x.e->w != 32) x = scan_eval_val_int(x.e->w > 32 ? scan_expr_ext(SX_TRUNC, x.e, 32) : scan_expr_ext(SX_ZEXT, x.e, 32));
    out[a] = x.k == V_INT ? x.e : scan_expr_opaque(32, false, scan_front_cursor_loc(at), "a launch dimension is not a value the model follows");
  }
}

/* a launch of kernel 'callee' at 'call' with the configuration cfg (grid,
   block, dynamic shared bytes; cfg_at where each was written, or null) and
   the argument values args (arg_at where each was written) */
static void launch_run(interp *H, CXCursor callee, CXCursor call, const val cfg[3], const CXCursor cfg_at[3],
                       const val *args, const CXCursor *arg_at, int na) {
  const char *kname = scan_front_cursor_name(callee);
  scan_loc site = scan_front_cursor_loc(call);
  for (int i = 0; i < na; i++) scan_host_use(H, args[i], arg_at[i], scan_util_fmt("passed to kernel '%s'", kname));
  if (scan_expr_is_false(H->reach)) return;
  CXCursor def = scan_unit_definition(callee);
  if (clang_Cursor_isNull(def)) return;
  if (H->device) {
    /* a launch from device code (dynamic parallelism): its kernel is analysed
       as if launched freely */
    scan_device_run_free(def);
    return;
  }
  int ctx = new_launch(kname, site, false);
  scan_launch *L = &scan_model_state.launches.v[ctx];
  const sx *g[3], *b[3];
  dims_of(cfg[0], cfg_at[0], g);
  dims_of(cfg[1], cfg_at[1], b);
  for (int a = 0; a < 3; a++) {
    scan_expr_var_fact(L->grid[a], scan_expr_bin(SX_EQ, scan_expr_var(L->grid[a]), g[a]));
    scan_expr_var_fact(L->block[a], scan_expr_bin(SX_EQ, scan_expr_var(L->block[a]), b[a]));
  }
  const sx *reach = H->reach;
  for (int i = 0; i < na; i++)
    if (args[i].k == V_PTR && args[i].region >= 0) reach = scan_expr_and(reach, scan_model_allocated(args[i].region));
  /* the kernel runs only if its launch is a valid one: the block as the host
     computed it (dim3 blocks(wgs)) is within the limits, so a question about
     wgs alone (a dynamic shared size of 17 * wgs doubles, smem[0]) knows
     that wgs >= 1 inside this launch (a question with blockDim gets these
     through its facts; the grid's are left to them) */
  for (int a = 0; a < 3; a++) {
    reach = scan_expr_and(reach, scan_expr_bin(SX_ULE, scan_expr_const(32, 1), b[a]));
    reach = scan_expr_and(reach, scan_expr_bin(SX_ULE, b[a], scan_expr_const(32, max_block[a])));
  }
  reach = scan_expr_and(reach, threads_fit(b));
  if (cfg[2].k == V_INT) {
    L->dynshm = scan_expr_ext(SX_ZEXT, cfg[2].e, 64);
    reach = scan_expr_and(reach, scan_expr_bin(SX_ULE, L->dynshm, scan_expr_const(64, MAX_DYNSHM)));
  } else {
    L->dynshm = scan_expr_opaque(64, false, site, "the dynamic shared memory size is not a value the model follows");
  }
  interp K;
  memset(&K, 0, sizeof K);
  K.copied0 = scan_env_copied(); /* --max-steps counts the bindings copied from here */
  K.env = scan_env_new();
  K.reach = reach;
  K.device = true;
  K.ctx = ctx;
  K.taint = H->taint; /* launched after code with errors was skipped */
  scan_exec_call_user(&K, def, args, na, call);
}

void scan_device_launch(interp *H, CXCursor call, CXCursor config) {
  CXCursor callee = clang_getCursorReferenced(call);
  int nc = clang_Cursor_getNumArguments(config);
  val cfg[3];
  CXCursor cfg_at[3];
  for (int i = 0; i < 3; i++) {
    cfg_at[i] = i < nc ? clang_Cursor_getArgument(config, (unsigned)i) : config;
    cfg[i] = i < nc ? scan_eval_expr(H, cfg_at[i]) : scan_eval_val_int(scan_expr_const(64, 0));
  }
  val *args;
  int na = scan_exec_call_args(H, call, callee, &args);
  CXCursor *arg_at = scan_util_alloc(((size_t)na + 1) * sizeof *arg_at);
  for (int i = 0; i < na; i++) arg_at[i] = clang_Cursor_getArgument(call, (unsigned)i);
  launch_run(H, callee, call, cfg, cfg_at, args, arg_at, na);
}

/* below casts: (void *)k, reinterpret_cast<const void *>(&k) */
static CXCursor strip_casts(CXCursor c) {
  for (;;) {
    c = scan_front_cursor_strip(c);
    enum CXCursorKind k = kind(c);
    CXCursor *kids;
    int n = scan_front_cursor_children(c, &kids);
    if ((k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr || k == CXCursor_CXXReinterpretCastExpr ||
         k == CXCursor_CXXConstCastExpr || k == CXCursor_CXXFunctionalCastExpr) && n >= 1) {
      c = kids[n - 1];
    } else if (k == CXCursor_UnaryOperator && n == 1 && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf &&
               clang_getCursorType(kids[0]).kind == CXType_FunctionProto) {
      c = kids[0];
    } else {
      return c;
    }
  }
}

/* the kernel's arguments of cudaLaunchKernel(k, grid, block, args, ...):
   'args' is an array initialised with the arguments' addresses
   (void *args[] = {&d, &n}); each argument is the value its address points to
   at the launch. False where it is another expression. */
static bool api_args(interp *H, CXCursor at, CXCursor kernel, val **out, CXCursor **out_at, int *na) {
  CXCursor a = strip_casts(at);
  if (kind(a) != CXCursor_DeclRefExpr) return false;
  CXCursor d = clang_getCursorReferenced(a);
  if (kind(d) != CXCursor_VarDecl || scan_front_ctype(clang_getCursorType(d)).k != CT_ARRAY) return false;
  CXCursor init = scan_front_cursor_strip(clang_Cursor_getVarDeclInitializer(d));
  CXCursor *el;
  int n = kind(init) == CXCursor_InitListExpr ? scan_front_cursor_children(init, &el) : -1;
  int np = clang_Cursor_getNumArguments(kernel);
  if (n < 0 || n != np) return false;
  val *v = scan_util_alloc(((size_t)n + 1) * sizeof *v);
  CXCursor *w = scan_util_alloc(((size_t)n + 1) * sizeof *w);
  for (int i = 0; i < n; i++) {
    CXCursor e = strip_casts(el[i]), *x;
    if (kind(e) != CXCursor_UnaryOperator || clang_getCursorUnaryOperatorKind(e) != CXUnaryOperator_AddrOf ||
        scan_front_cursor_children(e, &x) != 1)
      return false;
    CXCursor pa = clang_Cursor_getArgument(kernel, (unsigned)i);
    w[i] = x[0];
    v[i] = scan_eval_val_conv(scan_eval_expr(H, x[0]), clang_getCursorType(x[0]), clang_getCursorType(pa), scan_front_cursor_loc(x[0]));
  }
  *out = v;
  *out_at = w;
  *na = n;
  return true;
}

bool scan_device_launch_api(interp *H, CXCursor call, const char *name) {
  if (strcmp(name, "cudaLaunchKernel") && strcmp(name, "cudaLaunchCooperativeKernel")) return false;
  int n = clang_Cursor_getNumArguments(call);
  if (n < 4) return false;
  CXCursor k = strip_casts(clang_Cursor_getArgument(call, 0));
  CXCursor callee = kind(k) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(k) : clang_getNullCursor();
  val cfg[3];
  CXCursor cfg_at[3];
  for (int i = 0; i < 3; i++) {
    cfg_at[i] = i < 2 ? clang_Cursor_getArgument(call, (unsigned)i + 1) : n > 4 ? clang_Cursor_getArgument(call, 4) : call;
    cfg[i] = i < 2 || n > 4 ? scan_eval_expr(H, cfg_at[i]) : scan_eval_val_int(scan_expr_const(64, 0));
  }
  val *args;
  CXCursor *arg_at;
  int na;
  if (clang_Cursor_isNull(callee) || kind(callee) != CXCursor_FunctionDecl ||
      !api_args(H, clang_Cursor_getArgument(call, 3), callee, &args, &arg_at, &na)) {
    /* not a kernel and arguments the model follows: the kernel, if named,
       is analysed with no launch */
    scan_eval_expr(H, clang_Cursor_getArgument(call, 3));
    return true;
  }
  launch_run(H, callee, call, cfg, cfg_at, args, arg_at, na);
  return true;
}

void scan_device_run_free(CXCursor fn) {
  const char *name = scan_front_cursor_name(fn);
  scan_loc site = scan_front_cursor_loc(fn);
  int ctx = new_launch(name, site, true);
  scan_launch *L = &scan_model_state.launches.v[ctx];
  bool kernel = scan_front_cursor_has_attr(fn, CXCursor_CUDAGlobalAttr);
  L->device_fn = !kernel;
  int dv = scan_expr_var_new(VK_INPUT, "dynamic shared size", 64, false, site);
  L->dynshm = scan_expr_var(dv);
  scan_expr_var_fact(dv, scan_expr_bin(SX_ULE, L->dynshm, scan_expr_const(64, MAX_DYNSHM)));
  VEC(val) args = {0};
  CXCursor *k;
  int n = scan_front_cursor_children(fn, &k);
  for (int i = 0; i < n; i++) {
    if (kind(k[i]) != CXCursor_ParmDecl) continue;
    CXType t = clang_getCursorType(k[i]);
    const char *why = scan_util_fmt(kernel ? "'%s' has no launch in the analysed code, so what '%s' points to is not known"
                                           : "'%s' is called by no analysed code, so what '%s' points to is not known",
                                    name, scan_front_cursor_name(k[i]));
    VEC_PUSH(args, scan_eval_val_fresh(t, VK_INPUT, scan_front_cursor_name(k[i]), scan_front_cursor_loc(k[i]), why));
  }
  interp K;
  memset(&K, 0, sizeof K);
  K.copied0 = scan_env_copied(); /* --max-steps counts the bindings copied from here */
  K.env = scan_env_new();
  K.reach = scan_expr_true();
  K.device = true;
  K.ctx = ctx;
  scan_exec_call_user(&K, fn, args.v, (int)args.n, fn);
}

bool scan_device_builtin_var(interp *I, CXCursor e, val *out) {
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) != 1) return false;
  CXCursor b = scan_front_cursor_strip(k[0]);
  if (kind(b) != CXCursor_DeclRefExpr) return false;
  const char *n = scan_front_cursor_name(clang_getCursorReferenced(b));
  int which = !strcmp(n, "gridDim") ? 0 : !strcmp(n, "blockDim") ? 1 : !strcmp(n, "blockIdx") ? 2 : !strcmp(n, "threadIdx") ? 3 : -1;
  if (which < 0) return false;
  const char *ax = scan_front_cursor_member_token(e);
  if (!ax) ax = scan_front_macro_member(e, n);
  int a = !ax ? -1 : ax[0] - 'x';
  if (!I->device || a < 0 || a > 2) {
    *out = scan_eval_val_opaque(clang_getCursorType(e), scan_front_cursor_loc(e), scan_util_fmt("'%s' is not read in a kernel the model follows", scan_front_cursor_text(e)));
    return true;
  }
  scan_launch *L = &scan_model_state.launches.v[I->ctx];
  const int *arr = which == 0 ? L->grid : which == 1 ? L->block : which == 2 ? L->bidx : L->tidx;
  *out = scan_eval_val_int(scan_expr_var(arr[a]));
  return true;
}

int scan_device_array(interp *I, CXCursor decl, CXType t) {
  scan_launch *L = &scan_model_state.launches.v[I->ctx];
  scan_loc loc = scan_front_cursor_loc(decl);
  const char *name = scan_front_cursor_name(decl);
  bool shared = scan_front_cursor_has_attr(decl, CXCursor_CUDASharedAttr);
  if (shared && clang_getCanonicalType(t).kind == CXType_IncompleteArray) {
    if (L->dynshm_region < 0) {
      L->dynshm_region = scan_model_region(RG_DYNSHARED, name, loc, L->dynshm,
                                      L->free_launch ? "the dynamic shared size of the launch" : NULL);
      scan_model_reg(L->dynshm_region)->ctx = I->ctx;
    }
    return L->dynshm_region;
  }
  if (shared)
    for (size_t i = 0; i < scan_model_state.regions.n; i++) {
      scan_region *r = &scan_model_state.regions.v[i];
      if (r->kind == RG_SHARED && r->ctx == I->ctx && !scan_util_loc_cmp(r->site, loc) && r->name == name) return r->id;
    }
  uint64_t size = scan_front_ctype_size(t), el = scan_front_ctype_size(scan_front_ctype_pointee(t));
  const sx *sz = size ? scan_expr_const(64, size)
                      : scan_expr_opaque(64, false, loc, scan_util_fmt("the size of '%s' is not a constant", name));
  const char *text = size && el ? scan_util_fmt("%llu * %llu", (unsigned long long)(size / el), (unsigned long long)el) : NULL;
  int r = scan_model_region(shared ? RG_SHARED : RG_LOCAL, name, loc, sz, text);
  scan_model_reg(r)->ctx = I->ctx;
  scan_model_reg(r)->automatic = !shared;
  return r;
}

/* does the start of a partition stay the same for every thread of a block? */
static bool uniform(const sx *e) {
  int_vec vs = {0};
  unsigned char *seen = scan_util_alloc(scan_expr_var_count() + 1);
  scan_expr_vars(e, &vs, seen);
  for (size_t i = 0; i < vs.n; i++) {
    scan_vkind k = scan_expr_var_get(vs.v[i])->kind;
    if (k == VK_THREADIDX || k == VK_LOOP || k == VK_LOADED || k == VK_OPAQUE) return false;
  }
  return true;
}

val scan_device_partition(interp *I, CXCursor decl, val v) {
  if (v.k != V_PTR || v.region < 0) return v;
  scan_region *r = scan_model_reg(v.region);
  if (r->kind != RG_SHARED && r->kind != RG_DYNSHARED && r->kind != RG_LOCAL) return v;
  if (!uniform(v.e)) return v;
  scan_part p = {v.region, scan_front_cursor_name(decl), v.e, scan_front_cursor_loc(decl), I->ctx};
  VEC_PUSH(scan_model_state.parts, p);
  v.part = (int)scan_model_state.parts.n - 1;
  return v;
}

/* ---- device functions known by name ---- */
static bool prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static const char *const atomics[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc",
                                      "atomicDec", "atomicCAS", "atomicAnd", "atomicOr", "atomicXor",
                                      "__nv_atomic_", NULL}; /* CUDA 12.8's __nv_atomic_fetch_add(p, v, order, scope) and kin */
static const char *const loads[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv", NULL};
static const char *const stores[] = {"__stcg", "__stcs", "__stwb", "__stwt", NULL};
static const char *const no_value[] = {"__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block",
                                       "__threadfence_system", "printf", "__nanosleep", "__pipeline_commit",
                                       "__pipeline_wait_prior", "__isShared", "__isGlobal", "__isConstant", "__isLocal",
                                       "__isGridConstant", "__cvta_generic_to_shared", "__cvta_generic_to_global",
                                       "__nvvm_get_smem_pointer", NULL};

static bool in(const char *name, const char *const *list, bool by_prefix) {
  for (int i = 0; list[i]; i++)
    if (by_prefix ? prefix(name, list[i]) : !strcmp(name, list[i])) return true;
  return false;
}

/* where an access through a pointer argument is reported: at the element of &a[i] */
static CXCursor ptr_site(CXCursor p) {
  CXCursor at = scan_front_cursor_strip(p);
  if (kind(at) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(at) == CXUnaryOperator_AddrOf) {
    CXCursor *k2;
    if (scan_front_cursor_children(at, &k2) == 1) at = k2[0];
  }
  return at;
}

/* a byte count as a 64-bit term */
static const sx *byte_count(val v, CXCursor at) {
  if (v.k == V_INT) return v.e->w < 64 ? scan_expr_ext(SX_ZEXT, v.e, 64) : v.e;
  return scan_expr_opaque(64, false, scan_front_cursor_loc(at), "the byte count is not a value the model follows");
}

/* memcpy, memmove, memset and __pipeline_memcpy_async in a kernel: accesses of a
   byte count at each pointer */
static bool byte_call(interp *I, CXCursor call, const char *name, CXCursor callee, val *out) {
  bool set = !strcmp(name, "memset"), async = !strcmp(name, "__pipeline_memcpy_async");
  if (!set && !async && strcmp(name, "memcpy") && strcmp(name, "memmove")) return false;
  val *a;
  int n = scan_exec_call_args(I, call, callee, &a);
  if (n < 3) return false;
  CXCursor c2 = clang_Cursor_getArgument(call, 2);
  const sx *cnt = byte_count(a[2], c2);
  scan_eval_record_access_n(I, a[0], cnt, 0, AK_WRITE, ptr_site(clang_Cursor_getArgument(call, 0)), name);
  if (!set) {
    /* cp.async with zfill reads size - zfill bytes and zero-fills the rest */
    const sx *rd = async && n >= 4 ? scan_expr_bin(SX_SUB, cnt, byte_count(a[3], clang_Cursor_getArgument(call, 3))) : cnt;
    scan_eval_record_access_n(I, a[1], rd, 0, AK_READ, ptr_site(clang_Cursor_getArgument(call, 1)), name);
  }
  *out = scan_front_ctype(clang_getCursorType(call)).k == CT_VOID ? scan_eval_val_none() : a[0];
  return true;
}

bool scan_device_call(interp *I, CXCursor call, const char *name, CXCursor callee, val *out) {
  CXType rt = clang_getCursorType(call);
  scan_loc loc = scan_front_cursor_loc(call);
  int n = clang_Cursor_getNumArguments(call);
  if (byte_call(I, call, name, callee, out)) return true;
  if (in(name, atomics, true) || in(name, loads, false) || in(name, stores, false)) {
    val *a;
    scan_exec_call_args(I, call, callee, &a);
    CXCursor p = n > 0 ? clang_Cursor_getArgument(call, 0) : clang_getNullCursor();
    if (n > 0) {
      uint64_t w = scan_front_ctype_size(scan_front_ctype_pointee(clang_getCursorType(p)));
      scan_akind k = in(name, loads, false) ? AK_READ : in(name, stores, false) ? AK_WRITE : AK_ATOMIC;
      CXCursor at = ptr_site(p);
      scan_eval_record_access(I, a[0], w, k, at, scan_eval_pointer_text(at));
    }
    *out = scan_front_ctype(rt).k == CT_VOID ? scan_eval_val_none() : scan_eval_val_fresh(rt, VK_LOADED, scan_front_cursor_text(call), loc, NULL);
    return true;
  }
  ctype t = scan_front_ctype(rt);
  bool is_min = !strcmp(name, "min") || !strcmp(name, "umin") || !strcmp(name, "llmin") || !strcmp(name, "ullmin");
  bool is_max = !strcmp(name, "max") || !strcmp(name, "umax") || !strcmp(name, "llmax") || !strcmp(name, "ullmax");
  if ((is_min || is_max) && t.k == CT_INT) {
    *out = scan_eval_minmax(I, call, is_max, t.sgn);
    return true;
  }
  if ((!strcmp(name, "__umul24") || !strcmp(name, "__mul24")) && t.k == CT_INT && t.w == 32 && n == 2) {
    /* the product of the operands' low 24 bits (sign-extended for __mul24), its low 32 bits */
    bool sgn = name[2] == 'm';
    const sx *f[2];
    for (int i = 0; i < 2; i++) {
      val x = scan_eval_expr(I, clang_Cursor_getArgument(call, (unsigned)i));
      if (x.k != V_INT || x.e->w != 32) return false;
      f[i] = scan_expr_ext(sgn ? SX_SEXT : SX_ZEXT, scan_expr_ext(SX_TRUNC, x.e, 24), 32);
    }
    *out = scan_eval_val_int(scan_expr_bin(SX_MUL, f[0], f[1]));
    return true;
  }
  if ((!strcmp(name, "abs") || !strcmp(name, "labs") || !strcmp(name, "llabs")) && t.k == CT_INT && n == 1) {
    val x = scan_eval_expr(I, clang_Cursor_getArgument(call, 0));
    if (x.k != V_INT) return false;
    const sx *neg = scan_expr_bin(SX_SLT, x.e, scan_expr_const(x.e->w, 0));
    *out = scan_eval_val_int(scan_expr_ite(neg, scan_expr_un(SX_NEG, x.e), x.e));
    return true;
  }
  if (in(name, no_value, false)) {
    val *a;
    scan_exec_call_args(I, call, callee, &a);
    *out = t.k == CT_VOID ? scan_eval_val_none() : scan_eval_val_opaque(rt, loc, scan_util_fmt("the value is returned by '%s'", name));
    return true;
  }
  if (prefix(name, "__shfl") || prefix(name, "__ballot") || prefix(name, "__any") || prefix(name, "__all") ||
      prefix(name, "__syncthreads_")) {
    val *a;
    scan_exec_call_args(I, call, callee, &a);
    *out = scan_eval_val_opaque(rt, loc, scan_util_fmt("the value comes from other threads ('%s')", name));
    return true;
  }
  if (!strcmp(name, "malloc") || !strcmp(name, "free")) {
    val *a;
    scan_exec_call_args(I, call, callee, &a);
    *out = t.k == CT_VOID ? scan_eval_val_none() : scan_eval_val_unknown_ptr("the pointer comes from the device heap (malloc in a kernel)");
    return true;
  }
  return false;
}
