/* A CUDA program on a machine without a CUDA driver (issue: "a program that
 * finds no CUDA driver gets one line that nothing is checked"). cudart's
 * dlopen of libcuda.so.1 fails, so no lookup of cuGetProcAddress ever reaches
 * libgsan (rt_interpose.c): gsan never starts, reads no option and checks
 * nothing, and the program goes on with cudaErrorInsufficientDriver or its
 * own message. At the end of such a run, libgsan says so in one line.
 *
 * "A CUDA program": one whose executable or a loaded library holds device
 * code (nvcc's .nv_fatbin or .nvFatBinSegment section), or that loaded a
 * CUDA runtime library (libcudart, libnvrtc: PyTorch, CuPy). A program
 * without CUDA (gsan run -- sh) hears nothing. Work is done only at exit of
 * a run where gsan never started: section headers read with libelf.
 *
 * Runs as libgsan's destructor (after the program's atexit handlers); no
 * lock: by then the process has one thread that matters. */
#include "rt_driver.h"
#include "rt_gsan.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

/* path's ELF file has a section named like nvcc's device code */
static int has_device_code(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  int found = 0;
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  size_t shstrndx;
  if (e && elf_kind(e) == ELF_K_ELF && elf_getshdrstrndx(e, &shstrndx) == 0) {
    for (Elf_Scn *s = elf_nextscn(e, NULL); s && !found; s = elf_nextscn(e, s)) {
      GElf_Shdr sh;
      const char *name = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
      found = name && (!strcmp(name, ".nv_fatbin") || !strcmp(name, ".nvFatBinSegment"));
    }
  }
  if (e) elf_end(e);
  close(fd);
  return found;
}

static int runtime_library(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return !strncmp(base, "libcudart", 9) || !strncmp(base, "libnvrtc", 8);
}

/* dl_iterate_phdr: 1 (stop) at the first object with CUDA in it; the main
 * program has an empty name and is read through /proc/self/exe */
static int uses_cuda(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  const char *path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : NULL;
  if (path && runtime_library(path)) return 1;
  if (!path) return has_device_code("/proc/self/exe");
  /* the vDSO and the system's own libraries hold no device code */
  if (!strncmp(path, "linux-vdso", 10) || !strncmp(path, "/lib", 4) || !strncmp(path, "/usr/lib/x86_64-linux-gnu/lib", 29))
    return 0;
  return has_device_code(path);
}

__attribute__((destructor)) static void say_unchecked(void) {
  if (rt_driver.get_proc) return; /* gsan started (whatever it found then) */
  if (elf_version(EV_CURRENT) == EV_NONE || !dl_iterate_phdr(uses_cuda, NULL)) return;
  /* the reason the driver did not load, as the dynamic linker gives it */
  void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (h) return; /* there is a driver: the program never asked for it */
  const char *why = dlerror();
  rt_gsan_say("no CUDA driver was found (%s): gsan checked nothing in this run", why ? why : "libcuda.so.1 does not load");
}
