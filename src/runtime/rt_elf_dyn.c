/* A loaded object's dynamic symbols, searched in memory as glibc's own lookup
 * does (elf/dl-lookup.c: check_match, do_lookup_x), one object at a time.
 * Runs inside other libraries' start-up (ASan's among them, before its shadow
 * memory exists: tests/fuzz/fuzz.mk builds this file without ASan), so it
 * neither allocates nor calls libc's string functions. */
#include "rt_elf_dyn.h"

#include <stddef.h>

static int same(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* glibc relocates the dynamic section's addresses in place; some loaders do
 * not, nor does glibc for the vDSO */
static const void *dyn_ptr(uintptr_t base, ElfW(Addr) p) { return (const void *)(p < base ? base + p : p); }

int rt_dynobj_init(rt_dynobj *o, const struct dl_phdr_info *info) {
  *o = (rt_dynobj){.base = info->dlpi_addr};
  for (int i = 0; i < info->dlpi_phnum; i++) {
    if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    for (const ElfW(Dyn) *d = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr); d->d_tag != DT_NULL; d++) {
      const void *p = dyn_ptr(o->base, d->d_un.d_ptr);
      switch (d->d_tag) {
      case DT_GNU_HASH: o->gnu_hash = p; break;
      case DT_HASH: o->sysv_hash = p; break;
      case DT_SYMTAB: o->syms = p; break;
      case DT_STRTAB: o->strs = p; break;
      case DT_VERSYM: o->versym = p; break;
      case DT_VERDEF: o->verdef = p; break;
      }
    }
  }
  return o->syms && o->strs && (o->gnu_hash || o->sysv_hash) ? 0 : -1;
}

int rt_dynobj_holds(const struct dl_phdr_info *info, const void *addr) {
  uintptr_t a = (uintptr_t)addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && a >= start && a - start < ph->p_memsz) return 1;
  }
  return 0;
}

typedef struct at_arg {
  const void *addr;
  rt_dynobj *o;
  int rc;
} at_arg;

static int at_one(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  at_arg *a = arg;
  if (!rt_dynobj_holds(info, a->addr)) return 0;
  a->rc = rt_dynobj_init(a->o, info);
  return 1;
}

int rt_dynobj_at(const void *addr, rt_dynobj *o) {
  at_arg a = {addr, o, -1};
  dl_iterate_phdr(at_one, &a);
  return a.rc;
}

/* the name of version index ndx as a versioned definition carries it (the
 * base version, the object's own name, is none) */
static const char *version_name(const rt_dynobj *o, unsigned ndx) {
  for (const ElfW(Verdef) *d = o->verdef; d; d = d->vd_next ? (const void *)((const char *)d + d->vd_next) : NULL)
    if (!(d->vd_flags & VER_FLG_BASE) && (d->vd_ndx & 0x7fff) == ndx)
      return o->strs + ((const ElfW(Verdaux) *)((const char *)d + d->vd_aux))->vda_name;
  return NULL;
}

typedef struct match {
  const char *name, *version;
  const ElfW(Sym) *found;     /* taken */
  const ElfW(Sym) *versioned; /* for dlsym: the first default version seen */
  int versions;
} match;

/* check_match: 1 when symbol i settles the lookup (m->found) */
static int check(const rt_dynobj *o, uint32_t i, match *m) {
  const ElfW(Sym) *s = &o->syms[i];
  unsigned type = ELF64_ST_TYPE(s->st_info);
  if (s->st_value == 0 && s->st_shndx != SHN_ABS && type != STT_TLS) return 0;
  const unsigned kinds = 1u << STT_NOTYPE | 1u << STT_OBJECT | 1u << STT_FUNC | 1u << STT_COMMON | 1u << STT_TLS |
                         1u << STT_GNU_IFUNC;
  if (!(kinds >> type & 1) || !same(o->strs + s->st_name, m->name)) return 0;
  if (o->versym) {
    unsigned ndx = o->versym[i] & 0x7fff, hidden = o->versym[i] & 0x8000;
    if (m->version) {
      const char *v = version_name(o, ndx);
      if (!v || !same(v, m->version)) return 0;
    } else if (ndx >= 2) {
      /* dlsym takes the newest: the default version, if it is the only one */
      if (!hidden && m->versions++ == 0) m->versioned = s;
      return 0;
    }
  }
  m->found = s;
  return 1;
}

static uint32_t gnu_hash(const char *name) {
  uint32_t h = 5381;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = h * 33 + *p;
  return h;
}

static uint32_t sysv_hash(const char *name) {
  uint32_t h = 0;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    h = (h << 4) + *p;
    uint32_t g = h & 0xf0000000u;
    h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

static void search(const rt_dynobj *o, match *m) {
  if (o->gnu_hash) {
    const uint32_t *gh = o->gnu_hash;
    uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_words = gh[2];
    if (!nbuckets) return;
    const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) + bloom_words);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t h = gnu_hash(m->name);
    /* an empty bucket holds 0 */
    for (uint32_t i = buckets[h % nbuckets]; i && i >= symoffset; i++) {
      uint32_t h2 = chain[i - symoffset];
      if ((h | 1) == (h2 | 1) && check(o, i, m)) return;
      if (h2 & 1) return;
    }
    return;
  }
  const uint32_t *sh = o->sysv_hash;
  uint32_t nbuckets = sh[0], nchain = sh[1];
  if (!nbuckets) return;
  const uint32_t *buckets = sh + 2, *chain = buckets + nbuckets;
  for (uint32_t i = buckets[sysv_hash(m->name) % nbuckets], n = 0; i != STN_UNDEF && i < nchain && n < nchain;
       i = chain[i], n++)
    if (check(o, i, m)) return;
}

const ElfW(Sym) *rt_dynobj_find(const rt_dynobj *o, const char *name, const char *version) {
  match m = {name, version, NULL, NULL, 0};
  search(o, &m);
  const ElfW(Sym) *s = m.found ? m.found : m.versions == 1 ? m.versioned : NULL;
  if (!s) return NULL;
  /* do_lookup_x: a local or hidden match means this object has none to give */
  unsigned bind = ELF64_ST_BIND(s->st_info), vis = ELF64_ST_VISIBILITY(s->st_other);
  if ((bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) || vis == STV_HIDDEN || vis == STV_INTERNAL)
    return NULL;
  return s;
}

void *rt_dynobj_addr(const rt_dynobj *o, const ElfW(Sym) *s) {
  return (void *)(s->st_shndx == SHN_ABS ? s->st_value : o->base + s->st_value);
}
