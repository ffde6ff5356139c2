/* dlsym(RTLD_NEXT, name) as glibc would answer it for the caller, for the
 * driver names libgsan answers itself (rt_interpose.c), which glibc would
 * answer for libgsan: the first definition in the loaded objects after the
 * caller's, in dl_iterate_phdr's order, the load order (for everything loaded
 * at start-up, the global search order). A caller in no object counts as the
 * main program, as in glibc. Differences from glibc: objects dlopened with
 * RTLD_LOCAL count (a driver that cudart dlopened is found; glibc would find
 * none), and a caller that was itself dlopened searches what was loaded after
 * it, not its own dependencies. An IFUNC or TLS definition needs the dynamic
 * linker's resolution: it is looked up from libgsan's place (no driver name
 * is either). Every other name never comes here: glibc answers it for the
 * caller (rt_dlsym_entry.c). Runs inside other libraries' start-up: no
 * allocation, no string function (built without ASan, tests/fuzz/fuzz.mk). */
#include "rt_dlsym.h"
#include "rt_elf_dyn.h"

#include <dlfcn.h>
#include <stddef.h>

typedef struct next_arg {
  const void *caller;
  const char *name, *version;
  int index, seen_caller;
  rt_dynobj after_caller, after_main; /* where the first definition is */
  const ElfW(Sym) *sym_caller, *sym_main;
} next_arg;

static int next_one(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  next_arg *a = arg;
  int index = a->index++;
  if (!a->seen_caller && rt_dynobj_holds(info, a->caller)) {
    a->seen_caller = 1;
    return 0;
  }
  rt_dynobj o;
  const ElfW(Sym) *s;
  if (index == 0 || rt_dynobj_init(&o, info) || !(s = rt_dynobj_find(&o, a->name, a->version))) return 0;
  if (a->seen_caller) {
    a->after_caller = o, a->sym_caller = s;
    return 1;
  }
  if (!a->sym_main) a->after_main = o, a->sym_main = s;
  return 0;
}

void *rt_next_sym(const void *caller, const char *name, const char *version) {
  next_arg a = {.caller = caller, .name = name, .version = version};
  dl_iterate_phdr(next_one, &a);
  const rt_dynobj *o = a.seen_caller ? &a.after_caller : &a.after_main;
  const ElfW(Sym) *s = a.seen_caller ? a.sym_caller : a.sym_main;
  if (!s) return NULL;
  unsigned type = ELF64_ST_TYPE(s->st_info);
  if (type == STT_GNU_IFUNC || type == STT_TLS)
    return version ? rt_real_dlvsym(RTLD_NEXT, name, version) : rt_real_dlsym(RTLD_NEXT, name);
  return rt_dynobj_addr(o, s);
}
