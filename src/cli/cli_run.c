/* gsan run: runs a program with libgsan preloaded. The program's exit status
 * comes through unchanged, or GSAN_OPTIONS' exitcode when gsan reported
 * errors (libgsan exits with it). */
#include "cli.h"
#include "../runtime/rt_flags.h"
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
        "--opt adds to GSAN_OPTIONS (see gsan help options). GSAN_LIB overrides the library (a\n"
        "':'-separated list is preloaded in its order; each, and its directory, must be owned by you or\n"
        "root and writable by neither group nor others: docs/security.md).\n"
        "Triton's kernels are instrumented too: TRITON_PTXAS_PATH is set to gsan's ptxas wrapper (an\n"
        "earlier TRITON_PTXAS_PATH becomes the ptxas it runs; without one it runs the CUDA toolkit's),\n"
        "and TRITON_CACHE_DIR and TORCHINDUCTOR_CACHE_DIR (torch.compile's cache, which keeps Triton's\n"
        "kernels too) to gsan's own caches, so kernels compiled without gsan are not reused.\n"
        "PyTorch: PYTORCH_NO_CUDA_MEMORY_CACHING=1 is set, so that each tensor is its own allocation\n"
        "with exact bounds; a value already in the environment is kept (=0 keeps PyTorch's caching\n"
        "allocator in releases that read the value; bounds are then its blocks).\n"
        "CuPy: CUPY_COMPILE_WITH_PTX=1 is set (a value already there is kept), so its kernels reach the\n"
        "driver as PTX, which libgsan instruments at load, and CUPY_CACHE_DIR to gsan's own cache.\n",
        f);
}

/* libgsan.so beside the gsan binary: bin/../lib, or the same directory. GSAN_LIB
 * may name several, ':'-separated, preloaded in that order (a sanitizer's
 * runtime before a libgsan built with it); each is held to the rule for what
 * gsan loads code from (rt_trust.h): -2, said, when one fails it. */
static int find_lib(char *out, size_t n) {
  const char *env = getenv("GSAN_LIB");
  if (env && *env) {
    rt_trust_err err;
    for (const char *p = env; *p; p += *p == ':') {
      size_t k = strcspn(p, ":");
      snprintf(out, n, "%.*s", (int)k, p);
      if (access(out, R_OK)) return -1;
      if (rt_trust_file(out, NULL, &err) != 0) {
        fprintf(stderr, "gsan run: %s: %s\n", err.path, err.why);
        return -2;
      }
      p += k;
    }
    snprintf(out, n, "%s", env);
    return 0;
  }
  char self[PATH_MAX];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) return -1;
  self[sl] = 0;
  *strrchr(self, '/') = 0;
  snprintf(out, n, "%s/../lib/libgsan.so", self);
  if (access(out, R_OK) == 0) return 0;
  snprintf(out, n, "%s/libgsan.so", self);
  return access(out, R_OK);
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

/* binary=1 loads sanitizer_lib (GSAN_OPTIONS with --opt's added) as code:
 * held to the rule before the program starts. One that is not there is left
 * to libgsan, which says it cannot load it; options that do not parse too. */
static int sanitizer_lib_ok(const char *opts) {
  rt_flags f;
  char err[256];
  rt_trust_err terr;
  rt_flags_defaults(&f);
  if (rt_flags_parse(&f, opts, err, sizeof err) != 0 || !f.binary || !f.sanitizer_lib[0] ||
      access(f.sanitizer_lib, F_OK) != 0 || rt_trust_file(f.sanitizer_lib, NULL, &terr) == 0)
    return 1;
  fprintf(stderr, "gsan run: %s: %s\n", terr.path, terr.why);
  return 0;
}

/* PyTorch: with its caching allocator off, each tensor is its own
 * cudaMalloc, so gsan's bounds are the tensor's (with it on, a tensor is a
 * piece of a block of 2 MiB or more). A value the user set stays. */
static void torch_env(void) { setenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "1", 0); }

/* CuPy asks NVRTC for a cubin, which gsan cannot instrument; asked for PTX,
 * it loads that through cuModuleLoadData, where libgsan instruments it
 * (docs/jit.md). A value the user set stays. */
static void cupy_env(void) { setenv("CUPY_COMPILE_WITH_PTX", "1", 0); }

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
  char lib[PATH_MAX + 32];
  int found = find_lib(lib, sizeof lib);
  if (found != 0 || !sanitizer_lib_ok(opts)) {
    if (found == -1) fprintf(stderr, "gsan run: libgsan.so not found next to gsan (set GSAN_LIB)\n");
    free(opts);
    return 2;
  }
  const char *old = getenv("LD_PRELOAD");
  size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
  char *pre = malloc(n);
  snprintf(pre, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
  setenv("LD_PRELOAD", pre, 1);
  if (*opts) setenv("GSAN_OPTIONS", opts, 1);
  if (triton_env() != 0) {
    free(pre);
    free(opts);
    return 2;
  }
  torch_env();
  cupy_env();
  execvp(argv[i], argv + i);
  fprintf(stderr, "gsan run: cannot run '%s': %s\n", argv[i], strerror(errno));
  free(pre); /* setenv kept copies */
  free(opts);
  return 127;
}
