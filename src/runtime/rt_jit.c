/* PTX instrumented at load (rt_jit.h, docs/jit.md). A program that compiles
 * device code at run time (NVRTC, CuPy, a PTX file it loads, cuLinkAddData)
 * hands the driver PTX text, or a fatbin whose only code for the device is
 * PTX; the driver would compile it unchecked. The module-load hooks pass such
 * an image here, and load what comes back instead: the same PTX through
 * gsan's instrumenter (linked into libgsan, as gsan ptx runs it), in recover
 * mode when halt_on_error=0. Its site tables travel in the text as they do
 * in a build-time module. Results are cached on disk by a hash of the input
 * and of everything that shapes the output (this build of libgsan, the ABI,
 * the mode). Nothing here may break the program: what cannot be instrumented
 * is loaded as it came, and verbosity=1 says so. */
#include "rt_jit.h"

#include "../ptx/ptx_instr.h"
#include "rt_fatbin.h"
#include "rt_gsan.h"
#include "rt_trust.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct {
  pthread_once_t once;
  char identity[160]; /* hashed before the input: what else the output depends on */
  char dir[PATH_MAX]; /* the cache; "" when none is used */
} jit = {.once = PTHREAD_ONCE_INIT};

#define SAY(...) (rt_gsan.flags.verbosity ? rt_gsan_say(__VA_ARGS__) : (void)0)

static void set_up(void) {
  /* this libgsan's file: a rebuilt instrumenter writes other PTX */
  Dl_info me;
  struct stat st;
  if (!dladdr((void *)set_up, &me) || !me.dli_fname || stat(me.dli_fname, &st) != 0) memset(&st, 0, sizeof st);
  snprintf(jit.identity, sizeof jit.identity, "gsan jit: abi %d, libgsan %lld.%09ld %lld, recover %d", GSAN_ABI_VERSION,
           (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (long long)st.st_size, !rt_gsan.flags.halt_on_error);
  if (!rt_gsan.flags.jit_cache) return;
  char dir[PATH_MAX];
  rt_trust_err err;
  dir[0] = 0;
  if (rt_jit_cache_dir(rt_gsan.flags.jit_cache_dir, dir, sizeof dir) != 0)
    SAY("jit: no cache of instrumented PTX (%s: %s)", *dir ? dir : "no directory",
        *dir ? "the path is too long" : "none of GSAN_CACHE, XDG_CACHE_HOME or HOME is set");
  /* what is in it is loaded as code: a directory that fails gsan's rule
   * (rt_trust.h) is said at any verbosity, and not used */
  else if (rt_trust_make_dir(dir, jit.dir, &err) != 0)
    rt_gsan_say("jit: no cache of instrumented PTX (%s: %s)", err.path, err.why);
}

/* PTX begins with .version, after blank space and comments (NVRTC's and
 * nvcc's begin with a comment block). n: the bytes there are; the text may
 * also end at a NUL. */
static int looks_like_ptx(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i]) {
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
      i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] && s[i] != '\n') i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      for (i += 2; i + 1 < n && s[i] && !(s[i] == '*' && s[i + 1] == '/');) i++;
      i += 2;
    } else {
      break;
    }
  }
  return i < n && n - i >= 8 && !strncmp(s + i, ".version", 8);
}

/* The PTX in image that the driver would compile for sm_<arch> (malloc'd),
 * or NULL: none (*why says why when there is PTX that cannot be read).
 * *fatbin: it came out of a fatbin. */
static char *image_ptx(const void *image, size_t len, int arch, int *fatbin, const char **why) {
  const char *s = image;
  size_t n = len ? len : SIZE_MAX;
  *fatbin = 0;
  *why = NULL;
  if (looks_like_ptx(s, n)) {
    size_t k = len ? strnlen(s, len) : strlen(s);
    char *p = malloc(k + 1);
    if (p) memcpy(p, s, k), p[k] = 0;
    return p;
  }
  const void *fat;
  size_t flen;
  /* a fatbin (or its wrapper) starts with 4 bytes none of which is 0 */
  if (strnlen(s, 4) < 4 || (len && len < 16) || rt_image_kind(image, &fat, &flen) != RT_IMAGE_FATBIN) return NULL;
  if (!arch) {
    *why = "no device is current to choose its code for";
    return NULL;
  }
  int ne = 0;
  rt_fatbin_entry *e = rt_fatbin_list(fat, len && len < flen ? len : flen, &ne, why);
  if (!e) return NULL;
  const rt_fatbin_entry *best = NULL;
  for (int i = 0; i < ne; i++) {
    /* a cubin of the same major version, no newer than the device: the
     * driver runs it and compiles no PTX */
    if (e[i].kind == RT_ENTRY_ELF && (int)e[i].arch / 10 == arch / 10 && (int)e[i].arch <= arch) {
      free(e);
      return NULL;
    }
    if (e[i].kind == RT_ENTRY_PTX && (int)e[i].arch <= arch && (!best || e[i].arch > best->arch)) best = &e[i];
  }
  size_t plen;
  char *p = best ? (char *)rt_fatbin_payload(best, &plen, why) : NULL;
  free(e);
  *fatbin = p != NULL;
  return p;
}

/* src through the instrumenter, printed (malloc'd), or NULL with the first
 * message said at verbosity 1 */
static char *instrument(const char *src, size_t n, const char *what) {
  char *msgs = NULL, *out = NULL;
  size_t msglen = 0, outlen = 0;
  FILE *diag = open_memstream(&msgs, &msglen);
  if (!diag) return NULL;
  ptx_diag_redirect(diag); /* the instrumenter's messages stay out of the program's stderr */
  ptx_diag d = {what, 0, 0, 1};
  ptx_opts o = {.spaces = PTX_SPACES_ALL, .recover = !rt_gsan.flags.halt_on_error};
  ptx_stats st;
  memset(&st, 0, sizeof st);
  ptx_module *m = ptx_parse(src, n, &d);
  if (m && ptx_instrument(m, &o, &st, &d) == 0) {
    FILE *f = open_memstream(&out, &outlen);
    if (f) ptx_print(f, m);
    if (f && fclose(f) != 0) {
      free(out);
      out = NULL;
    }
  }
  ptx_diag_redirect(NULL);
  fclose(diag);
  if (m) ptx_module_free(m);
  long seen = 0, checked = 0;
  for (int i = 0; i < 6; i++) seen += st.seen[i], checked += st.checked[i];
  if (out) SAY("jit: %s: instrumented, %ld of %ld memory accesses checked", what, checked, seen);
  else SAY("jit: %s: stays uninstrumented, loaded as it came: %.*s", what, (int)strcspn(msgs ? msgs : "", "\n"),
           msgs && *msgs ? msgs : "out of memory");
  free(msgs);
  return out;
}

static char *from_cache(uint64_t key, const char *what) {
  int corrupt;
  char *p = *jit.dir ? rt_jit_cache_get(jit.dir, key, &corrupt) : NULL;
  if (p) SAY("jit: %s: instrumented PTX from the cache (%s/%016llx.ptx)", what, jit.dir, (unsigned long long)key);
  else if (*jit.dir && corrupt)
    SAY("jit: %s: the cache entry %s/%016llx.ptx is damaged; instrumenting again", what, jit.dir,
        (unsigned long long)key);
  return p;
}

static void to_cache(uint64_t key, const char *ptx) {
  static int said;
  const char *why;
  if (*jit.dir && rt_jit_cache_put(jit.dir, key, ptx, strlen(ptx), &why) != 0 &&
      !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    SAY("jit: cannot write to the cache in %s (%s); going on without it", jit.dir, why);
}

char *rt_jit_ptx(const void *image, size_t len, int arch, const char *what) {
  if (!image || !rt_gsan.flags.jit_instrument) return NULL;
  pthread_once(&jit.once, set_up);
  int fatbin;
  const char *why;
  char *src = image_ptx(image, len, arch, &fatbin, &why);
  if (!src) {
    if (why) SAY("jit: %s: its PTX for sm_%d stays uninstrumented: %s", what, arch, why);
    return NULL;
  }
  size_t n = strlen(src);
  if (memmem(src, n, GSAN_REPORT_FUNC, sizeof GSAN_REPORT_FUNC - 1)) {
    /* instrumented when it was built (gsan nvcc's fatbins carry it): the
     * driver compiles it as it is, and its site tables are in it */
    if (fatbin) return src;
    free(src);
    return NULL;
  }
  uint64_t key = rt_fnv64(rt_fnv64(RT_FNV_SEED, jit.identity, strlen(jit.identity)), src, n);
  char *out = from_cache(key, what);
  if (!out && (out = instrument(src, n, what)) != NULL) to_cache(key, out);
  free(src);
  return out;
}

void rt_jit_refused(const char *what, int r) {
  SAY("jit: %s: the driver refused the instrumented PTX (error %d); loaded as it came, uninstrumented", what, r);
}
