/* The module's site table (ptx_sites.c): one record per checked access,
 * emitted into the module for the runtime to symbolise reports with. */
#ifndef GSAN_PTX_SITES_H
#define GSAN_PTX_SITES_H

#include "ptx.h"

typedef struct ptx_sites ptx_sites;
ptx_sites *ptx_sites_new(void);
void ptx_sites_free(ptx_sites *s);
typedef struct ptx_site_desc {
  const char *func, *file;  /* file may be NULL */
  int line, col, ptx_line;
  const char *call_file;    /* inlined code: where it was inlined (NULL if not inlined) */
  int call_line;
  int kind, space, width;   /* enum gsan_access_kind, enum gsan_space, bytes */
  const ptx_symbol *root;   /* the variable that bounds the check, NULL for the arena */
  int scope;                /* a use-after-scope check (GSAN_ROOT_SCOPE) */
} ptx_site_desc;
int ptx_sites_add(ptx_sites *s, const ptx_site_desc *d);
int ptx_sites_count(const ptx_sites *s);
/* appends the .global blob holding the table to the module's text */
char *ptx_sites_decl(ptx_arena *a, const ptx_sites *s, uint64_t module_id);

/* A kernel's sites in the order its rewrite added them. Its copies (the
 * launch-bounds copy, ptx_launch.c; the proven copy, ptx_proof.c) are
 * rewritten from the same statements, add the same accesses in the same
 * order and get the kernel's numbers back, so that the kernel and its
 * copies report one site for one access. Zeroed: empty; id is malloc'd. */
typedef struct ptx_site_log {
  int *id;
  int n, cap;
  int next;                 /* the next entry a copy takes */
} ptx_site_log;
/* The site of d. While copy is 0: a new site, logged. While copy is 1: the
 * next logged site (a new one, not logged, once the log runs out). */
int ptx_sites_logged(ptx_sites *s, ptx_site_log *log, int copy, const ptx_site_desc *d);

#endif
