/* Use-after-scope (ptx_scope.c, docs/ptx.md "Use-after-scope"). The scan
 * says whether any function lets a generic address of its frame escape
 * (and counts those functions); only then do accesses through possibly-
 * local pointers get a check (ROOT_FRAME: the word under the address holds
 * the poison a returning frame leaves), and functions whose own locals
 * escape clear them at entry and poison them at every return. */
#ifndef GSAN_PTX_SCOPE_H
#define GSAN_PTX_SCOPE_H

#include "ptx_buf.h"
#include "ptx_fstate.h"

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
