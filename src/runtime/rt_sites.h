/* Site tables of loaded modules (docs/abi.md, "Site table"): read from the
 * __gsan_sites_<id> blob, validated, and found again by module id when a
 * device record names one. */
#ifndef GSAN_RT_SITES_H
#define GSAN_RT_SITES_H

#include <stddef.h>
#include <stdint.h>

typedef struct rt_site {
  const char *func;       /* mangled */
  const char *file;       /* NULL when unknown */
  const char *root_name;  /* the variable bounding the check, or NULL */
  const char *call_file;  /* inlined code: the file and line it was inlined into */
  unsigned call_line;
  unsigned line, col, ptx_line, width;
  int kind, space, root, root_space; /* enum gsan_access_kind, gsan_space, gsan_root, gsan_space */
  int binary;             /* binary mode (rt_binary.h): no site table; func is the kernel */
  unsigned sass_offset;   /* and the access's byte offset from the kernel's first instruction */
  int heap_freed;         /* binary mode: the access reached a device-heap block already freed */
} rt_site;

typedef struct rt_site_table rt_site_table;

/* A copy of the blob, checked: magic, version, every offset and string
 * inside it. NULL (with a reason in why) when it is malformed. */
rt_site_table *rt_sites_parse(const void *blob, size_t n, const char **why);
void rt_sites_free(rt_site_table *t);
uint64_t rt_sites_module(const rt_site_table *t);
unsigned rt_sites_count(const rt_site_table *t);
int rt_sites_get(const rt_site_table *t, uint32_t index, rt_site *out); /* -1 out of range */

#endif
