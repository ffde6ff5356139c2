/* scan_interp.h: the symbolic interpreter that builds the model. It walks host
 * code from its entry points and, at each launch, the kernel's body for one
 * generic thread of that launch. Values are expression trees; control flow is
 * kept as a path condition (reach) that guards every access recorded; the two
 * arms of an if are joined with if-then-else terms; a loop's body runs once
 * for an arbitrary iteration, its counter a variable bounded by the loop's
 * start and condition, what else the loop changes made opaque. */
#ifndef GSAN_SCAN_INTERP_H
#define GSAN_SCAN_INTERP_H

#include "scan_front.h"

typedef VEC(CXCursor) cursor_vec;

typedef enum { V_NONE, V_INT, V_PTR, V_REC, V_FLOAT, V_ADDR } vkind;

typedef struct rec rec;
typedef struct lval lval;

typedef struct val {
  vkind k;
  const sx *e;       /* V_INT: the value (bool: width 1); V_PTR: byte offset, 64-bit */
  int region;        /* V_PTR: -1 for a null pointer */
  int part;          /* V_PTR: the partition it was carved as, or -1 */
  const rec *r;      /* V_REC */
  const lval *addr;  /* V_ADDR: the address of a variable (or of a field of one) */
} val;

struct rec {
  int n;
  const char **names;
  val *vals;
};

typedef enum { LV_NONE, LV_VAR, LV_MEM } lvkind;

#define LV_PATH 6
struct lval {
  lvkind k;
  unsigned frame;          /* LV_VAR */
  CXCursor decl;           /* LV_VAR */
  int npath;               /* LV_VAR: fields below the variable */
  const char *path[LV_PATH];
  val ptr;                 /* LV_MEM: the address */
  CXType type;             /* the object's type */
  const char *why;         /* LV_NONE */
};

/* variable bindings of every frame on the stack; copied at forks */
typedef struct env env;
env *scan_env_new(void);
env *scan_env_copy(const env *e);
unsigned long scan_env_copied(void); /* bindings copied by scan_env_copy so far in the run */
val *scan_env_get(env *e, unsigned frame, CXCursor decl);
void scan_env_put(env *e, unsigned frame, CXCursor decl, val v);
/* *into = c ? a : b, binding by binding */
env *scan_env_merge(const sx *c, env *a, env *b, scan_loc at);
void scan_env_drop(env *e, unsigned frame); /* a returned call's bindings */

typedef struct ret_item {
  const sx *reach;
  val v;
} ret_item;

typedef struct frame {
  unsigned id;
  CXCursor fn;
  CXType ret_type;
  VEC(ret_item) rets;
  const char *why; /* set: every access in this function is reported unknown */
  bool in_part;    /* a function with errors in its statements, which are skipped (scan_front_stmt_skipped) */
  val self;        /* a method's object: the address of a variable, or V_NONE */
  const sx *gone;  /* the paths that left by goto, and their bindings: they */
  env *gone_env;   /* join every label after (the function is unknown anyway) */
  struct frame *up;
} frame;

typedef struct jump {
  const sx *brk, *cont;  /* reach at break / continue */
  env *brk_env;          /* switch: the bindings at each break, joined */
  bool is_switch;
  bool once;             /* do { } while (0): continue leaves too */
  struct jump *up;
} jump;

/* the last store to a thread's local array on the path being interpreted
   (scan_eval.c: a load of the same element after it, on a path that implies
   the store's, reads the value stored) */
typedef struct {
  int region;
  const sx *off, *v, *reach;
} local_store;

typedef struct interp {
  env *env;
  const sx *reach;
  bool device;
  int ctx;            /* launch context (device code) */
  frame *fr;
  jump *jmp;
  int depth;
  unsigned long steps;   /* expressions and statements interpreted from this entry point */
  unsigned long copied0; /* scan_env_copied() when it began: with steps, the work --max-steps bounds */
  CXCursor hint_call; /* an input read by this call takes the name hint_name */
  const char *hint_name;
  CXCursor hint_decl; /* the variable hint_call initialises (a constructor's object) */
  val self_arg;       /* the object of the method scan_exec_call_user enters next */
  VEC(local_store) stores; /* per local array; emptied at calls and around loop bodies */
  bool trial;         /* a loop's body run to test invariants (scan_exec.c): loops in it infer none */
  const char *taint;  /* a statement with errors was skipped before (why): what comes after is
                         proved or left unknown, never reported; a launch passes it on */
} interp;

/* ---- values (scan_eval.c) ---- */
val scan_eval_val_int(const sx *e);
val scan_eval_val_none(void);
val scan_eval_val_float(void);
val scan_eval_val_ptr(int region, const sx *off);
val scan_eval_minmax(interp *I, CXCursor call, bool is_max, bool sgn);
val scan_eval_val_addr(lval lv);
/* A user's constructor (def, of ctor, called by call) run on the object that
   is variable key of frame fr, whose members start with no value (unset
   says why, for one the constructor leaves so): its lvalue */
lval scan_eval_construct_on(interp *I, unsigned fr, CXCursor key, CXType t, CXCursor call, CXCursor ctor, CXCursor def,
                            const char *unset);
val scan_eval_val_unknown_ptr(const char *why);
val scan_eval_val_opaque(CXType t, scan_loc loc, const char *why);
/* a value of type t made of fresh variables of kind k (loaded, input, opaque) */
val scan_eval_val_fresh(CXType t, scan_vkind k, const char *name, scan_loc loc, const char *why);
val scan_eval_val_conv(val v, CXType from, CXType to, scan_loc loc);
const sx *scan_eval_val_cond(val v, scan_loc loc); /* a scalar as a condition (!= 0) */
const sx *scan_eval_val_to64(val v, bool sgn);     /* an integer widened to 64 bits */
bool scan_eval_val_same(val a, val b);
val scan_eval_val_merge(const sx *c, val a, val b, scan_loc at);
val scan_eval_rec_get(val r, const char *field);
val scan_eval_rec_set(val r, const char *field, val v);
val scan_eval_rec_from_type(CXType t, val (*field)(CXType ft, const char *name, void *arg), void *arg);

/* Expressions, statements and the calls the interpreter follows are
   interpreted recursively: past INTERP_MAX_NEST levels of them together
   (scan_exec.c) a program would run gsan scan out of stack. There
   scan_exec_nest_enter returns why: the construct is not interpreted (an expression
   is an opaque value), an access of unknown extent is recorded at it, and
   every later access of the functions being interpreted is reported
   unknown, as for a function that uses goto. Otherwise it returns NULL and
   scan_exec_nest_leave follows. */
#define INTERP_MAX_NEST 400
const char *scan_exec_nest_enter(interp *I, CXCursor at);
void scan_exec_nest_leave(void);

val scan_eval_expr(interp *I, CXCursor e);
lval scan_eval_lval(interp *I, CXCursor e);
val scan_eval_lval_load(interp *I, const lval *lv, CXCursor at);
/* forgets every local store (a call, a loop body that runs again) */
void scan_eval_forget_stores(interp *I);
void scan_eval_lval_store(interp *I, const lval *lv, val v, CXCursor at);
val scan_eval_lval_address(interp *I, const lval *lv); /* &object */
const char *scan_eval_lval_name(const lval *lv);        /* 'x', 'cfg.n' */
/* the access of width bytes at ptr, made at cursor at */
void scan_eval_record_access(interp *I, val ptr, uint64_t width, scan_akind kind, CXCursor at, const char *base);
/* the same for width bytes counted at run time (memcpy in a kernel), made by the call 'what' */
void scan_eval_record_access_n(interp *I, val ptr, const sx *width, unsigned elem, scan_akind kind, CXCursor at, const char *what);
/* a pointer into an allocation passed to the device function 'what', whose body is not seen */
void scan_eval_record_opaque_use(interp *I, val ptr, CXCursor at, const char *what);
const char *scan_eval_pointer_text(CXCursor at); /* the pointer an access goes through, as written */

/* ---- statements and calls (scan_exec.c) ---- */
void scan_exec_stmt(interp *I, CXCursor s);
val scan_exec_call_user(interp *I, CXCursor def, const val *args, int nargs, CXCursor call);
/* the arguments of a call, as values (lvalue addresses for reference parameters) */
int scan_exec_call_args(interp *I, CXCursor call, CXCursor callee, val **out);
void scan_exec_declare_var(interp *I, CXCursor decl);
/* the variables a statement may change (syntactically), for loops */
void scan_exec_modified_vars(CXCursor s, cursor_vec *out);

/* ---- arrays of constants nothing writes (scan_tables.c) ---- */
/* declaration D's array, region R: its elements' range (and the elements of a
   short one) when its initializer lists integer constants and nothing writes it */
void scan_tables_values(CXCursor d, scan_region *r);
/* global integer D (a host variable) is never written and has a constant
   initializer: its value is that constant */
bool scan_tables_fixed_scalar(CXCursor d);
void scan_tables_reset(void);
/* an element of type T (R's element type) read at byte offset OFF (64-bit)
   of R (has_vals): the exact value for a short table, else an opaque value
   in [lo, hi] whose reason names the array */
const sx *scan_tables_read(const scan_region *r, const sx *off, ctype t, scan_loc loc);

/* ---- known functions (scan_host.c, scan_device.c) ---- */
/* handles a call to a function the model knows by name; false if it does not */
bool scan_host_call(interp *I, CXCursor call, const char *name, CXCursor callee, val *out);
/* a host use of an allocation that must come before its free (a launch
   argument, a copy, a second free): recorded where it may be freed already */
void scan_host_use(interp *I, val p, CXCursor at, const char *what);
bool scan_device_call(interp *I, CXCursor call, const char *name, CXCursor callee, val *out);
bool scan_host_noreturn_name(const char *name);
void scan_host_new(interp *I, CXCursor e, val *out);

/* ---- std::vector (scan_stl.c) ---- */
/* a vector built by a constructor the model follows (count, count and value,
   empty, a copy): true and *out, its value */
bool scan_stl_construct(interp *I, CXCursor e, CXCursor ctor, val *out);
/* a method (or member operator) called on a host vector variable: size(),
   empty(), data() of one the model follows; resize(n); anything else that
   may change it makes it opaque. False: not a vector, or a call such as
   begin() or operator[] that the caller handles as before */
bool scan_stl_method(interp *I, CXCursor e, CXCursor callee, val *out);
/* call is a std::vector method that may change the vector (push_back,
   resize, assign...): true, and *obj the object expression (for the
   variables a loop changes) */
bool scan_stl_changes(CXCursor call, CXCursor *obj);
void scan_host_delete(interp *I, CXCursor e);

/* ---- kernels (scan_device.c) ---- */
bool scan_device_is_launch(CXCursor call, CXCursor *config);
void scan_device_launch(interp *H, CXCursor call, CXCursor config);
/* cudaLaunchKernel and cudaLaunchCooperativeKernel: a launch where the kernel and its
   argument array are ones the model follows; true if 'name' is one of them */
bool scan_device_launch_api(interp *H, CXCursor call, const char *name);
/* a kernel (or device function) with no launch seen: an arbitrary launch */
void scan_device_run_free(CXCursor fn);
/* threadIdx.x and the like; false when e is not one */
bool scan_device_builtin_var(interp *I, CXCursor e, val *out);
/* a shared, dynamic shared or local array declared in a kernel */
int scan_device_array(interp *I, CXCursor decl, CXType t);
/* a pointer variable initialised from a shared or local array: a partition */
val scan_device_partition(interp *I, CXCursor decl, val v);
int scan_device_launch_count(CXCursor kernel);

void scan_exec_reset(void); /* scan_reset's share: the loops whose invariants came to nothing */

/* ---- relations a loop keeps (scan_invariant.c) ---- */
typedef struct {
  const sx *entry; /* the value before the loop */
  const sx *x;     /* the opaque value at the top of an iteration */
  bool sgn;
  bool counter;    /* the loop's counter (its own facts bound it) */
} scan_inv_var;
typedef struct scan_inv scan_inv;
/* the candidates over n variables (kept by the caller) that hold at entry */
scan_inv *scan_invariant_new(const scan_inv_var *vars, int n, const sx *entry_reach);
int scan_invariant_count(const scan_inv *v);
/* every candidate left, of the x values: what a trial of the body assumes */
const sx *scan_invariant_assumed(const scan_inv *v);
/* drops the candidates that the values at the back edge (next[i]; NULL: not
   an integer there) do not keep under back, the reach there; true when none was */
bool scan_invariant_step(scan_inv *v, const sx *back, const sx *const *next);
/* the candidates left, of vals (NULL: skipped), as facts of those that are variables */
void scan_invariant_attach(const scan_inv *v, const sx *const *vals);

/* ---- the whole program (scan_unit.c) ---- */
unsigned scan_unit_frame(void); /* a fresh frame id */
void scan_unit_reset(void);     /* scan_reset's share */
void scan_unit_entered(CXCursor def); /* the interpreter runs def's body */
/* which of the n units are one program: program[i] is the same for units the
   linker would join (one names a function only the other defines) */
void scan_unit_programs(scan_tu *t, int n, int *program);
/* the n translation units of one program, analysed together */
void scan_unit_analyse(scan_tu *t, int n);
/* the definition of a function in user code, in any unit of the program, or a null cursor */
const char *scan_unit_usr(CXCursor c); /* a declaration's identity across units, interned */
CXCursor scan_unit_definition(CXCursor callee);
/* the same for a method or a constructor, which run on an object */
CXCursor scan_unit_method(CXCursor callee);

#endif
