/* The instrumenter's interface (gsan ptx, libgsan's JIT path): options,
 * statistics, and the call that instruments a module. What the passes share
 * inside it: ptx_check.h (the check records), ptx_fstate.h (the state of
 * the function being rewritten). */
#ifndef GSAN_PTX_INSTR_H
#define GSAN_PTX_INSTR_H

#include "ptx_ir.h"

#include <gsan/abi.h>

/* ptx_opts.spaces with every state space checked (the default) */
#define PTX_SPACES_ALL                                                                                           \
  ((1u << GSAN_SPACE_GLOBAL) | (1u << GSAN_SPACE_SHARED) | (1u << GSAN_SPACE_LOCAL) | (1u << GSAN_SPACE_GENERIC) | \
   (1u << GSAN_SPACE_CONST))

typedef struct ptx_opts {
  unsigned spaces;      /* bit (1 << enum gsan_space) set = checked */
  int recover;          /* failed checks skip the access instead of trapping */
  int no_elim;          /* keep every check (for measurements) */
  int no_launch_bounds; /* write no launch-bounds copies of kernels (docs/abi.md) */
  int no_launch_proofs; /* write no proven copies of kernels (docs/abi.md "Launch proofs") */
  int frame_arrays;     /* experiment: bound a local access by its array in the frame, not the whole
                         * frame (docs/ptx.md, "Frame-local arrays"); off by default */
  uint64_t module_id;   /* 0 = hash of the input */
} ptx_opts;

typedef struct ptx_stats {
  long seen[6];         /* accesses per enum gsan_space */
  long checked[6];      /* accesses covered by a check, per space */
  long checks;          /* checks emitted */
  long removed_dominated;
  long removed_merged;
  long removed_chained; /* merged along a stride chain (address registers one step apart) */
  long removed_family;  /* merged into a clamped family's check (ptx_family.c) */
  long static_safe;     /* [symbol+imm] proven in bounds at compile time */
  long range_safe;      /* [register+imm] proven in bounds by its values (ptx_valrange.c) */
  long static_oob;      /* [symbol+imm] proven out of bounds: always fails */
  long unchecked_noroot;      /* shared/local access whose root is unknown */
  long unchecked_unsupported; /* instruction gsan cannot check */
  long unchecked_extern;      /* extern variable of unknown size */
  long not_requested;   /* in a space excluded by the options */
  long lookups_root;    /* arena lookups placed at a root's definition */
  long lookups_access;  /* arena lookups placed at the access */
  long hoisted_uses;    /* checks served by a lookup at the root */
  long loops_versioned; /* loops with a copy that runs without their hoisted checks */
  long checks_hoisted;  /* checks made once before such a loop instead of every iteration */
  long checks_guarded;  /* of them, checked over the iterations their guard lets through */
  long funcs;
  long funcs_fallback;  /* CFG not analysable: per-access lookups */
  long sites;
  long scope_funcs;     /* functions whose locals escape as generic pointers */
  long scope_checks;    /* use-after-scope checks (ptx_scope.c) */
  long launch_copies;   /* kernels with a launch-bounds copy (ptx_launch.c) */
  long proven_copies;   /* kernels with a proven copy (ptx_proof.c) */
  long proven_checks;   /* checks left out of the proven copies: facts the runtime tests at launch */
  long frame_array_checks; /* --frame-arrays: local checks bounded by one array of the frame */
} ptx_stats;

/* Instruments every function of m in place (docs/ptx.md); 0, or -1 with
 * an error reported through d when the module is refused. */
int ptx_instrument(ptx_module *m, const ptx_opts *o, ptx_stats *st, ptx_diag *d);
/* ptx_stats.c: --stats */
void ptx_stats_print(FILE *f, const ptx_stats *st);

#endif
