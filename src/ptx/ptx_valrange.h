/* Value ranges (ptx_valrange.c): the offsets from a variable that an
 * access's address register can hold, from the instructions that compute
 * it, so that an access no value can take out of its variable needs no
 * check at all. */
#ifndef GSAN_PTX_VALRANGE_H
#define GSAN_PTX_VALRANGE_H

#include "ptx_ir.h"

typedef struct ptx_valrange ptx_valrange;

/* for function fn (built: fn->ok); freed with ptx_valrange_free */
ptx_valrange *ptx_valrange_new(ptx_fn *fn);
void ptx_valrange_free(ptx_valrange *v);

/* 1 when every address that register reg can hold at statement stmt,
 * plus lo and up to plus hi (an access's bytes: its immediate, and its
 * immediate plus its width), lies inside variable sym (a static size);
 * 0 when that is not shown. */
int ptx_valrange_inside(ptx_valrange *v, int stmt, int reg, int64_t lo, int64_t hi, const ptx_symbol *sym);

#endif
