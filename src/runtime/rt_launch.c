/* Launches of kernels' launch-bounds copies (rt_launch.h). What a kernel's
 * copy is, and which of its words lie in which parameter, is asked of the
 * driver once per function handle and kept in a small hash table; a launch
 * then only reads its parameter words and computes their entries
 * (rt_arena_entry: no lock, no driver call). */
#include "rt_launch.h"

#include "rt_gsan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (GSAN_LAUNCH_MAX_BYTES / (int)sizeof(gsan_launch_entry))
#define NO_PARAM 0xffff
/* functions kept; past them each launch asks the driver again */
#define KEPT 4096
#define SLOTS (2 * KEPT)

typedef struct copy_info {
  CUfunction f;       /* the kernel */
  CUfunction copy;    /* its copy (a CUkernel cast, like f); NULL: none to launch */
  unsigned nparams;   /* the kernel's */
  unsigned words;     /* W: entries of __gsan_lb */
  size_t hidden;      /* __gsan_lb's byte offset */
  /* word w lies whole in parameter param, at its byte at; NO_PARAM: in none */
  struct { uint16_t param, at; } word[MAX_WORDS];
} copy_info;

/* the bytes of c that say something: kept entries are that long */
static size_t used(const copy_info *c) { return offsetof(copy_info, word) + c->words * sizeof c->word[0]; }

static struct {
  pthread_mutex_t lock;
  pthread_once_t once;
  copy_info *slot[SLOTS]; /* open addressing on f; NULL: free */
  unsigned kept;
  unsigned gen; /* bumped by rt_launch_forget: a look-up begun before is not kept */
  CUresult (*FuncGetName)(const char **, CUfunction);
  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);
  CUresult (*FuncGetModule)(CUmodule *, CUfunction);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  /* cudart may launch a CUkernel cast to a CUfunction: asked of these then */
  CUresult (*KernelGetName)(const char **, CUkernel);
  CUresult (*KernelGetParamInfo)(CUkernel, size_t, size_t *, size_t *);
  CUresult (*KernelGetLibrary)(CUlibrary *, CUkernel);
  CUresult (*LibraryGetKernel)(CUkernel *, CUlibrary, const char *);
} ls = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void init(void) {
  /* each asked for at the version it came with or later: the driver finds
   * no entry point at an older one (rt_canary.c) */
  *(void **)&ls.FuncGetName = rt_gsan_real_v("cuFuncGetName", 12040, 0);
  *(void **)&ls.FuncGetParamInfo = rt_gsan_real_v("cuFuncGetParamInfo", 12040, 0);
  *(void **)&ls.FuncGetModule = rt_gsan_real_v("cuFuncGetModule", 11000, 0);
  *(void **)&ls.ModuleGetFunction = rt_gsan_real("cuModuleGetFunction");
  *(void **)&ls.KernelGetName = rt_gsan_real_v("cuKernelGetName", 12040, 0);
  *(void **)&ls.KernelGetParamInfo = rt_gsan_real_v("cuKernelGetParamInfo", 12040, 0);
  *(void **)&ls.KernelGetLibrary = rt_gsan_real_v("cuKernelGetLibrary", 12050, 0);
  *(void **)&ls.LibraryGetKernel = rt_gsan_real_v("cuLibraryGetKernel", 12000, 0);
}

static CUresult param_info(int kernel, CUfunction f, size_t i, size_t *off, size_t *size) {
  if (kernel) return ls.KernelGetParamInfo ? ls.KernelGetParamInfo((CUkernel)f, i, off, size) : CUDA_ERROR_NOT_FOUND;
  return ls.FuncGetParamInfo ? ls.FuncGetParamInfo(f, i, off, size) : CUDA_ERROR_NOT_FOUND;
}

/* f's copy in f's own module or library, by name; NULL when there is none */
static CUfunction find_copy(int kernel, CUfunction f) {
  const char *name = NULL;
  CUfunction copy = NULL;
  if (kernel ? !ls.KernelGetName || !ls.KernelGetLibrary || !ls.LibraryGetKernel ||
                   ls.KernelGetName(&name, (CUkernel)f) != CUDA_SUCCESS
             : !ls.FuncGetName || !ls.FuncGetModule || !ls.ModuleGetFunction ||
                   ls.FuncGetName(&name, f) != CUDA_SUCCESS)
    return NULL;
  if (!name) return NULL;
  size_t n = strlen(GSAN_LAUNCH_PREFIX) + strlen(name) + 1;
  char *want = malloc(n);
  if (!want) return NULL;
  strcpy(want, GSAN_LAUNCH_PREFIX);
  strcat(want, name);
  if (kernel) {
    CUlibrary lib;
    CUkernel k;
    if (ls.KernelGetLibrary(&lib, (CUkernel)f) == CUDA_SUCCESS && ls.LibraryGetKernel(&k, lib, want) == CUDA_SUCCESS)
      copy = (CUfunction)k;
  } else {
    CUmodule m;
    CUfunction c;
    if (ls.FuncGetModule(&m, f) == CUDA_SUCCESS && ls.ModuleGetFunction(&c, m, want) == CUDA_SUCCESS) copy = c;
  }
  free(want);
  return copy;
}

/* Asks the driver what f's copy is (c->copy stays NULL when it has none, or
 * one whose parameters are not f's and then __gsan_lb). */
static void look_up(CUfunction f, copy_info *c) {
  memset(c, 0, sizeof *c);
  c->f = f;
  size_t off, size, coff, csize, end = 0;
  /* as rt_canary.c tells them apart: a CUfunction has its parameters
   * answered by cuFuncGetParamInfo (a kernel of none has no copy) */
  int kernel = !ls.FuncGetParamInfo || ls.FuncGetParamInfo(f, 0, &off, &size) != CUDA_SUCCESS;
  CUfunction copy = find_copy(kernel, f);
  if (!copy) return;
  for (unsigned w = 0; w < MAX_WORDS; w++) c->word[w].param = NO_PARAM;
  unsigned n = 0;
  for (; param_info(kernel, f, n, &off, &size) == CUDA_SUCCESS; n++) {
    if (n == RT_LAUNCH_MAX_PARAMS || off + size > GSAN_LAUNCH_MAX_BYTES) return;
    if (param_info(kernel, copy, n, &coff, &csize) != CUDA_SUCCESS || coff != off || csize != size) return;
    if (off + size > end) end = off + size;
    for (size_t w = (off + 7) / 8; w < MAX_WORDS && 8 * w + 8 <= off + size; w++) {
      c->word[w].param = (uint16_t)n;
      c->word[w].at = (uint16_t)(8 * w - off);
    }
  }
  /* __gsan_lb: the copy's last parameter, 8-aligned, past the kernel's */
  if (!n || param_info(kernel, copy, n, &coff, &csize) != CUDA_SUCCESS ||
      param_info(kernel, copy, n + 1, &off, &size) == CUDA_SUCCESS)
    return;
  if (coff % 8 || coff < end || !csize || csize % sizeof(gsan_launch_entry) || coff > GSAN_LAUNCH_MAX_BYTES ||
      csize > GSAN_LAUNCH_MAX_BYTES - coff)
    return;
  c->nparams = n;
  c->words = (unsigned)(csize / sizeof(gsan_launch_entry));
  c->hidden = coff;
  c->copy = copy;
}

static unsigned home(CUfunction f) {
  uint64_t x = (uint64_t)(uintptr_t)f * 0x9E3779B97F4A7C15ull;
  return (unsigned)(x >> 40) % SLOTS;
}

/* where f is kept, or the free slot where it would go (under ls.lock) */
static copy_info **slot_of(CUfunction f) {
  for (unsigned i = home(f), k = 0; k < SLOTS; i = (i + 1) % SLOTS, k++)
    if (!ls.slot[i] || ls.slot[i]->f == f) return &ls.slot[i];
  return NULL;
}

/* f's copy_info into *c, asked of the driver the first time */
static void info_of(CUfunction f, copy_info *c) {
  pthread_mutex_lock(&ls.lock);
  copy_info **s = slot_of(f);
  if (s && *s) {
    memcpy(c, *s, used(*s));
    pthread_mutex_unlock(&ls.lock);
    return;
  }
  unsigned gen = ls.gen;
  pthread_mutex_unlock(&ls.lock);
  /* the first launch may come inside a stream capture of the global mode,
   * which the driver ends at any call it deems unsafe (cuModuleGetFunction
   * loads the copy): relaxed while gsan asks */
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_gsan_capture_swap(&mode);
  look_up(f, c);
  rt_gsan_capture_swap(&mode);
  copy_info *keep = ls.kept < KEPT ? malloc(used(c)) : NULL;
  if (keep) memcpy(keep, c, used(c));
  pthread_mutex_lock(&ls.lock);
  s = slot_of(f);
  if (keep && gen == ls.gen && ls.kept < KEPT && s && !*s) {
    *s = keep;
    keep = NULL;
    ls.kept++;
  }
  pthread_mutex_unlock(&ls.lock);
  free(keep);
}

void rt_launch_forget(void) {
  pthread_mutex_lock(&ls.lock);
  for (unsigned i = 0; i < SLOTS; i++) {
    free(ls.slot[i]);
    ls.slot[i] = NULL;
  }
  ls.kept = 0;
  ls.gen++;
  pthread_mutex_unlock(&ls.lock);
}

/* the entry of the word v, in the arena of the launch's device */
static gsan_launch_entry entry_of(const rt_arena *a, uint64_t v) {
  gsan_launch_entry e = {0, 0};
  rt_arena_entry(a, v, &e.base, &e.entry); /* leaves {0, 0} outside the arena */
  return e;
}

/* The kernel's parameter buffer in extra: 1 with its bytes and size, 0 when
 * extra has another shape (what the driver makes of it is left to it). */
static int extra_buffer(void **extra, const unsigned char **bytes, size_t *size) {
  *bytes = NULL;
  *size = 0;
  int sized = 0;
  /* the _AS_INT forms have the same values */
  for (unsigned i = 0; i < 16; i += 2) {
    uintptr_t key = (uintptr_t)extra[i];
    if (key == (uintptr_t)CU_LAUNCH_PARAM_END) return *bytes && sized;
    if (key == (uintptr_t)CU_LAUNCH_PARAM_BUFFER_POINTER) {
      *bytes = extra[i + 1];
    } else if (key == (uintptr_t)CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) {
      *size = *(const size_t *)extra[i + 1];
      sized = 1;
    } else {
      return 0;
    }
  }
  return 0;
}

/* for print_stats: how many launches the copies served */
static unsigned long long launches, copied;

void rt_launch_counts(unsigned long long *all, unsigned long long *copies) {
  *all = __atomic_load_n(&launches, __ATOMIC_RELAXED);
  *copies = __atomic_load_n(&copied, __ATOMIC_RELAXED);
}

void rt_launch_prepare(rt_launch *l, CUfunction f, void **args, void **extra) {
  __atomic_fetch_add(&launches, 1, __ATOMIC_RELAXED);
  l->f = f;
  l->args = args;
  l->extra = extra;
  /* both or neither given: the driver's error, or a kernel of no parameters */
  if (!f || !rt_gsan.flags.launch_bounds || rt_gsan.forked || !rt_gsan_is_ready() || !args == !extra) return;
  pthread_once(&ls.once, init);
  copy_info c;
  info_of(f, &c);
  if (!c.copy) return;
  const unsigned char *user = NULL;
  size_t user_size = 0;
  if (extra && !extra_buffer(extra, &user, &user_size)) return;
  rt_dev *d = rt_gsan_dev_here();
  if (!d || !d->arena) return;
  gsan_launch_entry *e = (gsan_launch_entry *)(l->buf + (extra ? c.hidden : 0));
  for (unsigned w = 0; w < c.words; w++) {
    uint64_t v = 0;
    int have = c.word[w].param != NO_PARAM && (args || 8 * (size_t)w + 8 <= user_size);
    if (have) memcpy(&v, args ? (const unsigned char *)args[c.word[w].param] + c.word[w].at : user + 8 * w, 8);
    e[w] = have ? entry_of(d->arena, v) : (gsan_launch_entry){0, 0};
  }
  if (args) {
    memcpy(l->argv, args, c.nparams * sizeof *args);
    l->argv[c.nparams] = e;
    l->args = l->argv;
  } else {
    /* the kernel's buffer, zeros up to __gsan_lb, then the entries */
    size_t keep = user_size < c.hidden ? user_size : c.hidden;
    memcpy(l->buf, user, keep);
    memset(l->buf + keep, 0, c.hidden - keep);
    l->ext_size = c.hidden + c.words * sizeof *e;
    l->ext[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    l->ext[1] = l->buf;
    l->ext[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    l->ext[3] = &l->ext_size;
    l->ext[4] = CU_LAUNCH_PARAM_END;
    l->extra = l->ext;
  }
  l->f = c.copy;
  __atomic_fetch_add(&copied, 1, __ATOMIC_RELAXED);
}
