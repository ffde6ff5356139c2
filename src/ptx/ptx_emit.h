/* Text generation for the instrumenter (ptx_emit.c): the lookup after a
 * root's definition, the compare-and-branch before an access, the failure
 * stub, the function's prologue and report block. The registers it uses
 * are ptx_fstate.h's. */
#ifndef GSAN_PTX_EMIT_H
#define GSAN_PTX_EMIT_H

#include "ptx_buf.h"
#include "ptx_fstate.h"

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
/* function-entry code: declarations, and every root starting out unchecked */
void ptx_emit_prologue(ptx_fstate *fs, ptx_buf *b);

#endif
