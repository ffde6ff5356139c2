/* Launches of kernels' launch-bounds copies (rt_launch.h). What a kernel's
 * copy is, and which of its words lie in which parameter, is asked of the
 * driver once per function handle and kept in a small hash table; a launch
 * then only reads its parameter words and computes their entries
 * (rt_arena_entry: no lock, no driver call). A kernel with a proven copy
 * also has its facts read once (rt_proof.h); a launch whose facts all hold
 * runs that copy. */
#include "rt_launch.h"
#include "rt_report.h"

#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_proof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WORDS (GSAN_LAUNCH_MAX_BYTES / (int)sizeof(gsan_launch_entry))
#define NO_PARAM 0xffff
/* functions kept; past them each launch asks the driver again */
#define KEPT 4096
#define SLOTS (2 * KEPT)

/* A launch's verdict (the first fact not shown, or -1), kept by a 128-bit
 * hash of all that the facts read: dimensions, dynamic shared bytes, the
 * parameter bytes their nodes read (rt_facts_params; a time step's counter
 * that no fact reads changes nothing) and the bounds of the pointer words
 * they check. A program that launches a kernel the same way again (a time
 * step, an iteration, nw's 1023 diagonals per fill) gets it back without the
 * arithmetic. A kernel's table grows with the launches it sees, up to
 * VERDICTS_MAX; past half of that a new verdict takes its slot's place. */
#define VERDICTS_FIRST 64
#define VERDICTS_MAX 16384
typedef struct verdict {
  uint64_t h1, h2;
  int failing;
  int used;
} verdict;

/* A kernel's proven copy and what decides it. Counted: the kept entry
 * holds one reference and each launch that copied it out another, so that
 * rt_launch_forget can drop it while a launch in another thread still reads
 * it; the last to let go frees it. */
typedef struct proven_info {
  unsigned refs;
  CUfunction copy;    /* the proven copy (a CUkernel cast, like f) */
  rt_facts *facts;
  pthread_mutex_t lock; /* for verdicts and the window */
  verdict *verdicts;  /* open addressing on h1, nverdicts of cap used */
  unsigned nverdicts, cap;
  /* the window of the last PROOF_WINDOW launches (adapt): when it began,
   * its launches, and the evaluations it needed and their time; stopped:
   * the kernel's launches run the launch-bounds copy unproven from then on */
  uint64_t window_t0, eval_ns;
  unsigned window_launches, window_evals;
  int stopped;
  char name[128];     /* the kernel's, for verbosity=2 (cut short) */
  unsigned nparams;
  struct { uint16_t off, size; } param[]; /* the kernel's parameters, as cuFuncGetParamInfo gives them */
} proven_info;

typedef struct copy_info {
  CUfunction f;       /* the kernel */
  CUfunction copy;    /* its copy (a CUkernel cast, like f); NULL: none to launch */
  proven_info *proven; /* NULL: no proven copy */
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
  CUresult (*FuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
  CUresult (*KernelGetAttribute)(int *, CUfunction_attribute, CUkernel, CUdevice);
} ls = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void init(void) {
  /* each asked for at the version it came with or later: the driver finds
   * no entry point at an older one (rt_canary.c) */
  *(void **)&ls.FuncGetName = rt_driver_real_v("cuFuncGetName", 12040, 0);
  *(void **)&ls.FuncGetParamInfo = rt_driver_real_v("cuFuncGetParamInfo", 12040, 0);
  *(void **)&ls.FuncGetModule = rt_driver_real_v("cuFuncGetModule", 11000, 0);
  *(void **)&ls.ModuleGetFunction = rt_driver_real("cuModuleGetFunction");
  *(void **)&ls.KernelGetName = rt_driver_real_v("cuKernelGetName", 12040, 0);
  *(void **)&ls.KernelGetParamInfo = rt_driver_real_v("cuKernelGetParamInfo", 12040, 0);
  *(void **)&ls.KernelGetLibrary = rt_driver_real_v("cuKernelGetLibrary", 12050, 0);
  *(void **)&ls.LibraryGetKernel = rt_driver_real_v("cuLibraryGetKernel", 12000, 0);
  *(void **)&ls.FuncGetAttribute = rt_driver_real("cuFuncGetAttribute");
  *(void **)&ls.KernelGetAttribute = rt_driver_real_v("cuKernelGetAttribute", 12000, 0);
}

/* registers per thread of f on the current device; -1 when not known */
static int registers(int kernel, CUfunction f) {
  int n = -1;
  CUdevice dev;
  if (kernel) {
    if (!ls.KernelGetAttribute || !rt_driver.cu.CtxGetDevice || rt_driver.cu.CtxGetDevice(&dev) != CUDA_SUCCESS ||
        ls.KernelGetAttribute(&n, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUkernel)f, dev) != CUDA_SUCCESS)
      return -1;
  } else if (!ls.FuncGetAttribute || ls.FuncGetAttribute(&n, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS) {
    return -1;
  }
  return n;
}

static CUresult param_info(int kernel, CUfunction f, size_t i, size_t *off, size_t *size) {
  if (kernel) return ls.KernelGetParamInfo ? ls.KernelGetParamInfo((CUkernel)f, i, off, size) : CUDA_ERROR_NOT_FOUND;
  return ls.FuncGetParamInfo ? ls.FuncGetParamInfo(f, i, off, size) : CUDA_ERROR_NOT_FOUND;
}

/* f's copy prefix + f's name in f's own module or library; NULL when there
 * is none. facts: also the global GSAN_FACTS_PREFIX + f's name, its
 * address and size (left 0 when there is none). */
static CUfunction find_copy(int kernel, CUfunction f, const char *prefix, CUdeviceptr *facts, size_t *facts_size) {
  const char *name = NULL;
  CUfunction copy = NULL;
  if (kernel ? !ls.KernelGetName || !ls.KernelGetLibrary || !ls.LibraryGetKernel ||
                   ls.KernelGetName(&name, (CUkernel)f) != CUDA_SUCCESS
             : !ls.FuncGetName || !ls.FuncGetModule || !ls.ModuleGetFunction ||
                   ls.FuncGetName(&name, f) != CUDA_SUCCESS)
    return NULL;
  if (!name) return NULL;
  size_t n = strlen(GSAN_FACTS_PREFIX) + strlen(prefix) + strlen(name) + 1;
  char *want = malloc(n), *global = malloc(n);
  if (!want || !global) {
    free(want);
    free(global);
    return NULL;
  }
  strcpy(want, prefix);
  strcat(want, name);
  strcpy(global, GSAN_FACTS_PREFIX);
  strcat(global, name);
  if (kernel) {
    CUlibrary lib;
    CUkernel k;
    if (ls.KernelGetLibrary(&lib, (CUkernel)f) == CUDA_SUCCESS && ls.LibraryGetKernel(&k, lib, want) == CUDA_SUCCESS) {
      copy = (CUfunction)k;
      if (facts && rt_driver.cu.LibraryGetGlobal &&
          rt_driver.cu.LibraryGetGlobal(facts, facts_size, lib, global) != CUDA_SUCCESS)
        *facts = 0;
    }
  } else {
    CUmodule m;
    CUfunction c;
    if (ls.FuncGetModule(&m, f) == CUDA_SUCCESS && ls.ModuleGetFunction(&c, m, want) == CUDA_SUCCESS) {
      copy = c;
      if (facts && rt_driver.cu.ModuleGetGlobal && rt_driver.cu.ModuleGetGlobal(facts, facts_size, m, global) != CUDA_SUCCESS)
        *facts = 0;
    }
  }
  free(want);
  free(global);
  return copy;
}

/* The facts blob at g (device memory), read on gsan's own non-blocking
 * stream: a copy on the legacy stream would wait for the program's other
 * streams, and end a capture of this thread's (looked up in relaxed mode). */
static rt_facts *read_facts(CUdeviceptr g, size_t size, unsigned nparams) {
  rt_dev *d = rt_device_here();
  if (!g || !size || size > (1u << 20) || !d || !d->own_stream || !rt_driver.cu.MemcpyDtoHAsync) return NULL;
  void *blob = malloc(size);
  if (!blob) return NULL;
  rt_facts *f = NULL;
  const char *why = "the copy failed";
  if (rt_driver.cu.MemcpyDtoHAsync(blob, g, size, d->own_stream) == CUDA_SUCCESS &&
      rt_driver.cu.StreamSynchronize(d->own_stream) == CUDA_SUCCESS)
    f = rt_facts_parse(blob, size, nparams, &why);
  if (!f && rt_gsan.flags.verbosity > 0) rt_gsan_say("launch facts unusable (%s): the kernel runs checked", why);
  free(blob);
  return f;
}

/* f's proven copy, when it has one with the launch-bounds copy's
 * parameters and facts that read; NULL otherwise */
static proven_info *find_proven(int kernel, CUfunction f, CUfunction copy, unsigned nparams) {
  CUdeviceptr g = 0;
  size_t gsize = 0, off, size, coff, csize;
  CUfunction p = find_copy(kernel, f, GSAN_PROVEN_PREFIX, &g, &gsize);
  if (!p || !g) return NULL;
  for (unsigned i = 0; i <= nparams; i++)
    if (param_info(kernel, copy, i, &off, &size) != CUDA_SUCCESS ||
        param_info(kernel, p, i, &coff, &csize) != CUDA_SUCCESS || coff != off || csize != size)
      return NULL;
  if (param_info(kernel, p, nparams + 1, &off, &size) == CUDA_SUCCESS) return NULL;
  /* ptxas sometimes gives the copy with fewer checks more registers (gemm_naive's
   * 32 -> 48): fewer warps then fit, which can cost more than the checks did.
   * Registers are allotted to a warp 8 per thread at a time. */
  int rp = registers(kernel, p), rc = registers(kernel, copy);
  if (rp > 0 && rc > 0 && (rp + 7) / 8 > (rc + 7) / 8) {
    if (rt_gsan.flags.verbosity > 0)
      rt_gsan_say("proven copy not used: %d registers per thread against the launch-bounds copy's %d", rp, rc);
    return NULL;
  }
  proven_info *pi = calloc(1, sizeof *pi + nparams * sizeof pi->param[0]);
  if (!pi) return NULL;
  pi->copy = p;
  pi->nparams = nparams;
  const char *name = NULL;
  if (kernel ? ls.KernelGetName((const char **)&name, (CUkernel)f) : ls.FuncGetName(&name, f)) name = NULL;
  snprintf(pi->name, sizeof pi->name, "%s", name ? name : "?");
  for (unsigned i = 0; i < nparams; i++) {
    if (param_info(kernel, f, i, &off, &size) != CUDA_SUCCESS) {
      free(pi);
      return NULL;
    }
    pi->param[i].off = (uint16_t)off;
    pi->param[i].size = (uint16_t)size;
  }
  pi->facts = read_facts(g, gsize, nparams);
  if (!pi->facts) {
    free(pi);
    return NULL;
  }
  pi->refs = 1;
  pthread_mutex_init(&pi->lock, NULL); /* no verdicts, an empty window: calloc's zeros */
  return pi;
}

static void release(proven_info *pi) {
  if (pi && __atomic_sub_fetch(&pi->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    rt_facts_free(pi->facts);
    pthread_mutex_destroy(&pi->lock);
    free(pi->verdicts);
    free(pi);
  }
}

/* Asks the driver what f's copy is (c->copy stays NULL when it has none, or
 * one whose parameters are not f's and then __gsan_lb), and with proofs
 * its proven copy (c->proven, one reference the caller's). */
static void look_up(CUfunction f, copy_info *c, int proofs) {
  memset(c, 0, sizeof *c);
  c->f = f;
  size_t off, size, coff, csize, end = 0;
  /* as rt_canary.c tells them apart: a CUfunction has its parameters
   * answered by cuFuncGetParamInfo (a kernel of none has no copy) */
  int kernel = !ls.FuncGetParamInfo || ls.FuncGetParamInfo(f, 0, &off, &size) != CUDA_SUCCESS;
  CUfunction copy = find_copy(kernel, f, GSAN_LAUNCH_PREFIX, NULL, NULL);
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
  c->proven = proofs && rt_gsan.flags.launch_proofs ? find_proven(kernel, f, copy, n) : NULL;
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

/* f's copy_info into *c, asked of the driver the first time; c->proven,
 * when set, holds a reference for the caller to release */
static void info_of(CUfunction f, copy_info *c) {
  pthread_mutex_lock(&ls.lock);
  copy_info **s = slot_of(f);
  if (s && *s) {
    memcpy(c, *s, used(*s));
    if (c->proven) __atomic_add_fetch(&c->proven->refs, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ls.lock);
    return;
  }
  unsigned gen = ls.gen;
  /* a look-up that will not be kept reads no facts: it would read them
   * again at every launch */
  int proofs = ls.kept < KEPT;
  pthread_mutex_unlock(&ls.lock);
  /* the first launch may come inside a stream capture of the global mode,
   * which the driver ends at any call it deems unsafe (cuModuleGetFunction
   * loads the copy): relaxed while gsan asks */
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_driver_capture_swap(&mode);
  look_up(f, c, proofs);
  rt_driver_capture_swap(&mode);
  copy_info *keep = proofs ? malloc(used(c)) : NULL;
  if (keep) memcpy(keep, c, used(c));
  pthread_mutex_lock(&ls.lock);
  s = slot_of(f);
  if (keep && gen == ls.gen && ls.kept < KEPT && s && !*s) {
    *s = keep;
    keep = NULL;
    ls.kept++;
    if (c->proven) __atomic_add_fetch(&c->proven->refs, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&ls.lock);
  free(keep);
}

/* the kernels already warned of by rt_launch_refused */
#define REFUSED_MAX 64
static struct {
  CUfunction f[REFUSED_MAX];
  unsigned n;
} refused_seen;

void rt_launch_refused(CUfunction f, unsigned threads) {
  pthread_once(&ls.once, init);
  pthread_mutex_lock(&ls.lock);
  int seen = 0;
  for (unsigned i = 0; i < refused_seen.n && !seen; i++) seen = refused_seen.f[i] == f;
  if (!seen && refused_seen.n < REFUSED_MAX) refused_seen.f[refused_seen.n++] = f;
  pthread_mutex_unlock(&ls.lock);
  if (seen) return;
  const char *name = NULL;
  int kernel = !ls.FuncGetName || ls.FuncGetName(&name, f) != CUDA_SUCCESS;
  if (kernel && (!ls.KernelGetName || ls.KernelGetName(&name, (CUkernel)f) != CUDA_SUCCESS)) name = NULL;
  char buf[512];
  int regs = registers(kernel, f);
  char why[96] = "";
  if (regs > 0) snprintf(why, sizeof why, ": built by gsan it needs %d registers a thread", regs);
  rt_gsan_say("warning: the launch of %s with %u threads a block was refused (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)%s; "
              "give the kernel __launch_bounds__(%u), or build with -maxrregcount",
              name ? rt_demangle(name, buf, sizeof buf) : "a kernel", threads, why, threads);
}

void rt_launch_forget(void) {
  pthread_mutex_lock(&ls.lock);
  for (unsigned i = 0; i < SLOTS; i++) {
    if (ls.slot[i]) release(ls.slot[i]->proven);
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

/* parameter word w of the launch (kernelParams, or the extra buffer of
 * user_size bytes): 0 when no parameter holds it whole, or it lies past the
 * buffer */
static int read_word(const copy_info *c, void **args, const unsigned char *user, size_t user_size, unsigned w,
                     uint64_t *out) {
  if (w >= c->words || c->word[w].param == NO_PARAM || (!args && 8 * (size_t)w + 8 > user_size)) return 0;
  memcpy(out, args ? (const unsigned char *)args[c->word[w].param] + c->word[w].at : user + 8 * w, 8);
  return 1;
}

/* for print_stats: how many launches the copies served */
static unsigned long long launches, copied, proven;

void rt_launch_counts(unsigned long long *all, unsigned long long *copies, unsigned long long *proofs) {
  *all = __atomic_load_n(&launches, __ATOMIC_RELAXED);
  *copies = __atomic_load_n(&copied, __ATOMIC_RELAXED);
  *proofs = __atomic_load_n(&proven, __ATOMIC_RELAXED);
}

/* ---- what a launch fixes, for its facts (rt_proof.h) ---- */
/* the pointer words a kernel's facts may check: a kernel whose facts read
 * more runs its launch-bounds copy */
#define BOUNDS_KEPT 64
typedef struct launch_view {
  const copy_info *c;
  void **args;                /* kernelParams, or NULL */
  const unsigned char *user;  /* ... the argument buffer of extra */
  size_t user_size;
  const rt_arena *arena;      /* the launching device's */
  /* the bounds asked for so far in this launch */
  struct kept_bounds { uint64_t p, base, size; int ok; } kept[BOUNDS_KEPT];
  unsigned nkept;
  int sealed;                 /* the key is made: no more arena look-ups */
} launch_view;

static int view_param(void *ctx, unsigned index, uint64_t off, unsigned bytes, uint64_t *out) {
  const launch_view *v = ctx;
  const proven_info *pi = v->c->proven;
  if (index >= pi->nparams || off + bytes > pi->param[index].size || bytes > 8) return 0;
  const unsigned char *from;
  if (v->args) {
    if (!v->args[index]) return 0;
    from = (const unsigned char *)v->args[index] + off;
  } else {
    if (pi->param[index].off + off + bytes > v->user_size) return 0;
    from = v->user + pi->param[index].off + off;
  }
  *out = 0;
  memcpy(out, from, bytes); /* little endian, like the device */
  return 1;
}

static int view_word(void *ctx, unsigned w, uint64_t *out) {
  const launch_view *v = ctx;
  return read_word(v->c, v->args, v->user, v->user_size, w, out);
}

/* the bounds the launch-bounds copy would check p against: its live
 * allocation, or the unchecked bounds outside the arena */
static int view_bounds(void *ctx, uint64_t p, uint64_t *base, uint64_t *size) {
  launch_view *v = ctx;
  for (unsigned i = 0; i < v->nkept; i++)
    if (v->kept[i].p == p) {
      *base = v->kept[i].base;
      *size = v->kept[i].size;
      return v->kept[i].ok;
    }
  /* once the launch's key is made, every pointer the facts may ask for
   * has its bounds here: asking the arena again could find another
   * allocation (a free and a new one in another thread between), and
   * decide on bounds that are not the ones the verdict is kept under */
  if (v->sealed || v->nkept == BOUNDS_KEPT) return 0;
  rt_alloc_info info;
  memset(&info, 0, sizeof info);
  int ok = 1;
  *base = 0;
  *size = GSAN_UNCHECKED_SIZE;
  if (rt_arena_holds(v->arena, p)) {
    ok = rt_arena_find((rt_arena *)v->arena, p, &info) == RT_OK && info.state == RT_SLOT_LIVE;
    *base = info.base;
    *size = ok ? info.size : 0;
  }
  v->kept[v->nkept++] = (struct kept_bounds){p, *base, *size, ok};
  return ok;
}

/* ---- verdicts kept (see verdict) ---- */
static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

typedef struct key { uint64_t h1, h2; } key;

static void feed(key *k, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    memcpy(&w, p + i, n - i < 8 ? n - i : 8);
    k->h1 = mix(k->h1 ^ w) + 0x9e3779b97f4a7c15ull;
    k->h2 = mix(k->h2 + w * 0xd6e8feb86659fd93ull) ^ 0xa0761d6478bd642full;
  }
  k->h1 = mix(k->h1 ^ n);
  k->h2 = mix(k->h2 + n);
}

/* the hash of what the facts read at this launch (the bounds asked of the
 * arena once, kept in v for the evaluation) */
static key launch_key(launch_view *v, const rt_launch_dims *dims) {
  key k = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull};
  const proven_info *pi = v->c->proven;
  uint64_t shape[7] = {dims->grid[0], dims->grid[1], dims->grid[2], dims->block[0],
                       dims->block[1], dims->block[2], dims->shared};
  feed(&k, shape, sizeof shape);
  /* the parameter bytes the nodes read, as they read them (a read that
   * fails, a missing argument or one past the buffer, is fed as such) */
  const rt_facts_read *reads;
  unsigned nr = rt_facts_params(pi->facts, &reads);
  for (unsigned i = 0; i < nr; i++) {
    uint64_t b[2] = {0, 0};
    b[1] = (uint64_t)view_param(v, reads[i].index, reads[i].off, reads[i].bytes, &b[0]) + 1;
    feed(&k, b, sizeof b);
  }
  const uint16_t *words;
  unsigned n = rt_facts_words(pi->facts, &words);
  for (unsigned i = 0; i < n; i++) {
    uint64_t b[4] = {0, 0, 0, 0};
    if (view_word(v, words[i], &b[0])) b[3] = (uint64_t)view_bounds(v, b[0], &b[1], &b[2]) + 1;
    feed(&k, b, sizeof b);
  }
  v->sealed = 1;
  return k;
}

/* where k is kept in pi's table, or the free slot where it would go (under
 * pi->lock, with a table) */
static verdict *verdict_slot(const proven_info *pi, key k) {
  unsigned i = (unsigned)k.h1 & (pi->cap - 1);
  for (unsigned n = 0; n < pi->cap; n++, i = (i + 1) & (pi->cap - 1)) {
    verdict *e = &pi->verdicts[i];
    if (!e->used || (e->h1 == k.h1 && e->h2 == k.h2)) return e;
  }
  return NULL;
}

/* the verdict kept for k: 1 and *failing, or 0 */
static int kept_verdict(proven_info *pi, key k, int *failing) {
  pthread_mutex_lock(&pi->lock);
  const verdict *e = pi->verdicts ? verdict_slot(pi, k) : NULL;
  int hit = e && e->used;
  if (hit) *failing = e->failing;
  pthread_mutex_unlock(&pi->lock);
  return hit;
}

static void keep_verdict(proven_info *pi, key k, int failing) {
  pthread_mutex_lock(&pi->lock);
  if (2 * (pi->nverdicts + 1) > pi->cap && pi->cap < VERDICTS_MAX) {
    unsigned cap = pi->cap ? 2 * pi->cap : VERDICTS_FIRST;
    verdict *old = pi->verdicts, *t = calloc(cap, sizeof *t);
    if (t) {
      unsigned oldcap = pi->cap;
      pi->verdicts = t;
      pi->cap = cap;
      for (unsigned i = 0; i < oldcap; i++)
        if (old[i].used) *verdict_slot(pi, (key){old[i].h1, old[i].h2}) = old[i];
      free(old);
    }
  }
  verdict *e = NULL;
  if (pi->verdicts) {
    /* a full table: the new verdict replaces the one in its first slot */
    e = 2 * (pi->nverdicts + 1) > pi->cap ? &pi->verdicts[(unsigned)k.h1 & (pi->cap - 1)] : verdict_slot(pi, k);
    if (e && !e->used) pi->nverdicts++;
  }
  if (e) *e = (verdict){k.h1, k.h2, failing, 1};
  pthread_mutex_unlock(&pi->lock);
}

/* Proving a launch whose verdict is not kept costs an evaluation of the
 * facts on the host (micro-seconds for a few dozen facts). A kernel whose
 * launches keep needing new ones (a plane or row index that changes at each
 * launch and that the facts read) and come so fast that the evaluations
 * take launch_proofs_cost percent (20) or more of the host's time between
 * them is launch-bound: the proofs cost more than the checks they leave out
 * save, and the kernel's launches run its launch-bounds copy from then on
 * (verbosity=1 says so). Measured per window of PROOF_WINDOW launches; a
 * window with evaluations in at most half of its launches, or spread out in
 * time, keeps proving. */
#define PROOF_WINDOW 32
static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static unsigned long long evaluations, stopped_kernels;

/* a launch of pi's kernel that needed (evaluated: 1) or did not need an
 * evaluation taking ns; 1 when this launch stopped the kernel's proofs */
static int adapt(proven_info *pi, int evaluated, uint64_t t, uint64_t ns) {
  int stop = 0;
  pthread_mutex_lock(&pi->lock);
  if (!pi->window_launches) pi->window_t0 = t;
  pi->window_launches++;
  pi->window_evals += evaluated;
  pi->eval_ns += ns;
  if (pi->window_launches == PROOF_WINDOW) {
    uint64_t span = t + ns - pi->window_t0;
    int pct = rt_gsan.flags.launch_proofs_cost;
    if (2 * pi->window_evals > PROOF_WINDOW && pct < 100 && 100 * pi->eval_ns >= (uint64_t)pct * span)
      __atomic_store_n(&pi->stopped, stop = 1, __ATOMIC_RELAXED); /* prepare reads it without the lock */
    pi->window_launches = pi->window_evals = 0;
    pi->eval_ns = 0;
  }
  pthread_mutex_unlock(&pi->lock);
  return stop;
}

/* 1 when the driver says s is not being captured (an error, such as the
 * legacy stream's while another stream captures, says nothing) */
static int surely_not_captured(CUstream s) {
  CUstreamCaptureStatus c = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  return rt_driver.cu.StreamIsCapturing && rt_driver.cu.StreamIsCapturing(s, &c) == CUDA_SUCCESS &&
         c == CU_STREAM_CAPTURE_STATUS_NONE;
}

/* l's launch of c's copies, given the kernel's args or extra */
static void prepare(rt_launch *l, const copy_info *c, void **args, void **extra, const rt_launch_dims *dims) {
  if (!c->copy) return;
  const unsigned char *user = NULL;
  size_t user_size = 0;
  if (extra && !extra_buffer(extra, &user, &user_size)) return;
  rt_dev *d = rt_device_here();
  if (!d || !d->arena) return;
  gsan_launch_entry *e = (gsan_launch_entry *)(l->buf + (extra ? c->hidden : 0));
  for (unsigned w = 0; w < c->words; w++) {
    uint64_t v;
    e[w] = read_word(c, args, user, user_size, w, &v) ? entry_of(d->arena, v) : (gsan_launch_entry){0, 0};
  }
  if (args) {
    memcpy(l->argv, args, c->nparams * sizeof *args);
    l->argv[c->nparams] = e;
    l->args = l->argv;
  } else {
    /* the kernel's buffer, zeros up to __gsan_lb, then the entries */
    size_t keep = user_size < c->hidden ? user_size : c->hidden;
    memcpy(l->buf, user, keep);
    memset(l->buf + keep, 0, c->hidden - keep);
    l->ext_size = c->hidden + c->words * sizeof *e;
    l->ext[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    l->ext[1] = l->buf;
    l->ext[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    l->ext[3] = &l->ext_size;
    l->ext[4] = CU_LAUNCH_PARAM_END;
    l->extra = l->ext;
  }
  l->f = c->copy;
  __atomic_fetch_add(&copied, 1, __ATOMIC_RELAXED);
  /* The proven copy reads no bounds for the checks it left out: a launch
   * captured into a graph, replayed after a free, must not run it. */
  if (!c->proven || !dims || !rt_gsan.flags.launch_proofs || __atomic_load_n(&c->proven->stopped, __ATOMIC_RELAXED) ||
      !surely_not_captured(dims->stream))
    return;
  launch_view v = {c, args, user, user_size, d->arena, {{0, 0, 0, 0}}, 0, 0};
  rt_proof_launch pl = {{dims->grid[0], dims->grid[1], dims->grid[2]},
                        {dims->block[0], dims->block[1], dims->block[2]},
                        dims->shared,
                        &v,
                        view_param,
                        view_word,
                        view_bounds};
  key k = launch_key(&v, dims);
  int failing, evaluated = 0;
  uint64_t t = now_ns(), ns = 0;
  if (!kept_verdict(c->proven, k, &failing)) {
    failing = rt_facts_failing(c->proven->facts, &pl);
    keep_verdict(c->proven, k, failing);
    evaluated = 1;
    ns = now_ns() - t;
    __atomic_fetch_add(&evaluations, 1, __ATOMIC_RELAXED);
  }
  if (adapt(c->proven, evaluated, t, ns)) {
    __atomic_fetch_add(&stopped_kernels, 1, __ATOMIC_RELAXED);
    if (rt_gsan.flags.verbosity)
      rt_gsan_say("launch proofs of %s stopped: its launches keep needing new evaluations of its facts, which cost "
                  "the host more than the checks they leave out save; its launch-bounds copy runs from now on",
                  c->proven->name);
  }
  if (rt_gsan.flags.verbosity > 1) {
    if (failing < 0)
      rt_gsan_say("launch of %s: proven copy (%u checks decided)", c->proven->name, rt_facts_count(c->proven->facts));
    else
      rt_gsan_say("launch of %s: launch-bounds copy (check %d of %u not shown in bounds)", c->proven->name, failing + 1,
                  rt_facts_count(c->proven->facts));
  }
  if (failing >= 0) return;
  l->f = c->proven->copy;
  __atomic_fetch_add(&proven, 1, __ATOMIC_RELAXED);
}

void rt_launch_prepare(rt_launch *l, CUfunction f, void **args, void **extra, const rt_launch_dims *dims) {
  __atomic_fetch_add(&launches, 1, __ATOMIC_RELAXED);
  l->f = f;
  l->args = args;
  l->extra = extra;
  /* both or neither given: the driver's error, or a kernel of no parameters */
  if (!f || !rt_gsan.flags.launch_bounds || rt_gsan.forked || !rt_gsan_is_ready() || !args == !extra) return;
  pthread_once(&ls.once, init);
  copy_info c;
  info_of(f, &c);
  prepare(l, &c, args, extra, dims);
  release(c.proven);
}

/* a reset context took its modules with it */
static void forget_device(const struct rt_dev *d) {
  (void)d;
  rt_launch_forget();
}

static void print_stats(void) {
  unsigned long long all, copies, proofs;
  rt_launch_counts(&all, &copies, &proofs);
  rt_gsan_say("stats: %llu kernel launches, %llu of them through launch-bounds copies, %llu of those proven at launch",
              all, copies, proofs);
  rt_gsan_say("stats: %llu evaluations of launch facts, proofs stopped for %llu kernels",
              __atomic_load_n(&evaluations, __ATOMIC_RELAXED), __atomic_load_n(&stopped_kernels, __ATOMIC_RELAXED));
}

const rt_listener rt_launch_listener = {.name = "launch", .forget = forget_device, .stats = print_stats};
