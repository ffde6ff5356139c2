/* glibc's own dlsym and dlvsym. libgsan defines both names, and a definition
 * without a version satisfies every reference, its own included, so neither
 * can be called to find the other. Instead: dl_iterate_phdr finds libc, and
 * libc's symbol table, in memory, the two functions (rt_elf_dyn.c). Nothing
 * here reads a file, allocates or calls a string function: when libgsan is
 * built with AddressSanitizer, ASan's own start-up finds its functions through
 * dlsym, which is libgsan's, before any of that works (tests/fuzz/fuzz.mk
 * builds this file uninstrumented). */
#include "rt_dlsym.h"
#include "rt_elf_dyn.h"

#include <pthread.h>

static rt_dlsym_fn libc_dlsym;
static rt_dlvsym_fn libc_dlvsym;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const char *file = info->dlpi_name;
  for (const char *p = info->dlpi_name; p && *p; p++)
    if (*p == '/') file = p + 1;
  if (!file || file[0] != 'l' || file[1] != 'i' || file[2] != 'b' || file[3] != 'c' || file[4] != '.' ||
      file[5] != 's' || file[6] != 'o')
    return 0;
  return rt_dynobj_init(arg, info) == 0;
}

static void *libc_function(const rt_dynobj *libc, const char *name) {
  const ElfW(Sym) *s = rt_dynobj_find(libc, name, NULL);
  return s && ELF64_ST_TYPE(s->st_info) == STT_FUNC ? rt_dynobj_addr(libc, s) : NULL;
}

static void resolve(void) {
  rt_dynobj libc;
  if (!dl_iterate_phdr(find_libc, &libc)) return;
  libc_dlsym = (rt_dlsym_fn)libc_function(&libc, "dlsym");
  libc_dlvsym = (rt_dlvsym_fn)libc_function(&libc, "dlvsym");
}

rt_dlsym_fn rt_libc_dlsym(void) {
  pthread_once(&once, resolve);
  return libc_dlsym;
}

rt_dlvsym_fn rt_libc_dlvsym(void) {
  pthread_once(&once, resolve);
  return libc_dlvsym;
}

void *rt_real_dlsym(void *handle, const char *name) {
  rt_dlsym_fn f = rt_libc_dlsym();
  return f ? f(handle, name) : NULL;
}

void *rt_real_dlvsym(void *handle, const char *name, const char *version) {
  rt_dlvsym_fn f = rt_libc_dlvsym();
  return f ? f(handle, name, version) : NULL;
}
