/* Module images as the driver receives them: a fatbin (the container nvcc
 * embeds, also behind cudart's 0x466243b1 wrapper), a cubin (ELF) or PTX
 * text. The fatbin layout is NVIDIA's and undocumented; what is read here was
 * checked against nvcc 13 output, and every size is validated before use. */
#ifndef GSAN_RT_FATBIN_H
#define GSAN_RT_FATBIN_H

#include "rt_sites.h"

#include <stddef.h>
#include <stdint.h>

#define RT_FATBIN_MAGIC 0xBA55ED50u
#define RT_FATBIN_WRAPPER_MAGIC 0x466243b1u

enum rt_image_kind { RT_IMAGE_UNKNOWN = 0, RT_IMAGE_FATBIN, RT_IMAGE_ELF, RT_IMAGE_PTX };
enum rt_fatbin_entry_kind { RT_ENTRY_PTX = 1, RT_ENTRY_ELF = 2 };

typedef struct rt_fatbin_entry {
  int kind;                      /* enum rt_fatbin_entry_kind */
  unsigned arch;                 /* 90 for sm_90 / compute_90 */
  int compressed;                /* zstd */
  const unsigned char *payload;  /* as stored */
  uint64_t payload_size;
} rt_fatbin_entry;

/* What an image pointer holds; for a fatbin (or its wrapper) *fatbin and
 * *len are set to the container, for a 64-bit cubin to the ELF image (to
 * the end of its section or program headers, whichever comes last). */
int rt_image_kind(const void *image, const void **fatbin, size_t *len);

/* The entries of a fatbin container; their count, or -1 with a reason. */
int rt_fatbin_entries(const void *fatbin, size_t len, rt_fatbin_entry *out, int max, const char **why);

/* All the entries of a fatbin container, however many (malloc'd, *n of
 * them), or NULL with a reason. */
rt_fatbin_entry *rt_fatbin_list(const void *fatbin, size_t len, int *n, const char **why);

/* An entry's bytes, decompressed when needed (malloc'd; PTX is
 * NUL-terminated). NULL with a reason. */
unsigned char *rt_fatbin_payload(const rt_fatbin_entry *e, size_t *len, const char **why);

/* Site tables found in images, as many as there are: a cubin linked from
 * many instrumented translation units (-rdc) carries one per unit. */
typedef struct rt_site_list {
  rt_site_table **t;
  int n, cap;
} rt_site_list;

/* t appended to l, which owns it from then on; 0, or -1 out of memory
 * (t freed) */
int rt_site_list_add(rt_site_list *l, rt_site_table *t);
/* the tables still in l and the list's own array */
void rt_site_list_free(rt_site_list *l);

/* The site tables a cubin carries: each __gsan_sites_<id> symbol's bytes,
 * read from the image itself (so it works after the context died), appended
 * to out. Returns how many were added, or -1 with a reason. */
int rt_elf_site_tables(const void *elf, size_t len, rt_site_list *out, const char **why);

/* The site tables in PTX text that gsan instrumented: each
 * ".b8 __gsan_sites_<id>[N] = {...}" initialiser, its bytes checked like a
 * cubin's, appended to out. Returns how many were added, or -1 with a reason. */
int rt_ptx_site_tables(const char *ptx, size_t len, rt_site_list *out, const char **why);

#endif
