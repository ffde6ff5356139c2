/* In-kernel malloc/free through gsan's device heap (ptx_heap.c, docs/ptx.md
 * "The inserted code"): the calls recognised, rewritten to gsan's
 * wrappers, and the wrappers' text. */
#ifndef GSAN_PTX_HEAP_H
#define GSAN_PTX_HEAP_H

#include "ptx.h"

enum { PTX_HEAP_NONE = 0, PTX_HEAP_MALLOC, PTX_HEAP_ALIGNED, PTX_HEAP_FREE };
/* a call to rewrite once its function is done: the statement, which of
 * the PTX_HEAP_* it calls, and its site */
typedef struct ptx_heap_site { ptx_stmt *s; int which, site; } ptx_heap_site;
/* which of malloc, the aligned variant or free the statement calls */
int ptx_heap_call(const ptx_stmt *s);
/* the call rewritten to gsan's wrapper, with the module id and site */
char *ptx_heap_rewrite(ptx_arena *a, const ptx_stmt *s, int which, uint64_t modid, int site);
/* the wrappers' prototypes (before the first function) and definitions
 * (at the end) for the calls in used (1 << PTX_HEAP_*) */
char *ptx_heap_decls(ptx_arena *a, unsigned used);
char *ptx_heap_defs(ptx_arena *a, unsigned used);

#endif
