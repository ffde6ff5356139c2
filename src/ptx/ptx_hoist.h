/* Loops whose affine accesses are checked before they run (ptx_hoist.c,
 * docs/ptx.md "Loops checked before they run"). Its plan lives in
 * fs->hoist, from ptx_hoist_plan to ptx_hoist_free. */
#ifndef GSAN_PTX_HOIST_H
#define GSAN_PTX_HOIST_H

#include "ptx_buf.h"
#include "ptx_fstate.h"

/* the loops to copy, and their checks marked hoisted */
void ptx_hoist_plan(ptx_fstate *fs);
/* the pre-checks, into pre[statement]; the checks of each loop's copy,
 * numbered from *next_id, with their stubs into stub[statement] */
void ptx_hoist_checks(ptx_fstate *fs, ptx_buf *pre, ptx_buf *stub, int *next_id);
/* the root lookups inside each loop's copy */
void ptx_hoist_lookups(ptx_fstate *fs);
/* after statement stmt of the function: the copy of a loop it ends */
void ptx_hoist_tail(ptx_fstate *fs, int stmt, ptx_vec *out);
void ptx_hoist_free(ptx_fstate *fs);

#endif
