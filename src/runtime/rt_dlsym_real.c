/* glibc's own dlsym and dlvsym. libgsan defines both names, and a definition
 * without a version satisfies every reference, its own included, so neither
 * can be called to find the other. Instead: dl_iterate_phdr gives libc's
 * load address and file, libelf reads the file's dynamic symbols, and the
 * functions are at base + value. */
#include <gelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

typedef void *(*dlsym_fn)(void *, const char *);
typedef void *(*dlvsym_fn)(void *, const char *, const char *);

static dlsym_fn libc_dlsym;
static dlvsym_fn libc_dlvsym;
static pthread_once_t once = PTHREAD_ONCE_INIT;

typedef struct found { uintptr_t base; char path[512]; } found;

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  found *f = arg;
  const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
  if (!slash || strncmp(slash + 1, "libc.so", 7)) return 0;
  f->base = info->dlpi_addr;
  strncpy(f->path, info->dlpi_name, sizeof f->path - 1);
  return 1;
}

static void resolve(void) {
  found f = {0, {0}};
  if (!dl_iterate_phdr(find_libc, &f) || elf_version(EV_CURRENT) == EV_NONE) return;
  int fd = open(f.path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn)) != NULL;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
      GElf_Sym s;
      if (!gelf_getsym(d, (int)i, &s) || !s.st_value || GELF_ST_TYPE(s.st_info) != STT_FUNC) continue;
      const char *name = elf_strptr(e, sh.sh_link, s.st_name);
      if (name && !strcmp(name, "dlsym")) libc_dlsym = (dlsym_fn)(f.base + s.st_value);
      if (name && !strcmp(name, "dlvsym")) libc_dlvsym = (dlvsym_fn)(f.base + s.st_value);
    }
  }
  if (e) elf_end(e);
  close(fd);
}

void *rt_real_dlsym(void *handle, const char *name) {
  pthread_once(&once, resolve);
  return libc_dlsym ? libc_dlsym(handle, name) : NULL;
}

void *rt_real_dlvsym(void *handle, const char *name, const char *version) {
  pthread_once(&once, resolve);
  return libc_dlvsym ? libc_dlvsym(handle, name, version) : NULL;
}
