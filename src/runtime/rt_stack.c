/* Host backtraces (rt_stack.h): rt_unwind.c to capture, libdwfl to
 * symbolise — the program's own DWARF gives function, file and line. */
#include "rt_stack.h"

#include "rt_unwind.h"

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void self_init(void);

/* gsan's own code: the executable segments of the object that holds this
 * file, found once (a dladdr per frame would cost more than the rest of an
 * allocation) */
#define MAX_SEGS 8
static struct { uintptr_t lo[MAX_SEGS], hi[MAX_SEGS]; int n; } self_text;

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  uintptr_t me = (uintptr_t)arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && me >= lo && me < lo + ph->p_memsz) {
      for (int j = 0; j < info->dlpi_phnum && self_text.n < MAX_SEGS; j++)
        if (info->dlpi_phdr[j].p_type == PT_LOAD && (info->dlpi_phdr[j].p_flags & PF_X)) {
          self_text.lo[self_text.n] = info->dlpi_addr + info->dlpi_phdr[j].p_vaddr;
          self_text.hi[self_text.n] = self_text.lo[self_text.n] + info->dlpi_phdr[j].p_memsz;
          self_text.n++;
        }
      return 1;
    }
  }
  return 0;
}

static void self_init(void) { dl_iterate_phdr(find_self, (void *)(uintptr_t)rt_trace_capture); }

static int inside_gsan(void *pc) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, self_init);
  for (int i = 0; i < self_text.n; i++)
    if ((uintptr_t)pc >= self_text.lo[i] && (uintptr_t)pc < self_text.hi[i]) return 1;
  return 0;
}

/* gsan's own frames above the caller's: the hook, its helpers, the capture */
#define SELF_FRAMES 8

void rt_trace_capture(rt_trace *t, int depth) {
  void *pc[RT_STACK_DEPTH + SELF_FRAMES];
  t->n = 0;
  if (depth > RT_STACK_DEPTH) depth = RT_STACK_DEPTH;
  if (depth <= 0) return;
  int n = rt_unwind_backtrace(pc, depth + SELF_FRAMES), k = 0;
  /* backtrace()'s own frames first when a sanitizer intercepts it (the
   * capture falls back to it), then gsan's */
  while (k < n && !inside_gsan(pc[k])) k++;
  if (k == n) k = 0;
  while (k < n && inside_gsan(pc[k])) k++;
  for (; k < n && t->n < depth; k++) t->pc[t->n++] = pc[k];
}

static Dwfl *session(void) {
  static Dwfl *dwfl;
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&lock);
  if (!dwfl) {
    static char *debuginfo_path;
    static const Dwfl_Callbacks cb = {.find_elf = dwfl_linux_proc_find_elf,
                                      .find_debuginfo = dwfl_standard_find_debuginfo,
                                      .debuginfo_path = &debuginfo_path};
    dwfl = dwfl_begin(&cb);
    if (dwfl && (dwfl_linux_proc_report(dwfl, getpid()) != 0 || dwfl_report_end(dwfl, NULL, NULL) != 0)) {
      dwfl_end(dwfl);
      dwfl = NULL;
    }
  }
  pthread_mutex_unlock(&lock);
  return dwfl;
}

void rt_trace_symbolize(const rt_trace *t, rt_stack *out, char *buf, size_t buflen) {
  Dwfl *dwfl = session();
  size_t used = 0;
  out->n = 0;
  int started = 0;
  for (int i = 0; i < t->n && out->n < 32 && used + 1 < buflen; i++) {
    /* every frame kept is a return address (gsan's own frames, the
     * capture's among them, are dropped), which points after the call: look
     * up the call itself */
    Dwarf_Addr pc = (Dwarf_Addr)(uintptr_t)t->pc[i] - 1;
    Dwfl_Module *m = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
    const char *fn = m ? dwfl_module_addrname(m, pc) : NULL;
    const char *file = NULL;
    int line = 0;
    Dwfl_Line *l = m ? dwfl_module_getsrc(m, pc) : NULL;
    if (l) file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
    /* the CUDA runtime's internals say nothing to the reader: the stack
     * starts at the first named frame outside them (cudaMalloc, or the
     * program's own call of cuMemAlloc) */
    int internal = !fn || !strncmp(fn, "__cudart", 8) || !strncmp(fn, "_ZN6cudart", 10) || !strncmp(fn, "cudart", 6) ||
                   !strncmp(fn, "libcudart_static_", 17);
    if (!started && internal && i + 1 < t->n) continue;
    started = 1;
    char dbuf[512];
    fn = fn ? rt_demangle(fn, dbuf, sizeof dbuf) : NULL;
    char *s = buf + used;
    int w;
    if (fn && file) w = snprintf(s, buflen - used, "%s %s:%d", fn, file, line);
    else if (fn) w = snprintf(s, buflen - used, "%s", fn);
    else w = snprintf(s, buflen - used, "%p", t->pc[i]);
    if (w < 0 || (size_t)w >= buflen - used) break;
    out->frame[out->n++] = s;
    used += (size_t)w + 1;
    if (fn && !strcmp(fn, "main")) break; /* what runs before main is noise */
  }
}
