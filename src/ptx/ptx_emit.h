/* Text generation for the instrumenter: the lookup after a root's
 * definition, the compare-and-branch before an access, the failure stub. The
 * register conventions of the generated code live here. */
#ifndef GSAN_PTX_EMIT_H
#define GSAN_PTX_EMIT_H

#include "ptx_instr.h"

/* a growing text buffer */
typedef struct ptx_buf { char *p; size_t n, cap; } ptx_buf;
void ptx_bprintf(ptx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* an arena root: its lookup registers and the widths checked against it */
typedef struct ptx_root_slot {
  int def;            /* definition index */
  int reg;            /* register holding the root value */
  int base, size;     /* %gsan_rd indices */
  int widths[8], cnt[8], nw;
} ptx_root_slot;

/* the instrumenter's state for the function being rewritten */
typedef struct ptx_fstate {
  ptx_module *m;
  const ptx_opts *o;
  ptx_stats *st;
  ptx_diag *d;
  ptx_sites *sites;
  ptx_fn fn;
  ptx_rootwalk *rw;
  ptx_check *c;
  int nc, capc;
  ptx_root_slot *roots;
  int nroots;
  int nrd;            /* %gsan_rd registers used */
  int nr32;           /* %gsan_r registers used */
  int fx_gen;         /* clamped families: the emission whose values ptx_fx nodes remember */
  uint64_t modid;
  struct ptx_hoist *hoist; /* loops checked before they run (ptx_hoist.c) */
  int scope;          /* a local address escapes somewhere in the module (ptx_scope.c) */
  int scope_self;     /* ... and this function's own locals do */
  int scope_labels;   /* labels of the code ptx_scope.c inserts */
  /* the launch-bounds copy (ptx_launch.c): the kernel's parameter layout
   * (NULL: not a kernel, or no copy wanted), 1 while the copy is written,
   * and the words of __gsan_lb its roots read */
  const struct ptx_lparams *lb_params;
  int lb_copy, lb_words;
  /* the proven copy (ptx_proof.c): 1 while it is written, and its facts */
  int lp_copy;
  struct ptx_proof *proof;
  /* sites the kernel registered, in order, which its copy registers again:
   * it reuses their numbers, so that both report the same site */
  int *site_log, nsite_log, cap_site_log, site_replay;
  ptx_vec heap_calls;      /* ptx_heap_site*: this function's malloc/free calls */
  unsigned heap_used;      /* 1 << PTX_HEAP_*: wrappers the module needs */
} ptx_fstate;

/* The module's site for an access of the function being rewritten (the
 * kernel's own number again while its launch-bounds copy is written). */
int ptx_site(ptx_fstate *fs, const ptx_site_desc *sd);

/* ptx_launch.c: the launch-bounds copy of a kernel (docs/abi.md) */
typedef struct ptx_lparams ptx_lparams;
/* the kernel's parameter layout, as ptxas lays it out; NULL when f is not a
 * kernel or a parameter is of a form this does not know */
ptx_lparams *ptx_launch_params(ptx_arena *a, const ptx_func *f);
/* the word of __gsan_lb that def's pointer is described by: def loads 8
 * aligned bytes of a parameter; -1 otherwise (or when no copy is written) */
int ptx_launch_word(const ptx_fstate *fs, const ptx_stmt *def);
/* a copy of f whose statements may be rewritten without touching f's */
ptx_func *ptx_launch_clone(ptx_arena *a, const ptx_func *f);
/* gives the copy its name (prefix + the kernel's) and the __gsan_lb
 * parameter of words entries; -1 (no copy) when the parameters would pass
 * GSAN_LAUNCH_MAX_BYTES */
int ptx_launch_finish(ptx_arena *a, ptx_func *copy, const ptx_lparams *lp, int words, const char *prefix);
/* ld.param of bytes bytes at [param+off] of the kernel's own parameter
 * index: 0 and both set; -1 for anything else */
int ptx_launch_param_at(const ptx_lparams *lp, const ptx_stmt *def, int bytes, int *index, int64_t *off);
int ptx_launch_nparams(const ptx_lparams *lp);

/* ptx_proof.c: launch proofs (docs/abi.md "Launch proofs"). In the proven
 * copy's rewrite, the checks the runtime can decide at launch become facts
 * and are marked removed (ptx_proof_plan, after elimination and before the
 * loops' plan); ptx_proof_decl writes the facts blob for the module. */
typedef struct ptx_proof ptx_proof;
ptx_proof *ptx_proof_plan(ptx_fstate *fs);
int ptx_proof_facts(const ptx_proof *p);
/* linkage: the kernel's (".visible", ".weak" or "") */
char *ptx_proof_decl(ptx_arena *a, const ptx_proof *p, const char *kernel, const char *linkage);
void ptx_proof_free(ptx_proof *p);

/* ptx_heap.c: in-kernel malloc/free through gsan's device heap */
enum { PTX_HEAP_NONE = 0, PTX_HEAP_MALLOC, PTX_HEAP_ALIGNED, PTX_HEAP_FREE };
typedef struct ptx_heap_site { ptx_stmt *s; int which, site; } ptx_heap_site;
/* which of malloc, the aligned variant or free the statement calls */
int ptx_heap_call(const ptx_stmt *s);
/* the call rewritten to gsan's wrapper, with the module id and site */
char *ptx_heap_rewrite(ptx_arena *a, const ptx_stmt *s, int which, uint64_t modid, int site);
/* the wrappers' prototypes (before the first function) and definitions
 * (at the end) for the calls in used */
char *ptx_heap_decls(ptx_arena *a, unsigned used);
char *ptx_heap_defs(ptx_arena *a, unsigned used);

/* Registers of the generated code: %gsan_rd<N> (64-bit), %gsan_r<N> (32-bit),
 * %gsan_p<N> (predicates). Fixed temporaries first; root registers are
 * numbered from RD_FIRST_ROOT. A_* are the failure stub's call arguments. */
enum { T_ADDR = 0, T_OFF, T_CNT, T_BASE, T_SIZE, T_L0, T_L1, T_L2, T_L3, T_L4, T_L5, T_S0, T_S1, T_S2, T_S3,
       A_MOD, A_ADDR, A_BASE, A_SIZE, A_WIDTH, RD_FIRST_ROOT };
enum { R_L0 = 0, R_L1, R_L2, R_L3, R_DYN, R_SITE, R_H0, R_H1, R_H2, R_FIRST_FREE };
/* P_HOIST: a loop's pre-check failed; P_TRIP: a step of its trip count */
enum { P_LOOKUP = 0, P_CHECK, P_STUB, P_HOIST, P_TRIP, P_FIRST_FREE };

void ptx_emit_check(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id);
void ptx_emit_stub(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id);
/* Without --recover, stubs end in one block per function that reports and
 * traps (ptx_emit_stub); emitted once, at the function's end. */
#define PTX_REPORT_LABEL "$L__gsan_report"
void ptx_emit_report_block(ptx_buf *b);
/* tag tells the copies of one lookup apart (0: the original, n: loop copy n) */
void ptx_emit_root_lookup(ptx_fstate *fs, ptx_buf *b, const ptx_root_slot *r, const ptx_stmt *def, int tag);
/* "bad |= the access of c at address addr leaves its bounds": c's test on
 * another address (of abits bits: a 32-bit check's bounds are widened for a
 * 64-bit address), accumulated in predicate %gsan_p<bad> */
void ptx_emit_test_or(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const char *addr, int abits, int bad);
/* the address of c's first byte as an operand (its register plus c->lo) */
const char *ptx_emit_check_addr(ptx_fstate *fs, ptx_buf *b, const ptx_check *c);
/* generated text as one statement of the output (nothing analyses it again) */
void ptx_emit_text(ptx_fstate *fs, ptx_vec *out, ptx_buf *b, int scope);

/* ptx_family.c: a family member's expression as an operand, computed into
 * fresh registers; op(a, b) without the constant added. Values are written
 * once per fs->fx_gen: the stub reuses those its check computed. */
const char *ptx_family_value(ptx_fstate *fs, ptx_buf *b, ptx_fx *x);
const char *ptx_family_core(ptx_fstate *fs, ptx_buf *b, ptx_fx *x);

/* ptx_hoist.c: loops whose affine accesses are checked before they run */
void ptx_hoist_plan(ptx_fstate *fs);
void ptx_hoist_checks(ptx_fstate *fs, ptx_buf *pre, ptx_buf *stub, int *next_id);
void ptx_hoist_lookups(ptx_fstate *fs);
void ptx_hoist_tail(ptx_fstate *fs, int stmt, ptx_vec *out);
void ptx_hoist_free(ptx_fstate *fs);
/* function-entry code: declarations, and every root starting out unchecked */
void ptx_emit_prologue(ptx_fstate *fs, ptx_buf *b);

/* ptx_scope.c: use-after-scope. The scan says whether any function lets a
 * generic address of its frame escape (and counts those functions); only
 * then do accesses through possibly-local pointers get a check (ROOT_FRAME:
 * the word under the address holds the poison a returning frame leaves),
 * and functions whose own locals escape clear them at entry and poison them
 * at every return. */
#define PTX_SCOPE_POISON 0xdead5c0fu
int ptx_scope_scan(ptx_module *m, ptx_stats *st);
/* 1 if f's own locals escape (a .func in a module with escapes) */
int ptx_scope_frame(ptx_fstate *fs, const ptx_func *f);
/* 1 and *out filled (its own site) if access c needs a use-after-scope check */
int ptx_scope_check(ptx_fstate *fs, const ptx_check *c, ptx_site_desc sd, ptx_check *out);
/* %gsan_p<pred> = the access of c at addr reads a poisoned word */
void ptx_scope_test(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const char *addr, int pred);
/* registers, and the clearing of the function's locals, at entry */
void ptx_scope_prologue(ptx_fstate *fs, ptx_buf *b);
/* the poisoning before each ret, into pre[statement] */
void ptx_scope_exits(ptx_fstate *fs, ptx_buf *pre);

#endif
