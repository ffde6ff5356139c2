/* The launch-bounds copy of a kernel (ptx_launch.c, docs/abi.md "Launch
 * bounds"): the kernel's parameter layout, which parameter loads are
 * pointer words of it, and the copy's header. */
#ifndef GSAN_PTX_LAUNCH_H
#define GSAN_PTX_LAUNCH_H

#include "ptx.h"

typedef struct ptx_lparams ptx_lparams;
/* the kernel's parameter layout, as ptxas lays it out; NULL when f is not a
 * kernel or a parameter is of a form this does not know */
ptx_lparams *ptx_launch_params(ptx_arena *a, const ptx_func *f);
/* the word of __gsan_lb that def's pointer is described by: def loads 8
 * aligned bytes of a parameter of lp; -1 otherwise (or when lp is NULL) */
int ptx_launch_word(const ptx_lparams *lp, const ptx_stmt *def);
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

#endif
