/* scan_host.c: the host functions the model knows by name: where program
 * inputs come from (argv through atoi and friends, scanf, file reads, rand),
 * the CUDA runtime's allocations, frees, copies and sets, and the C library's
 * allocator. An allocation is a region with its size expression; a copy is
 * an access of its byte count at each end; a free marks the region freed
 * under the current path, and later uses of it are checked against that. */
#include "scan_interp.h"

static enum CXCursorKind kind(CXCursor c) { return clang_getCursorKind(c); }

static const char *const no_return[] = {"exit", "abort", "_Exit", "quick_exit", "__assert_fail", "__assert_rtn",
                                        "__assertfail", "terminate", "__builtin_trap", "__builtin_unreachable",
                                        "__trap", "_exit", NULL};

bool scan_host_noreturn_name(const char *name) {
  for (int i = 0; no_return[i]; i++)
    if (!strcmp(name, no_return[i])) return true;
  return false;
}

/* an input value of type t read by call: named after the variable it
   initialises when the call is that variable's whole initialiser */
static val input_val(interp *I, CXCursor call, CXType t) {
  const char *name = I->hint_name && clang_equalCursors(I->hint_call, call) ? I->hint_name : scan_front_cursor_text(call);
  I->hint_name = NULL;
  return scan_eval_val_fresh(t, VK_INPUT, name, scan_front_cursor_loc(call), NULL);
}


static const char *const int_inputs[] = {"atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "strtoull", "stoi",
                                         "stol", "stoll", "stoul", "stoull", "rand", "random", "lrand48", "getchar",
                                         "fgetc", "getc", "strtoimax", "strtoumax",
                                         /* comparisons of strings (command-line flags, file contents): the
                                            model does not follow strings, and takes the outcome as an input */
                                         "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strlen", NULL};
static const char *const scans[] = {"scanf", "sscanf", "fscanf", NULL};

static bool in(const char *name, const char *const *list) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(name, list[i])) return true;
  return false;
}

/* a standard input stream (or a reference to one): istream, ifstream,
   istringstream, stringstream, fstream, iostream */
static bool is_istream(CXType t) {
  if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) t = clang_getPointeeType(t);
  CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(clang_getCanonicalType(t)));
  const char *sp = clang_getCString(s);
  bool is = sp && !strncmp(sp, "std::", 5) &&
            (strstr(sp, "basic_istream<") || strstr(sp, "basic_ifstream<") || strstr(sp, "basic_istringstream<") ||
             strstr(sp, "basic_stringstream<") || strstr(sp, "basic_fstream<") || strstr(sp, "basic_iostream<"));
  clang_disposeString(s);
  return is;
}

/* ---- regions ---- */
static const char *target_name(val p, CXCursor arg) {
  if (p.k == V_ADDR) return scan_eval_lval_name(p.addr);
  return scan_front_cursor_text(scan_front_cursor_strip(arg));
}

static val alloc(scan_rkind k, CXCursor call, CXCursor size_arg, const sx *size, const char *name) {
  const char *text = clang_Cursor_isNull(size_arg) ? NULL : scan_front_cursor_text(size_arg);
  return scan_eval_val_ptr(scan_model_region(k, name, scan_front_cursor_loc(call), size, text), scan_expr_const(64, 0));
}

static const sx *size64(val v) {
  if (v.k != V_INT) return NULL;
  return scan_expr_ext(SX_ZEXT, v.e, 64);
}

/* *pp = an allocation of size bytes */
static void alloc_into(interp *I, scan_rkind k, CXCursor call, val pp, CXCursor pp_arg, CXCursor size_arg, val size) {
  const sx *s = size64(size);
  if (!s) s = scan_expr_opaque(64, false, scan_front_cursor_loc(call), "the allocation's size is not a value the model follows");
  val p = alloc(k, call, size_arg, s, target_name(pp, pp_arg));
  if (pp.k == V_ADDR) scan_eval_lval_store(I, pp.addr, p, call);
}

void scan_host_use(interp *I, val p, CXCursor at, const char *what) {
  if (p.k != V_PTR || p.region < 0 || scan_expr_is_false(I->reach)) return;
  scan_region *r = scan_model_reg(p.region);
  if (!r->freed) return;
  scan_use u = {scan_front_cursor_loc(at), p.region, I->reach, r->freed, scan_front_cursor_text(scan_front_cursor_strip(at)), what, I->fr ? I->fr->why : NULL, I->taint};
  VEC_PUSH(scan_model_state.uses, u);
}

/* ok: the condition under which the call freed it (cudaFree's status is
   success; NULL: always, as free and delete do). A free of a pointer whose
   free already failed on this path fails too (the statuses of two calls on
   one pointer are not independent: CHECK(x) macros that call x again to
   print the error must not free on the second call what the first could not) */
static void free_of(interp *I, val p, CXCursor call, CXCursor arg, const char *fname, const sx *ok) {
  if (p.k != V_PTR || p.region < 0 || scan_expr_is_false(I->reach)) return;
  scan_region *r = scan_model_reg(p.region);
  if (!scan_model_known(r)) return;
  scan_host_use(I, p, arg, scan_util_fmt("freed again by %s", fname));
  if (!r->freed) r->free_site = scan_front_cursor_loc(call);
  if (ok && r->free_failed) ok = scan_expr_and(ok, scan_expr_not(r->free_failed));
  const sx *now = ok ? scan_expr_and(I->reach, ok) : I->reach;
  r->freed = r->freed ? scan_expr_or(r->freed, now) : now;
  if (ok) {
    const sx *failed = scan_expr_and(I->reach, scan_expr_not(ok));
    r->free_failed = r->free_failed ? scan_expr_or(r->free_failed, failed) : failed;
  }
}

/* a copy or set of count bytes at p: an access on the host */
static void host_access(interp *I, val p, CXCursor arg, val count, scan_akind k, const char *fname) {
  if (scan_expr_is_false(I->reach)) return;
  scan_host_use(I, p, arg, scan_util_fmt(k == AK_SET ? "set by %s" : "copied by %s", fname));
  scan_access a;
  memset(&a, 0, sizeof a);
  a.loc = scan_front_cursor_loc(arg);
  a.kind = k;
  a.base = scan_front_cursor_text(scan_front_cursor_strip(arg));
  a.part = -1;
  a.reach = I->reach;
  a.taint = I->taint;
  a.ctx = -1;
  a.what = fname;
  if (p.k == V_PTR && p.region >= 0) a.reach = scan_expr_and(a.reach, scan_model_allocated(p.region));
  a.width = size64(count);
  if (!a.width) a.width = scan_expr_opaque(64, false, a.loc, "the byte count is not a value the model follows");
  if (p.k == V_ADDR && p.addr->k == LV_VAR) {
    /* a copy into or out of a variable */
    uint64_t sz = scan_front_ctype_size(p.addr->type);
    a.region = scan_model_region(RG_HOSTVAR, scan_eval_lval_name(p.addr), scan_front_cursor_loc(p.addr->decl), scan_expr_const(64, sz), scan_util_fmt("%llu", (unsigned long long)sz));
    a.off = scan_expr_const(64, 0);
  } else if (p.k == V_PTR && p.region >= 0) {
    a.region = p.region;
    a.off = p.e;
  } else {
    a.region = scan_model_unknown_region(p.k == V_PTR ? "the pointer is null" : "the pointer is not one the model follows");
    a.off = scan_expr_const(64, 0);
  }
  VEC_PUSH(scan_model_state.accesses, a);
}

static CXCursor arg(CXCursor call, int i) { return clang_Cursor_getArgument(call, (unsigned)i); }

/* a runtime copy or set the model does not follow: an unknown, not a silent pass */
static void host_unmodelled(interp *I, CXCursor call, const char *fname) {
  if (scan_expr_is_false(I->reach)) return;
  scan_access a;
  memset(&a, 0, sizeof a);
  a.loc = scan_front_cursor_loc(call);
  a.kind = AK_USE;
  a.base = clang_Cursor_getNumArguments(call) > 0 ? scan_front_cursor_text(scan_front_cursor_strip(arg(call, 0))) : fname;
  a.part = -1;
  a.reach = I->reach;
  a.taint = I->taint;
  a.ctx = -1;
  a.what = fname;
  a.why = scan_util_fmt("'%s' is not modelled, so the bytes it copies or sets are not checked", fname);
  a.region = scan_model_unknown_region(a.why);
  a.off = scan_expr_const(64, 0);
  a.width = scan_expr_const(64, 1);
  VEC_PUSH(scan_model_state.accesses, a);
}

/* 2D copies touch pitch * (height - 1) + width bytes */
static val extent_2d(val pitch, val width, val height) {
  if (pitch.k != V_INT || width.k != V_INT || height.k != V_INT) return scan_eval_val_none();
  const sx *p = scan_expr_ext(SX_ZEXT, pitch.e, 64), *w = scan_expr_ext(SX_ZEXT, width.e, 64), *h = scan_expr_ext(SX_ZEXT, height.e, 64);
  const sx *rows = scan_expr_bin(SX_MUL, p, scan_expr_bin(SX_SUB, h, scan_expr_const(64, 1)));
  return scan_eval_val_int(scan_expr_ite(scan_expr_bin(SX_EQ, h, scan_expr_const(64, 0)), scan_expr_const(64, 0), scan_expr_bin(SX_ADD, rows, w)));
}

bool scan_host_call(interp *I, CXCursor call, const char *name, CXCursor callee, val *out) {
  CXType rt = clang_getCursorType(call);
  scan_loc loc = scan_front_cursor_loc(call);
  val *a;
  int n;
  /* std::min and std::max of integers, and any other min or max of two
     integers whose body the model does not see (one it sees is followed) */
  if ((!strcmp(name, "min") || !strcmp(name, "max")) && scan_front_ctype(rt).k == CT_INT &&
      clang_Cursor_getNumArguments(call) == 2 && clang_Cursor_isNull(scan_unit_definition(callee))) {
    *out = scan_eval_minmax(I, call, name[1] == 'a', scan_front_ctype(rt).sgn);
    return true;
  }
  if (in(name, int_inputs) && scan_front_ctype(rt).k == CT_INT) {
    scan_exec_call_args(I, call, callee, &a);
    *out = input_val(I, call, rt);
    return true;
  }
  if (in(name, scans)) {
    n = scan_exec_call_args(I, call, callee, &a);
    for (int i = 1; i < n; i++)
      if (a[i].k == V_ADDR) scan_eval_lval_store(I, a[i].addr, scan_eval_val_fresh(a[i].addr->type, VK_INPUT, scan_eval_lval_name(a[i].addr), loc, NULL), call);
    *out = scan_eval_val_fresh(rt, VK_INPUT, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  /* stream >> x (std::cin, an ifstream, a stringstream): x an input, as
     scanf's; stream >> a >> b reads a in the inner call */
  if (!strcmp(name, "operator>>") && clang_Cursor_getNumArguments(call) == 2 && is_istream(clang_getCursorType(arg(call, 0)))) {
    scan_eval_expr(I, arg(call, 0));
    lval lv = scan_eval_lval(I, arg(call, 1));
    if (lv.k != LV_NONE) scan_eval_lval_store(I, &lv, scan_eval_val_fresh(lv.type, VK_INPUT, scan_eval_lval_name(&lv), loc, NULL), call);
    *out = scan_eval_val_none();
    return true;
  }
  if (!strcmp(name, "fread")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n > 0 && a[0].k == V_ADDR) scan_eval_lval_store(I, a[0].addr, scan_eval_val_fresh(a[0].addr->type, VK_INPUT, scan_eval_lval_name(a[0].addr), loc, NULL), call);
    *out = input_val(I, call, rt);
    /* it reads at most the count it was asked for */
    if (n >= 3 && a[2].k == V_INT && out->k == V_INT && out->e->op == SX_VAR && out->e->w == a[2].e->w)
      scan_expr_var_fact((int)out->e->k, scan_expr_bin(SX_ULE, out->e, a[2].e));
    return true;
  }
  if (scan_device_launch_api(I, call, name)) {
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  bool managed = !strcmp(name, "cudaMallocManaged"), pinned = !strcmp(name, "cudaMallocHost") || !strcmp(name, "cudaHostAlloc");
  if (!strcmp(name, "cudaMalloc") || !strcmp(name, "cudaMallocAsync") || managed || pinned) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 2) alloc_into(I, managed ? RG_MANAGED : pinned ? RG_PINNED : RG_DEVICE, call, a[0], arg(call, 0), arg(call, 1), a[1]);
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strcmp(name, "cudaMallocPitch")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 4 && a[2].k == V_INT && a[3].k == V_INT) {
      const char *pn = a[1].k == V_ADDR ? scan_eval_lval_name(a[1].addr) : "pitch";
      int pv = scan_expr_var_new(VK_RUNTIME, pn, 64, false, loc);
      const sx *pitch = scan_expr_var(pv), *w = size64(a[2]);
      /* the runtime pads rows to its alignment: at least the width, and by
         less than 1 KiB (the alignment is at most 512 bytes) */
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, w, pitch));
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, pitch, scan_expr_bin(SX_ADD, w, scan_expr_const(64, 1023))));
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, w, scan_expr_const(64, 1ull << 40)));
      if (a[1].k == V_ADDR) scan_eval_lval_store(I, a[1].addr, scan_eval_val_conv(scan_eval_val_int(pitch), clang_getCursorType(arg(call, 2)), a[1].addr->type, loc), call);
      const sx *size = scan_expr_bin(SX_MUL, pitch, size64(a[3]));
      val p = alloc(RG_PITCHED, call, clang_getNullCursor(), size, target_name(a[0], arg(call, 0)));
      scan_model_reg(p.region)->size_text = scan_util_fmt("%s * %s", pn, scan_front_cursor_text(arg(call, 3)));
      if (a[0].k == V_ADDR) scan_eval_lval_store(I, a[0].addr, p, call);
    }
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strcmp(name, "make_cudaExtent") && scan_front_ctype(rt).k == CT_REC) {
    /* the extent's fields as given: width in bytes, height and depth in rows and slices */
    n = scan_exec_call_args(I, call, callee, &a);
    static const char *const fields[3] = {"width", "height", "depth"};
    val r = scan_eval_val_opaque(rt, loc, "the extent is not one the model follows");
    for (int i = 0; i < 3 && i < n && r.k == V_REC; i++) {
      val f = scan_eval_rec_get(r, scan_util_intern(fields[i]));
      if (a[i].k == V_INT && f.k == V_INT) r = scan_eval_rec_set(r, scan_util_intern(fields[i]), scan_eval_val_int(scan_expr_ext(SX_ZEXT, a[i].e, f.e->w)));
    }
    *out = r;
    return true;
  }
  if (!strcmp(name, "cudaMalloc3D")) {
    /* pitch * height * depth bytes; the cudaPitchedPtr gets the pointer, the
       pitch (as for cudaMallocPitch) and the extent's width and height */
    n = scan_exec_call_args(I, call, callee, &a);
    val w = n >= 2 && a[1].k == V_REC ? scan_eval_rec_get(a[1], scan_util_intern("width")) : scan_eval_val_none();
    val h = n >= 2 && a[1].k == V_REC ? scan_eval_rec_get(a[1], scan_util_intern("height")) : scan_eval_val_none();
    val d = n >= 2 && a[1].k == V_REC ? scan_eval_rec_get(a[1], scan_util_intern("depth")) : scan_eval_val_none();
    if (a[0].k == V_ADDR && w.k == V_INT && h.k == V_INT && d.k == V_INT) {
      const char *pn = scan_util_fmt("%s.pitch", scan_eval_lval_name(a[0].addr));
      int pv = scan_expr_var_new(VK_RUNTIME, pn, 64, false, loc);
      const sx *pitch = scan_expr_var(pv), *wb = size64(w);
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, wb, pitch));
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, pitch, scan_expr_bin(SX_ADD, wb, scan_expr_const(64, 1023))));
      scan_expr_var_fact(pv, scan_expr_bin(SX_ULE, wb, scan_expr_const(64, 1ull << 40)));
      const sx *size = scan_expr_bin(SX_MUL, scan_expr_bin(SX_MUL, pitch, size64(h)), size64(d));
      val p = alloc(RG_PITCHED, call, clang_getNullCursor(), size, scan_eval_lval_name(a[0].addr));
      scan_model_reg(p.region)->size_text = scan_util_fmt("%s * height * depth of %s", pn, scan_front_cursor_text(arg(call, 1)));
      val r = scan_eval_val_opaque(a[0].addr->type, loc, "the pitched pointer is not one the model follows");
      r = scan_eval_rec_set(r, scan_util_intern("ptr"), p);
      r = scan_eval_rec_set(r, scan_util_intern("pitch"), scan_eval_val_int(pitch));
      r = scan_eval_rec_set(r, scan_util_intern("xsize"), scan_eval_val_int(wb));
      r = scan_eval_rec_set(r, scan_util_intern("ysize"), scan_eval_val_int(size64(h)));
      scan_eval_lval_store(I, a[0].addr, r, call);
    }
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strcmp(name, "malloc") || !strcmp(name, "calloc") || !strcmp(name, "aligned_alloc") || !strcmp(name, "realloc")) {
    n = scan_exec_call_args(I, call, callee, &a);
    val size = !strcmp(name, "malloc") ? a[0] : n >= 2 ? a[1] : scan_eval_val_none();
    CXCursor sa = arg(call, !strcmp(name, "malloc") ? 0 : 1);
    if (!strcmp(name, "calloc") && a[0].k == V_INT && a[1].k == V_INT)
      size = scan_eval_val_int(scan_expr_bin(SX_MUL, scan_expr_ext(SX_ZEXT, a[0].e, 64), scan_expr_ext(SX_ZEXT, a[1].e, 64)));
    if (!strcmp(name, "realloc")) free_of(I, a[0], call, arg(call, 0), name, NULL);
    const sx *s = size64(size);
    const char *nm = I->hint_name && clang_equalCursors(I->hint_call, call) ? I->hint_name : "the buffer";
    *out = alloc(RG_HOST, call, sa, s ? s : scan_expr_opaque(64, false, loc, "the allocation's size is not a value the model follows"), nm);
    return true;
  }
  if (!strcmp(name, "cudaFree") || !strcmp(name, "cudaFreeAsync") || !strcmp(name, "cudaFreeHost") || !strcmp(name, "free")) {
    n = scan_exec_call_args(I, call, callee, &a);
    *out = scan_front_ctype(rt).k == CT_VOID ? scan_eval_val_none() : scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    /* a cudaFree that failed freed nothing (CHECK(x) macros that call x again
       to print the error free twice only on that path) */
    const sx *ok = out->k == V_INT ? scan_expr_bin(SX_EQ, out->e, scan_expr_const(out->e->w, 0)) : NULL;
    /* its status is the free's condition, not an input a witness needs to name */
    if (ok && out->e->op == SX_VAR) scan_expr_var_get((int)out->e->k)->hidden = true;
    if (n >= 1) free_of(I, a[0], call, arg(call, 0), name, ok);
    return true;
  }
  bool is_memcpy = !strcmp(name, "cudaMemcpy") || !strcmp(name, "cudaMemcpyAsync") || !strcmp(name, "memcpy") || !strcmp(name, "memmove");
  if (is_memcpy) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 3) {
      host_access(I, a[0], arg(call, 0), a[2], AK_COPY_TO, name);
      host_access(I, a[1], arg(call, 1), a[2], AK_COPY_FROM, name);
    }
    *out = scan_front_ctype(rt).k == CT_INT ? scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL) : a[0];
    return true;
  }
  if (!strcmp(name, "cudaMemcpy2D") || !strcmp(name, "cudaMemcpy2DAsync")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 6) {
      host_access(I, a[0], arg(call, 0), extent_2d(a[1], a[4], a[5]), AK_COPY_TO, name);
      host_access(I, a[2], arg(call, 2), extent_2d(a[3], a[4], a[5]), AK_COPY_FROM, name);
    }
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strcmp(name, "cudaMemset") || !strcmp(name, "cudaMemsetAsync") || !strcmp(name, "memset")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 3) host_access(I, a[0], arg(call, 0), a[2], AK_SET, name);
    *out = scan_front_ctype(rt).k == CT_INT ? scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL) : a[0];
    return true;
  }
  if (!strcmp(name, "cudaMemcpyPeer") || !strcmp(name, "cudaMemcpyPeerAsync")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 5) {
      host_access(I, a[0], arg(call, 0), a[4], AK_COPY_TO, name);
      host_access(I, a[2], arg(call, 2), a[4], AK_COPY_FROM, name);
    }
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strcmp(name, "cudaMemset2D") || !strcmp(name, "cudaMemset2DAsync")) {
    n = scan_exec_call_args(I, call, callee, &a);
    if (n >= 5) host_access(I, a[0], arg(call, 0), extent_2d(a[1], a[3], a[4]), AK_SET, name);
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  if (!strncmp(name, "cu", 2) && (strstr(name, "Memcpy") || strstr(name, "Memset"))) {
    /* cudaMemcpy3D, cudaMemcpyToSymbol, cuMemcpyHtoD, ...: bytes the model does not count */
    n = scan_exec_call_args(I, call, callee, &a);
    host_unmodelled(I, call, name);
    *out = scan_eval_val_fresh(rt, VK_RUNTIME, scan_util_fmt("%s@%u", name, loc.line), loc, NULL);
    return true;
  }
  return false;
}

/* new T(args) of a class whose constructor is the user's: an object the
 * model follows, as it follows a variable (its members set by the
 * constructor, read by its methods: lulesh's `new Domain(...)`, whose
 * numNode() sizes the allocations), a new one at each new (a frame of its
 * own, never dropped). What delete does to it the model does not follow. */
static bool new_object(interp *I, CXCursor e, CXType el, val *out) {
  CXCursor *k, call = clang_getNullCursor();
  int n = scan_front_cursor_children(e, &k);
  for (int i = 0; i < n; i++) {
    if (!clang_isExpression(kind(k[i]))) continue;
    /* an array's count, a placement's address: not one object */
    if (!clang_Cursor_isNull(call) || kind(k[i]) != CXCursor_CallExpr) return false;
    call = k[i];
  }
  CXCursor ctor = clang_Cursor_isNull(call) ? call : clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ctor) || kind(ctor) != CXCursor_Constructor || clang_CXXConstructor_isCopyConstructor(ctor) ||
      clang_CXXConstructor_isMoveConstructor(ctor))
    return false;
  CXCursor def = scan_unit_method(ctor);
  if (clang_Cursor_isNull(def)) return false;
  unsigned line = scan_front_cursor_loc(e).line;
  lval lv = scan_eval_construct_on(I, scan_unit_frame(), e, el, call, ctor, def,
                                   scan_util_fmt("a member of the object made by new at line %u is not set by its constructor", line));
  *out = scan_eval_val_addr(lv);
  return true;
}

void scan_host_new(interp *I, CXCursor e, val *out) {
  CXType t = clang_getCursorType(e);
  CXType el = clang_getPointeeType(t);
  if (!I->device && new_object(I, e, el, out)) return;
  uint64_t es = scan_front_ctype_size(el);
  CXCursor *k;
  int n = scan_front_cursor_children(e, &k);
  /* new T[n]: the count is the child that is an integer expression */
  const sx *size = scan_expr_const(64, es);
  CXCursor sa = clang_getNullCursor();
  for (int i = 0; i < n; i++) {
    ctype c = scan_front_ctype(clang_getCursorType(k[i]));
    if (clang_isExpression(kind(k[i])) && c.k == CT_INT && kind(k[i]) != CXCursor_CallExpr &&
        kind(k[i]) != CXCursor_InitListExpr) {
      val v = scan_eval_expr(I, k[i]);
      if (v.k == V_INT) size = scan_expr_bin(SX_MUL, scan_expr_ext(c.sgn ? SX_SEXT : SX_ZEXT, v.e, 64), scan_expr_const(64, es));
      sa = k[i];
      break;
    }
  }
  const char *nm = I->hint_name && clang_equalCursors(I->hint_call, e) ? I->hint_name : "the buffer";
  *out = alloc(RG_HOST, e, sa, size, nm);
  if (!clang_Cursor_isNull(sa)) scan_model_reg(out->region)->size_text = scan_util_fmt("(%s) * %llu", scan_front_cursor_text(sa), (unsigned long long)es);
}

void scan_host_delete(interp *I, CXCursor e) {
  CXCursor *k;
  if (scan_front_cursor_children(e, &k) < 1) return;
  val p = scan_eval_expr(I, k[scan_front_cursor_children(e, &k) - 1]);
  free_of(I, p, e, k[0], "delete", NULL);
}
