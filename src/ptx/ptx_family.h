/* Clamped families (ptx_family.c, docs/ptx.md "Check elimination"): the
 * expressions of a family's addresses, whether a group of checks is one,
 * and those expressions written out as PTX. ptx_elim.c forms the groups;
 * ptx_emit.c writes the family's check and stub. */
#ifndef GSAN_PTX_FAMILY_H
#define GSAN_PTX_FAMILY_H

#include "ptx_buf.h"
#include "ptx_fstate.h"

/* The address register reg holds at statement use, as an expression over
 * registers that hold the same value at statement at (one block); NULL if
 * there is none. memo: one entry per statement of the block, zeroed, kept
 * for calls with the same at. */
ptx_fx *ptx_family_expr(ptx_fn *fn, ptx_fx **memo, int reg, int use, int at);
int ptx_family_same_shape(const ptx_fx *a, const ptx_fx *b);
/* The corners and no-wrap tests that bound the n member addresses x
 * between them, or NULL when that cannot be shown. */
ptx_family *ptx_family_plan(ptx_arena *a, ptx_fx **x, int n);

/* A family member's expression as an operand, computed into fresh
 * registers; op(a, b) without the constant added. Values are written once
 * per fs->family.gen: the stub reuses those its check computed. */
const char *ptx_family_value(ptx_fstate *fs, ptx_buf *b, ptx_fx *x);
const char *ptx_family_core(ptx_fstate *fs, ptx_buf *b, ptx_fx *x);

#endif
