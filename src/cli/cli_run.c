/* gsan run: runs a program with libgsan preloaded. The program's exit status
 * comes through unchanged, or GSAN_OPTIONS' exitcode when gsan reported
 * errors (libgsan exits with it). */
#include "cli.h"
#include "../runtime/rt_flags.h"
#include "../runtime/rt_suppress.h"
#include "../runtime/rt_jit.h"
#include "../runtime/rt_trust.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
  fputs("usage: gsan run [--binary] [--opt name=value]... [--] PROGRAM [ARGS...]\n"
        "\n"
        "Runs PROGRAM with libgsan preloaded: device allocations get exact bounds, instrumented\n"
        "kernels (built with gsan nvcc) report out-of-bounds and use-after-free accesses.\n"
        "--binary also checks kernels gsan did not compile (SASS only: closed libraries, PyTorch's own\n"
        "kernels): their global accesses are patched at load through NVIDIA's Sanitizer API\n"
        "(GSAN_OPTIONS binary=1; docs/binary.md).\n"
        "--opt adds to GSAN_OPTIONS (see gsan help options; the kinds of report, which a suppressions\n"
        "file names: gsan help reports). GSAN_LIB overrides the library (a ':'-separated list is\n"
        "preloaded in its order; each, and its directory, must be owned by you or root and writable by\n"
        "neither group nor others: docs/security.md).\n"
        "Triton's kernels are instrumented too: TRITON_PTXAS_PATH is set to gsan's ptxas wrapper (an\n"
        "earlier TRITON_PTXAS_PATH becomes the ptxas it runs; without one it runs the CUDA toolkit's),\n"
        "and TRITON_CACHE_DIR and TORCHINDUCTOR_CACHE_DIR (torch.compile's cache, which keeps Triton's\n"
        "kernels too) to gsan's own caches, so kernels compiled without gsan are not reused.\n"
        "PyTorch: PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync is set, so that each tensor is its own\n"
        "stream-ordered allocation with exact bounds, made and freed without waiting (gsan's own\n"
        "allocator serves it; quarantine_mb says how long a freed tensor's memory stays unused). When\n"
        "PYTORCH_CUDA_ALLOC_CONF or PYTORCH_NO_CUDA_MEMORY_CACHING is in the environment already, it is\n"
        "kept, and PYTORCH_NO_CUDA_MEMORY_CACHING=1 is set unless given (each tensor its own cudaMalloc,\n"
        "exact bounds but every free waits for the device; =0 keeps PyTorch's caching allocator in\n"
        "releases that read the value: bounds are then its blocks).\n"
        "CuPy: CUPY_COMPILE_WITH_PTX=1 is set (a value already there is kept), so its kernels reach the\n"
        "driver as PTX, which libgsan instruments at load, and CUPY_CACHE_DIR to gsan's own cache;\n"
        "its memory pool stays on (bounds are its blocks; cupy.cuda.set_allocator(None) gives exact ones).\n"
        "JAX: XLA_PYTHON_CLIENT_ALLOCATOR=platform is set (a value already there is kept), so XLA\n"
        "allocates each buffer on its own instead of one preallocated pool.\n"
        "Memory that libraries' pools keep until exit (PyTorch, CuPy, XLA, RMM) is not called a leak.\n",
        f);
}

/* libgsan.so beside the gsan binary: bin/../lib, or the same directory. GSAN_LIB
 * may name several, ':'-separated, preloaded in that order (a sanitizer's
 * runtime before a libgsan built with it); each is held to the rule for what
 * gsan loads code from (rt_trust.h), and what is preloaded is the list of
 * their resolved paths, so a link swapped after the check changes nothing.
 * The list (malloc'd) in *out; -1 when libgsan.so is not beside gsan, -2
 * (said, naming the entry) when an entry of GSAN_LIB cannot be had. */
static int find_lib(char **out) {
  const char *env = getenv("GSAN_LIB");
  *out = NULL;
  if (env && *env) {
    rt_trust_err err;
    char real[PATH_MAX];
    size_t cap = 1, n = 0;
    char *list = calloc(1, cap);
    for (const char *p = env; *p; p += *p == ':') {
      size_t k = strcspn(p, ":");
      char *entry = strndup(p, k);
      p += k;
      if (!*entry) { /* an empty entry, as in "a::b" */
        free(entry);
        continue;
      }
      int bad = rt_trust_file(entry, real, &err) != 0;
      if (!bad && access(real, R_OK) != 0) {
        snprintf(err.path, sizeof err.path, "%s", real);
        snprintf(err.why, sizeof err.why, "cannot read it: %s", strerror(errno));
        bad = 1;
      }
      free(entry);
      char *grown = bad ? NULL : realloc(list, cap += strlen(real) + 1);
      if (bad || !grown) {
        if (!bad) {
          snprintf(err.path, sizeof err.path, "%s", real);
          snprintf(err.why, sizeof err.why, "%s", strerror(ENOMEM));
        }
        /* GSAN_LIB: the entry as resolved (or as given, when it does not resolve) and why */
        rt_trust_say("gsan run: GSAN_LIB", &err);
        free(list);
        return -2;
      }
      list = grown;
      n += (size_t)sprintf(list + n, "%s%s", n ? ":" : "", real);
    }
    if (!n) {
      fputs("gsan run: GSAN_LIB names no library\n", stderr);
      free(list);
      return -2;
    }
    *out = list;
    return 0;
  }
  char self[PATH_MAX], lib[PATH_MAX + 32];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) return -1;
  self[sl] = 0;
  *strrchr(self, '/') = 0;
  snprintf(lib, sizeof lib, "%s/../lib/libgsan.so", self);
  if (access(lib, R_OK) != 0) snprintf(lib, sizeof lib, "%s/libgsan.so", self);
  if (access(lib, R_OK) != 0) return -1;
  *out = strdup(lib);
  return 0;
}

/* A cache of compiled kernels beside the wrapper (DIR/wrap/ptxas), DIR/name,
 * in var: made 0700 now, before the framework makes it as it would, and
 * held to the rule for what gsan loads code from (rt_trust.h). */
static int cache_env(const char *wrapper, const char *name, const char *var) {
  char cache[PATH_MAX + 48], real[PATH_MAX];
  rt_trust_err err;
  size_t dir = strlen(wrapper) - strlen("/wrap/ptxas");
  snprintf(cache, sizeof cache, "%.*s/%s", (int)dir, wrapper, name);
  if (rt_trust_make_dir(cache, real, &err) != 0) {
    rt_trust_say("gsan run", &err);
    return -1;
  }
  setenv(var, real, 1);
  return 0;
}

/* Triton assembles its PTX with the ptxas TRITON_PTXAS_PATH names: gsan's
 * wrapper instruments it first. Without a CUDA toolkit there is no wrapper,
 * and Triton's kernels run unchecked. -1 (said) when gsan's private
 * directory or a cache in it cannot be used. */
static int triton_env(void) {
  char wrapper[PATH_MAX + 32];
  const char *user = getenv("TRITON_PTXAS_PATH");
  /* gsan's already (a gsan run inside a gsan run) */
  if (user && *user && strstr(user, "/wrap/ptxas")) user = NULL;
  if (user && *user) setenv("GSAN_REAL_PTXAS", user, 1);
  int rc = cli_ptxas_setup(wrapper, sizeof wrapper);
  if (rc != 0) return rc == -1 ? 0 : -1;
  setenv("TRITON_PTXAS_PATH", wrapper, 1);
  /* beside the wrapper, per gsan build: Triton's cache key does not see the
   * wrapper, so kernels it compiled without gsan, or for another gsan, would
   * be taken from its cache unchecked.
   * torch.compile (Inductor) bundles the Triton kernels it compiled into
   * its own cache and writes them back into Triton's on a hit: its cache
   * too is gsan's, or a graph compiled without gsan would bring its
   * kernels back unchecked.
   * CuPy keeps what NVRTC made for it: cubins from a run without gsan
   * would load as they are. */
  if (cache_env(wrapper, "triton", "TRITON_CACHE_DIR") != 0 ||
      cache_env(wrapper, "inductor", "TORCHINDUCTOR_CACHE_DIR") != 0 || cache_env(wrapper, "cupy", "CUPY_CACHE_DIR") != 0)
    return -1;
  return 0;
}

/* The options (GSAN_OPTIONS with --opt's added) and the suppressions file
 * they name are read before the program starts: one that does not parse is
 * one line and exit 2, on any machine (libgsan reads them only once the
 * driver loads, so without a GPU driver a typo went unsaid).
 * binary=1 loads sanitizer_lib as code: held to the rule before the program
 * starts. One that is not there is left to libgsan, which says it cannot
 * load it.
 * So is the JIT cache, whose entries libgsan loads as code (jit_cache, the
 * default): made 0700 now (in GSAN_CACHE, which triton_env may have set),
 * and one that fails the rule is refused here rather than only said by
 * libgsan, which goes on without it. 0, or -1 said. */
static int options_ok(const char *opts) {
  rt_flags f;
  char err[256], dir[PATH_MAX];
  rt_trust_err terr;
  rt_flags_defaults(&f);
  if (rt_flags_parse(&f, opts, err, sizeof err) != 0) {
    fprintf(stderr, "gsan run: %s\n", err);
    return -1;
  }
  if (f.suppressions[0]) {
    rt_suppress *sp = calloc(1, sizeof *sp);
    const char *bad = !sp ? "out of memory" : rt_suppress_load(sp, 0, f.suppressions, err, sizeof err) != 0 ? err : NULL;
    free(sp);
    if (bad) {
      fprintf(stderr, "gsan run: %s\n", bad);
      return -1;
    }
  }
  if (f.binary && f.sanitizer_lib[0] && access(f.sanitizer_lib, F_OK) == 0 &&
      rt_trust_file(f.sanitizer_lib, NULL, &terr) != 0) {
    rt_trust_say("gsan run", &terr);
    return -1;
  }
  /* none (no GSAN_CACHE, XDG_CACHE_HOME or HOME): libgsan keeps no cache */
  if (f.jit_cache && rt_jit_cache_dir(f.jit_cache_dir, dir, sizeof dir) == 0 &&
      rt_trust_make_dir(dir, NULL, &terr) != 0) {
    rt_trust_say("gsan run", &terr);
    return -1;
  }
  return 0;
}

/* PyTorch: its cudaMallocAsync backend makes each tensor its own
 * cuMemAllocAsync, an arena slot, freed in stream order (rt_retire.h) with
 * no wait, and handles record_stream itself (a tensor used on another
 * stream is freed after that stream's work). Where the user chose an
 * allocator setting, theirs stays, with caching off unless they said
 * otherwise: each tensor its own cudaMalloc (with caching on, a tensor is a
 * piece of a block of 2 MiB or more). */
static void torch_env(void) {
  if (!getenv("PYTORCH_CUDA_ALLOC_CONF") && !getenv("PYTORCH_NO_CUDA_MEMORY_CACHING"))
    setenv("PYTORCH_CUDA_ALLOC_CONF", "backend:cudaMallocAsync", 1);
  else
    setenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "1", 0);
}

/* CuPy asks NVRTC for a cubin, which gsan cannot instrument; asked for PTX,
 * it loads that through cuModuleLoadData, where libgsan instruments it
 * (docs/jit.md). A value the user set stays. */
static void cupy_env(void) { setenv("CUPY_COMPILE_WITH_PTX", "1", 0); }

/* JAX: XLA preallocates most of the GPU as one pool (its BFC allocator) and
 * hands out pieces of it; with the platform allocator each buffer is its own
 * allocation, with exact bounds, freed when XLA frees it. A value the user
 * set stays. */
static void jax_env(void) { setenv("XLA_PYTHON_CLIENT_ALLOCATOR", "platform", 0); }

int cli_run(int argc, char **argv) {
  int i = 1;
  size_t optlen = getenv("GSAN_OPTIONS") ? strlen(getenv("GSAN_OPTIONS")) : 0;
  char *opts = calloc(1, optlen + 1 + (size_t)argc * 256);
  if (getenv("GSAN_OPTIONS")) strcpy(opts, getenv("GSAN_OPTIONS"));
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      free(opts);
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--binary")) {
#ifndef GSAN_HAVE_SANITIZER
      fputs("gsan run: --binary: this gsan was built without NVIDIA's Sanitizer API headers "
            "(compute-sanitizer/include/sanitizer.h under CUDA_HOME or DEPS_DIR/sanitizer/include); "
            "rebuild with them to use binary mode\n",
            stderr);
      free(opts);
      return 2;
#endif
      if (*opts) strcat(opts, ":");
      strcat(opts, "binary=1");
      continue;
    }
    if (!strcmp(argv[i], "--opt") && i + 1 < argc) {
      if (*opts) strcat(opts, ":");
      strncat(opts, argv[++i], 255);
      continue;
    }
    if (!strcmp(argv[i], "--")) i++;
    break;
  }
  if (i >= argc) {
    free(opts);
    usage(stderr);
    return 2;
  }
  char *lib;
  int found = find_lib(&lib);
  if (found != 0) {
    if (found == -1) fprintf(stderr, "gsan run: libgsan.so not found next to gsan (set GSAN_LIB)\n");
    free(opts);
    return 2;
  }
  const char *old = getenv("LD_PRELOAD");
  size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
  char *pre = malloc(n);
  snprintf(pre, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
  setenv("LD_PRELOAD", pre, 1);
  free(lib);
  if (*opts) setenv("GSAN_OPTIONS", opts, 1);
  /* the private directory and the caches (and GSAN_CACHE without HOME) first */
  if (triton_env() != 0 || options_ok(opts) != 0) {
    free(pre);
    free(opts);
    return 2;
  }
  torch_env();
  cupy_env();
  jax_env();
  execvp(argv[i], argv + i);
  fprintf(stderr, "gsan run: cannot run '%s': %s\n", argv[i], strerror(errno));
  free(pre); /* setenv kept copies */
  free(opts);
  return 127;
}
