/* rt_elf_dyn.c against glibc: every dynamic symbol of libc, libm,
 * libstdc++ (linked in for this) and a library with a SysV hash table and
 * versions of its own is looked up both ways, by name as dlsym does and by
 * name and version as dlvsym does, on a handle for that object; the two must
 * agree on every one (an IFUNC or TLS symbol is glibc's to resolve: counted
 * apart). Not the dynamic linker: glibc's dlsym on a handle for ld.so itself
 * finds none of its symbols. */
#include "../../src/runtime/rt_elf_dyn.h"
#include "check.h"

#include <dlfcn.h>
#include <string.h>

typedef struct totals {
  int objects, names, versioned, apart;
} totals;

/* how many symbols the table holds (the GNU hash table does not say) */
static uint32_t symbol_count(const rt_dynobj *o) {
  if (o->sysv_hash) return o->sysv_hash[1];
  const uint32_t *gh = o->gnu_hash;
  uint32_t nbuckets = gh[0], symoffset = gh[1], last = 0;
  const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(gh + 4) + gh[2]), *chain = buckets + nbuckets;
  for (uint32_t b = 0; b < nbuckets; b++)
    if (buckets[b] > last) last = buckets[b];
  if (last < symoffset) return symoffset;
  while (!(chain[last - symoffset] & 1)) last++;
  return last + 1;
}

static const char *version_of(const rt_dynobj *o, uint32_t i) {
  if (!o->versym || !o->verdef) return NULL;
  for (const ElfW(Verdef) *d = o->verdef;; d = (const void *)((const char *)d + d->vd_next)) {
    if (!(d->vd_flags & VER_FLG_BASE) && (d->vd_ndx & 0x7fff) == (o->versym[i] & 0x7fff))
      return o->strs + ((const ElfW(Verdaux) *)((const char *)d + d->vd_aux))->vda_name;
    if (!d->vd_next) return NULL;
  }
}

/* one lookup both ways: 1 when they agree */
static int agree(const struct dl_phdr_info *info, const rt_dynobj *o, void *glibc, const ElfW(Sym) *s, totals *t) {
  if (s && (ELF64_ST_TYPE(s->st_info) == STT_GNU_IFUNC || ELF64_ST_TYPE(s->st_info) == STT_TLS)) {
    t->apart++;
    return 1;
  }
  if (s) return glibc == rt_dynobj_addr(o, s);
  return !glibc || !rt_dynobj_holds(info, glibc); /* none here: glibc's is a dependency's */
}

static int one_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  totals *t = arg;
  const char *file = strrchr(info->dlpi_name, '/');
  file = file ? file + 1 : info->dlpi_name;
  if (strncmp(file, "libc.so", 7) && strncmp(file, "libm.so", 7) && strncmp(file, "libstdc++.so", 12) &&
      strcmp(file, "libgsan_next_sysv.so"))
    return 0;
  rt_dynobj o;
  CHECK(rt_dynobj_init(&o, info) == 0, "%s: no symbol table", file);
  void *h = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
  CHECK(h != NULL, "%s: %s", file, dlerror());
  if (!h) return 0;
  t->objects++;
  for (uint32_t i = 1, n = symbol_count(&o); i < n; i++) {
    const ElfW(Sym) *s = &o.syms[i];
    if (s->st_shndx == SHN_UNDEF || ELF64_ST_BIND(s->st_info) == STB_LOCAL) continue;
    const char *name = o.strs + s->st_name, *version = version_of(&o, i);
    t->names++;
    CHECK(agree(info, &o, dlsym(h, name), rt_dynobj_find(&o, name, NULL), t), "%s: dlsym %s", file, name);
    if (!version) continue;
    t->versioned++;
    CHECK(agree(info, &o, dlvsym(h, name, version), rt_dynobj_find(&o, name, version), t), "%s: dlvsym %s@%s",
          file, name, version);
  }
  /* a version nothing has, and a name nothing has */
  CHECK(!rt_dynobj_find(&o, "dlsym", "GSAN_0") && !rt_dynobj_find(&o, "gsan_no_such_name", NULL), "%s", file);
  dlclose(h);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || !dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
    fprintf(stderr, "usage: test_elf_dyn libgsan_next_sysv.so (%s)\n", dlerror());
    return 2;
  }
  totals t = {0, 0, 0, 0};
  dl_iterate_phdr(one_object, &t);
  CHECK(t.objects == 4, "%d objects", t.objects);
  rt_dynobj self;
  void *getrandom_fn = dlsym(RTLD_DEFAULT, "getrandom");
  const ElfW(Sym) *s;
  CHECK(rt_dynobj_at(getrandom_fn, &self) == 0 && (s = rt_dynobj_find(&self, "getrandom", NULL)) &&
            rt_dynobj_addr(&self, s) == getrandom_fn,
        "the object holding libc's getrandom");
  CHECK(rt_dynobj_at((const void *)16, &self) == -1, "an address no object maps");
  printf("%d objects, %d names, %d of them versioned, %d IFUNC or TLS: %d checks, %d failed\n", t.objects, t.names,
         t.versioned, t.apart, checks, failures);
  return failures != 0;
}
