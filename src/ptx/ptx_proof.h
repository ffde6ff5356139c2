/* Launch proofs (ptx_proof.c, docs/abi.md "Launch proofs"). In the proven
 * copy's rewrite, the checks the runtime can decide at launch become facts
 * and are marked removed (ptx_proof_plan, after elimination and before the
 * loops' plan); ptx_proof_decl writes the facts blob for the module. */
#ifndef GSAN_PTX_PROOF_H
#define GSAN_PTX_PROOF_H

#include "ptx_fstate.h"

typedef struct ptx_proof ptx_proof;
/* NULL when the function cannot have facts */
ptx_proof *ptx_proof_plan(ptx_fstate *fs);
int ptx_proof_facts(const ptx_proof *p);
/* linkage: the kernel's (".visible", ".weak" or "") */
char *ptx_proof_decl(ptx_arena *a, const ptx_proof *p, const char *kernel, const char *linkage);
void ptx_proof_free(ptx_proof *p);

#endif
