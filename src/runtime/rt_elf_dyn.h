/* A loaded object's dynamic symbols, read in memory from its dynamic section
 * (what dl_iterate_phdr reports): the lookups libgsan's dlsym needs without
 * calling the dynamic linker, which may not be ready for it (ASan's start-up,
 * other libraries' constructors). Nothing here reads a file, allocates or
 * calls a libc string function. */
#ifndef GSAN_RT_ELF_DYN_H
#define GSAN_RT_ELF_DYN_H

#include <link.h>
#include <stdint.h>

/* st_info and st_other read the same in 32- and 64-bit ELF: ELF64_ST_TYPE,
 * ELF64_ST_BIND and ELF64_ST_VISIBILITY serve both */
typedef struct rt_dynobj {
  uintptr_t base; /* load bias */
  const uint32_t *gnu_hash, *sysv_hash; /* one of them at least */
  const ElfW(Sym) *syms;
  const char *strs;
  const ElfW(Half) *versym;  /* absent in an object without versions */
  const ElfW(Verdef) *verdef;
} rt_dynobj;

/* o for info's object: 0, or -1 when it has no symbol table to search */
int rt_dynobj_init(rt_dynobj *o, const struct dl_phdr_info *info);

/* info's object maps addr (in one of its loaded segments) */
int rt_dynobj_holds(const struct dl_phdr_info *info, const void *addr);

/* the object that maps addr, into o: 0, or -1 */
int rt_dynobj_at(const void *addr, rt_dynobj *o);

/* name's definition in o, as glibc's dlsym (version NULL) or dlvsym takes it
 * from one object: a global or weak definition of a code or data kind; for
 * dlsym the unversioned one or else the single default version, for dlvsym
 * the one of that version (any, where o has no versions). NULL if none. */
const ElfW(Sym) *rt_dynobj_find(const rt_dynobj *o, const char *name, const char *version);

/* where s is: its value relocated (an IFUNC's resolver, a TLS symbol's
 * offset: the caller handles those kinds) */
void *rt_dynobj_addr(const rt_dynobj *o, const ElfW(Sym) *s);

#endif
