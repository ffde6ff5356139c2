/* Suppression rules (rt_suppress.h): parsed once, matched with fnmatch. */
#include "rt_suppress.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* device memory that libraries keep until exit by design: reporting it as
 * leaked would fail every run of a program that uses them. A rule names a
 * frame of the allocation's stack or the file of a library on it. */
static const char *const builtin[] = {
    "leak:CUDACachingAllocator",   /* PyTorch's block cache */
    "leak:libc10_cuda.so",         /* PyTorch's allocator, cached or not (its file) */
    "leak:CUDAPluggableAllocator", /* PyTorch's tensors through gsan_torch_malloc */
    "leak:SingleDeviceMemoryPool", /* CuPy's memory pool (cupy.cuda.MemoryPool) */
    "leak:BFCAllocator",           /* XLA's (JAX's, TensorFlow's) best-fit pool */
    "leak:/jaxlib/",               /* XLA's runtime in JAX, and its CUDA plugin */
    "leak:/jax_plugins/",
    "leak:rmm::mr::",              /* RMM's memory resources (pools, arenas; cuDF's) */
    "leak:/librmm.so",
    "leak:/rmm/_lib/",
    "leak:cublasCreate",           /* cuBLAS handle workspaces */
    "leak:cublasLtCreate",
    "leak:cudnnCreate",
};

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* s[0..*len) without the blanks around it */
static const char *trim(const char *s, size_t *len) {
  while (*len && is_space(s[*len - 1])) (*len)--;
  while (*len && is_space(*s)) s++, (*len)--;
  return s;
}

static int add(rt_suppress *sp, const char *line, size_t len, char *err, size_t errlen, const char *where) {
  line = trim(line, &len);
  if (!len || *line == '#') return 0;
  const char *colon = memchr(line, ':', len);
  size_t klen = colon ? (size_t)(colon - line) : 0, plen = colon ? len - klen - 1 : 0;
  const char *kind = trim(line, &klen), *pat = colon ? trim(colon + 1, &plen) : NULL;
  if (!colon || !klen || !plen) {
    snprintf(err, errlen, "%s: expected kind:pattern", where);
    return -1;
  }
  /* the kinds a rule can name: every report kind, and * for any */
  int any = klen == 1 && *kind == '*';
  int k = any ? RT_SUPPRESS_ANY : rt_report_kind_lookup(kind, klen);
  if (!any && k < 0) {
    snprintf(err, errlen, "%s: '%.*s' is not a report kind (gsan help reports lists them; * is any)", where,
             (int)klen, kind);
    return -1;
  }
  if (plen + 3 > sizeof sp->s[0].pattern) {
    snprintf(err, errlen, "%s: pattern too long", where);
    return -1;
  }
  if (sp->n == RT_SUPPRESS_MAX) {
    snprintf(err, errlen, "%s: more than %d suppressions", where, RT_SUPPRESS_MAX);
    return -1;
  }
  rt_suppression *s = &sp->s[sp->n++];
  memset(s, 0, sizeof *s);
  s->kind = k;
  snprintf(s->pattern, sizeof s->pattern, "*%.*s*", (int)plen, pat);
  return 0;
}

int rt_suppress_load(rt_suppress *sp, int with_builtin, const char *path, char *err, size_t errlen) {
  sp->n = 0;
  if (with_builtin)
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) add(sp, builtin[i], strlen(builtin[i]), err, errlen, "");
  if (!path || !*path) return 0;
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "suppressions: cannot open '%s': %s", path, strerror(errno));
    return -1;
  }
  char line[512], where[600];
  int lineno = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    lineno++;
    snprintf(where, sizeof where, "suppressions: %s:%d", path, lineno);
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
      snprintf(err, errlen, "%s: line longer than %zu characters", where, sizeof line - 2);
      rc = -1;
    } else {
      rc = add(sp, line, len, err, errlen, where);
    }
  }
  fclose(f);
  return rc;
}

static int matches(const rt_suppression *s, const char *const *names, int n) {
  for (int j = 0; j < n; j++)
    if (names[j] && fnmatch(s->pattern, names[j], FNM_NOESCAPE) == 0) return 1;
  return 0;
}

const rt_suppression *rt_suppress_match(rt_suppress *sp, rt_report_kind kind, const char *const *names, int n,
                                        const char *const *frames, int nframes) {
  for (int i = 0; i < sp->n; i++) {
    rt_suppression *s = &sp->s[i];
    if (s->kind != RT_SUPPRESS_ANY && s->kind != (int)kind) continue;
    if (matches(s, names, n) || matches(s, frames, nframes)) {
      s->hits++;
      return s;
    }
  }
  return NULL;
}

const char *rt_suppress_kind(const rt_suppression *s) {
  return s->kind == RT_SUPPRESS_ANY ? "*" : rt_report_kind_name((rt_report_kind)s->kind);
}
