/* Check elimination (ptx_elim.c, docs/ptx.md "Check elimination"): the
 * function's checks are dropped and merged in place (removed set, members
 * added to the check that covers them). */
#ifndef GSAN_PTX_ELIM_H
#define GSAN_PTX_ELIM_H

#include "ptx_check.h"
#include "ptx_instr.h"

/* drop and merge checks in place; then, once the loops' pre-checks are
 * planned, merge the remaining checks along stride chains */
void ptx_eliminate(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);
void ptx_merge_chains(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);
/* ... and last, clamped families: checks of one block whose addresses are
 * one expression with different constants added inside (ptx_family.c) */
void ptx_merge_families(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);

#endif
