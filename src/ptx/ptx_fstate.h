/* The instrumenter's state while it rewrites one function (ptx_instrument.c
 * owns it and drives the passes over it). The module's context comes
 * first, then the function's analysis, checks, root lookups and registers,
 * which every pass reads; then one group of fields per pass, named after
 * the pass whose work it serves, each saying who sets what. */
#ifndef GSAN_PTX_FSTATE_H
#define GSAN_PTX_FSTATE_H

#include "ptx_check.h"
#include "ptx_instr.h"
#include "ptx_sites.h"

/* the passes' own state, opaque here */
struct ptx_hoist;   /* ptx_hoist.c */
struct ptx_lparams; /* ptx_launch.c */
struct ptx_proof;   /* ptx_proof.c */

/* Registers of the generated code: %gsan_rd<N> (64-bit), %gsan_r<N> (32-bit),
 * %gsan_p<N> (predicates), declared by ptx_emit_prologue. Fixed temporaries
 * first; registers handed out per function (ptx_fstate.nrd, .nr32) start
 * at RD_FIRST_ROOT and R_FIRST_FREE. A_* are the failure stub's call
 * arguments. */
enum { T_ADDR = 0, T_OFF, T_CNT, T_BASE, T_SIZE, T_L0, T_L1, T_L2, T_L3, T_L4, T_L5, T_S0, T_S1, T_S2, T_S3,
       A_MOD, A_ADDR, A_BASE, A_SIZE, A_WIDTH, RD_FIRST_ROOT };
enum { R_L0 = 0, R_L1, R_L2, R_L3, R_DYN, R_SITE, R_H0, R_H1, R_H2, R_FIRST_FREE };
/* P_HOIST: a loop's pre-check failed; P_TRIP: a step of its trip count */
enum { P_LOOKUP = 0, P_CHECK, P_STUB, P_HOIST, P_TRIP, P_FIRST_FREE };

/* an arena root: its lookup registers and the widths checked against it */
typedef struct ptx_root_slot {
  int def;            /* definition index */
  int reg;            /* register holding the root value */
  int base, size;     /* %gsan_rd indices */
  int widths[8], cnt[8], nw;
} ptx_root_slot;

typedef struct ptx_fstate {
  /* the module's, for every function */
  ptx_module *m;
  const ptx_opts *o;
  ptx_stats *st;      /* a copy's rewrite counts into a scratch one */
  ptx_diag *d;
  ptx_sites *sites;
  uint64_t modid;

  /* the function being rewritten */
  ptx_fn fn;
  ptx_rootwalk *rw;
  ptx_check *c;       /* its checks, in program order */
  int nc, capc;
  ptx_root_slot *roots; /* arena roots looked up once, at their definition */
  int nroots;
  int nrd;            /* %gsan_rd registers used */
  int nr32;           /* %gsan_r registers used */
  ptx_site_log site_log; /* its sites, in order, which its copies take again */

  /* ptx_family.c: the emission whose values ptx_fx nodes remember
   * (ptx_family_value); ptx_emit.c starts a new one for each clamped
   * family's check and stub */
  struct { int gen; } family;
  /* ptx_hoist.c: loops checked before they run (its plan, NULL when none) */
  struct ptx_hoist *hoist;
  /* ptx_scope.c: a local address escapes somewhere in the module
   * (ptx_scope_scan), this function's own locals do (ptx_scope_frame);
   * ptx_instrument.c sets both. labels: numbers the code ptx_scope.c
   * inserts */
  struct { int module, self, labels; } scope;
  /* ptx_launch.c, the launch-bounds copy: the kernel's parameter layout
   * (NULL: not a kernel, or no copy wanted) and 1 while a copy is written
   * (the proven copy too), both set by ptx_instrument.c; the words of
   * __gsan_lb the roots read, counted by ptx_emit_root_lookup */
  struct { const struct ptx_lparams *params; int copy, words; } launch;
  /* ptx_proof.c, the proven copy: 1 while it is written, and its plan
   * (ptx_proof_plan), set by ptx_instrument.c */
  struct { int copy; struct ptx_proof *plan; } proof;
  /* ptx_heap.c: this function's malloc/free calls (ptx_heap_site*), and
   * the wrappers (1 << PTX_HEAP_*) the module needs, which
   * ptx_instrument.c collects with the accesses */
  struct { ptx_vec calls; unsigned used; } heap;
} ptx_fstate;

#endif
