/* glibc's own dlsym and dlvsym. libgsan defines both names, and a definition
 * without a version satisfies every reference, its own included, so neither
 * can be called to find the other. Instead: dl_iterate_phdr gives libc's
 * load address and dynamic section, and libc's GNU hash table, in memory,
 * finds the two functions. Nothing here reads a file, allocates or calls a
 * string function: when libgsan is built with AddressSanitizer, ASan's own
 * start-up finds its functions through dlsym, which is libgsan's, before
 * any of that works (tests/fuzz/fuzz.mk builds this file uninstrumented). */
#include <link.h>
#include <pthread.h>
#include <stdint.h>

typedef void *(*dlsym_fn)(void *, const char *);
typedef void *(*dlvsym_fn)(void *, const char *, const char *);

static dlsym_fn libc_dlsym;
static dlvsym_fn libc_dlvsym;
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef struct libc_dyn {
  uintptr_t base;
  const uint32_t *gnu_hash;
  const ElfW(Sym) *syms;
  const ElfW(Half) *versym; /* may be absent */
  const char *strs;
} libc_dyn;

static int same(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* glibc relocates the dynamic section's addresses in place; some loaders do not */
static const void *dyn_ptr(uintptr_t base, ElfW(Addr) p) { return (const void *)(p < base ? base + p : p); }

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const char *file = info->dlpi_name;
  for (const char *p = info->dlpi_name; p && *p; p++)
    if (*p == '/') file = p + 1;
  if (!file || file[0] != 'l' || file[1] != 'i' || file[2] != 'b' || file[3] != 'c' || file[4] != '.' ||
      file[5] != 's' || file[6] != 'o')
    return 0;
  libc_dyn *l = arg;
  l->base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    for (const ElfW(Dyn) *d = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr); d->d_tag != DT_NULL; d++) {
      if (d->d_tag == DT_GNU_HASH) l->gnu_hash = dyn_ptr(l->base, d->d_un.d_ptr);
      else if (d->d_tag == DT_SYMTAB) l->syms = dyn_ptr(l->base, d->d_un.d_ptr);
      else if (d->d_tag == DT_STRTAB) l->strs = dyn_ptr(l->base, d->d_un.d_ptr);
      else if (d->d_tag == DT_VERSYM) l->versym = dyn_ptr(l->base, d->d_un.d_ptr);
    }
  }
  return 1;
}

/* name's function in libc (its default version), by the GNU hash table */
static void *lookup(const libc_dyn *l, const char *name) {
  const uint32_t *gh = l->gnu_hash;
  uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_words = gh[2];
  const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) + bloom_words), *chain = buckets + nbuckets;
  uint32_t h = 5381;
  for (const char *p = name; *p; p++) h = h * 33 + (unsigned char)*p;
  uint32_t i = buckets[h % nbuckets];
  if (i < symoffset) return NULL;
  for (;; i++) {
    uint32_t h2 = chain[i - symoffset];
    const ElfW(Sym) *s = &l->syms[i];
    if ((h | 1) == (h2 | 1) && s->st_value && (s->st_info & 0xf) == STT_FUNC &&
        !(l->versym && (l->versym[i] & 0x8000)) && same(l->strs + s->st_name, name))
      return (void *)(l->base + s->st_value);
    if (h2 & 1) return NULL;
  }
}

static void resolve(void) {
  libc_dyn l = {0, NULL, NULL, NULL, NULL};
  if (!dl_iterate_phdr(find_libc, &l) || !l.gnu_hash || !l.syms || !l.strs) return;
  libc_dlsym = (dlsym_fn)lookup(&l, "dlsym");
  libc_dlvsym = (dlvsym_fn)lookup(&l, "dlvsym");
}

void *rt_real_dlsym(void *handle, const char *name) {
  pthread_once(&once, resolve);
  return libc_dlsym ? libc_dlsym(handle, name) : NULL;
}

void *rt_real_dlvsym(void *handle, const char *name, const char *version) {
  pthread_once(&once, resolve);
  return libc_dlvsym ? libc_dlvsym(handle, name, version) : NULL;
}
