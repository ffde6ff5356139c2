/* gsan nvcc: a drop-in nvcc whose device code is instrumented. nvcc ignores
 * PATH for its own tools, but honours an nvcc.profile beside the nvcc it runs
 * (seen with nvcc 12 and 13 on the H100). So gsan keeps a private
 * directory with a symlink to the real nvcc and an edited profile that puts a
 * wrapper directory first on nvcc's PATH; the wrapper's ptxas is the gsan
 * binary itself, which instruments the PTX in place (so fatbinary embeds the
 * instrumented PTX too) and then runs the real ptxas with the same arguments. */
#include "cli.h"
#include "../runtime/rt_trust.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

static int exists(const char *p) { return access(p, X_OK) == 0; }

/* the real nvcc: $GSAN_NVCC, else the first on PATH, else /usr/local/cuda */
static int find_nvcc(char out[PATH_MAX]) { /* realpath writes up to PATH_MAX */
  const char *env = getenv("GSAN_NVCC");
  if (env && *env) return realpath(env, out) && exists(out) ? 0 : -1;
  const char *path = getenv("PATH");
  char cand[PATH_MAX];
  while (path && *path) {
    size_t len = strcspn(path, ":");
    snprintf(cand, sizeof cand, "%.*s/nvcc", (int)len, path);
    if (len && exists(cand) && realpath(cand, out)) return 0;
    path += len + (path[len] == ':');
  }
  return realpath("/usr/local/cuda/bin/nvcc", out) && exists(out) ? 0 : -1;
}

/* a new file only: nothing already there (a planted symbolic link) is
 * followed or written through */
static int write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    if (fd >= 0) close(fd);
    return -1;
  }
  int bad = fputs(text, f) < 0;
  return fclose(f) != 0 || bad ? -1 : 0;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); p = NULL; }
  if (p) p[n] = 0;
  fclose(f);
  return p;
}

/* The real profile with $(_HERE_) pointing at the real bin directory and the
 * wrapper directory first on PATH. */
static char *edit_profile(const char *profile, const char *bindir, const char *wrapdir) {
  size_t cap = strlen(profile) * 2 + 4 * PATH_MAX, n = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  for (const char *p = profile; *p;) {
    if (!strncmp(p, "$(_HERE_)", 9)) {
      n += (size_t)snprintf(out + n, cap - n, "%s", bindir);
      p += 9;
      continue;
    }
    /* the PATH line: "PATH += ..." gets the wrapper directory in front */
    if ((p == profile || p[-1] == '\n') && !strncmp(p, "PATH", 4)) {
      const char *eq = strstr(p, "+=");
      const char *eol = strchr(p, '\n');
      if (eq && (!eol || eq < eol)) {
        n += (size_t)snprintf(out + n, cap - n, "%.*s+= %s:", (int)(eq - p), p, wrapdir);
        p = eq + 2;
        while (*p == ' ' || *p == '\t') p++;
        continue;
      }
    }
    out[n++] = *p++;
  }
  out[n] = 0;
  return out;
}

/* gsan's cache root (rt_trust_cache_root), made and held to the rule for
 * what gsan runs code from (rt_trust.h). Without GSAN_CACHE,
 * XDG_CACHE_HOME or HOME, the one per-user directory $TMPDIR/gsan-<uid>
 * (or under /tmp), made 0700 and used only if it passes the rule (another
 * user who made it first gets it refused), said, and passed on in
 * GSAN_CACHE to what gsan runs. who: the command, in messages. */
static int cache_root(const char *who, char *root) {
  char want[PATH_MAX];
  rt_trust_err err;
  if (rt_trust_cache_root(want, sizeof want) == 0) {
    if (rt_trust_make_dir(want, root, &err) == 0) return 0;
    rt_trust_say(who, &err);
    return -1;
  }
  const char *tmp = getenv("TMPDIR");
  if (!tmp || *tmp != '/') tmp = "/tmp";
  if (snprintf(want, sizeof want, "%s/gsan-%u", tmp, (unsigned)geteuid()) >= (int)sizeof want) {
    fprintf(stderr, "%s: %s: the path is too long\n", who, tmp);
    return -1;
  }
  if (rt_trust_make_dir(want, root, &err) != 0) {
    fprintf(stderr, "%s: %s: %s (HOME is not set: set GSAN_CACHE to a directory of your own)\n", who, err.path,
            err.why);
    return -1;
  }
  fprintf(stderr, "%s: HOME is not set: using the private directory %s (set GSAN_CACHE to choose another)\n", who,
          root);
  setenv("GSAN_CACHE", root, 1);
  return 0;
}

/* dir and the two directories in it that gsan runs programs from */
static int check_private(const char *who, const char *dir) {
  char sub[PATH_MAX + 64];
  rt_trust_err err;
  int bad = rt_trust_dir(dir, NULL, &err);
  for (const char *const *s = (const char *const[]){"bin", "wrap", NULL}; !bad && *s; s++) {
    snprintf(sub, sizeof sub, "%s/%s", dir, *s);
    struct stat st;
    if (lstat(sub, &st) == 0) bad = rt_trust_dir(sub, NULL, &err);
  }
  if (bad) rt_trust_say(who, &err);
  return bad ? -1 : 0;
}

/* tmp, as build_private leaves it when it fails: its entries, then itself */
static void remove_private(const char *tmp) {
  char sub[PATH_MAX + 64], path[PATH_MAX * 2];
  for (const char *const *s = (const char *const[]){"bin", "wrap", NULL}; *s; s++) {
    snprintf(sub, sizeof sub, "%s/%s", tmp, *s);
    DIR *d = opendir(sub);
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL)
      if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", sub, ent->d_name);
        unlink(path);
      }
    if (d) closedir(d);
    rmdir(sub);
  }
  rmdir(tmp);
}

/* The private directory, built beside dir (a new directory from mkdtemp,
 * 0700) and renamed into place: concurrent builds never see half of it. */
static int build_private(const char *nvcc, const char *self, const char *dir) {
  char tmp[PATH_MAX + 32], sub[PATH_MAX + 64], bindir[PATH_MAX], wrapdir[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", dir);
  if (!mkdtemp(tmp)) return -1;
  snprintf(sub, sizeof sub, "%s/bin", tmp);
  mkdir(sub, 0700);
  snprintf(sub, sizeof sub, "%s/wrap", tmp);
  mkdir(sub, 0700);
  snprintf(bindir, sizeof bindir, "%s", nvcc);
  *strrchr(bindir, '/') = 0;
  snprintf(wrapdir, sizeof wrapdir, "%s/wrap", dir);
  /* the real profile is only ever read; the edited one goes into tmp */
  char real_profile[PATH_MAX + 64], own_profile[PATH_MAX + 64];
  snprintf(real_profile, sizeof real_profile, "%s/nvcc.profile", bindir);
  snprintf(own_profile, sizeof own_profile, "%s/bin/nvcc.profile", tmp);
  char *profile = read_file(real_profile);
  char *edited = profile ? edit_profile(profile, bindir, wrapdir) : NULL;
  free(profile);
  /* the private bin mirrors the real one (nvcc finds crt/ and its tools
   * beside itself), with its own profile, and ptxas pointing at gsan */
  int rc = edited && write_file(own_profile, edited) == 0 ? 0 : -1;
  DIR *d = rc == 0 ? opendir(bindir) : NULL;
  struct dirent *ent;
  while (d && rc == 0 && (ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.' || !strcmp(ent->d_name, "nvcc.profile")) continue;
    char from[PATH_MAX * 2], to[PATH_MAX * 2];
    snprintf(to, sizeof to, "%s/bin/%s", tmp, ent->d_name);
    if (!strcmp(ent->d_name, "ptxas")) snprintf(from, sizeof from, "%s", self);
    else snprintf(from, sizeof from, "%s/%s", bindir, ent->d_name);
    if (symlink(from, to) < 0) rc = -1;
  }
  if (d) closedir(d);
  char wrap[PATH_MAX + 64];
  snprintf(wrap, sizeof wrap, "%s/wrap/ptxas", tmp);
  if (rc == 0 && symlink(self, wrap) < 0) rc = -1;
  if (rc == 0 && rename(tmp, dir) != 0) rc = -1;
  free(edited);
  if (rc != 0) {
    int e = errno;
    remove_private(tmp);
    errno = e;
  }
  return rc;
}

/* One private directory per nvcc and gsan build, ROOT/nvcc-<hash> under
 * cache_root, made if needed, and used only if it passes the rule for what
 * gsan runs code from: anyone can compute the hash, so another user may
 * have made it first. Said (as who) when it cannot be had. */
static int private_dir(const char *who, const char *nvcc, const char *self, char *dir, size_t n) {
  char root[PATH_MAX];
  if (cache_root(who, root) != 0) return -1;
  uint64_t h = 1469598103934665603ull;
  for (const char *s = nvcc; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  for (const char *s = self; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  /* and the gsan build: Triton's cache lives beside the wrapper, and kernels
   * instrumented by another build must not be taken from it */
  struct stat st;
  if (stat(self, &st) == 0) h = (h ^ (uint64_t)st.st_mtime ^ ((uint64_t)st.st_size << 32)) * 1099511628211ull;
  if (snprintf(dir, n, "%s/nvcc-%016llx", root, (unsigned long long)h) >= (int)n - 32) {
    fprintf(stderr, "%s: %s: the path is too long\n", who, root);
    return -1;
  }
  char check[PATH_MAX + 32];
  snprintf(check, sizeof check, "%s/wrap/ptxas", dir);
  /* one there already is checked before anything in it is used */
  if (lstat(dir, &st) == 0 && check_private(who, dir) != 0) return -1;
  /* one made by a concurrent gsan, between the two: rename fails, theirs is used */
  if (!exists(check) && build_private(nvcc, self, dir) != 0) {
    int e = errno;
    if (!exists(check)) {
      fprintf(stderr, "%s: cannot set up %s: %s\n", who, dir, strerror(e));
      return -1;
    }
  }
  return check_private(who, dir);
}

static void usage(FILE *f) {
  fputs("usage: gsan nvcc [nvcc arguments]\n"
        "\n"
        "Runs nvcc with every kernel's PTX instrumented by gsan ptx before ptxas assembles it;\n"
        "all nvcc arguments pass through. -lineinfo is added unless -G or -lineinfo is given,\n"
        "so that reports name source lines.\n"
        "\n"
        "environment:\n"
        "  GSAN_NVCC         the nvcc to run (default: the first on PATH, else /usr/local/cuda)\n"
        "  GSAN_PTX_OPTIONS  options for gsan ptx, e.g. --recover\n"
        "  GSAN_CACHE        where the private nvcc directory lives (default $XDG_CACHE_HOME/gsan, else\n"
        "                    ~/.cache/gsan; without HOME $TMPDIR/gsan-<uid> or /tmp/gsan-<uid>, said so);\n"
        "                    refused unless only you (or root) can write to it (docs/security.md)\n",
        f);
}

int cli_nvcc(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "--gsan-help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  char nvcc[PATH_MAX], self[PATH_MAX], dir[PATH_MAX], prog[PATH_MAX + 16], ptxas[PATH_MAX + 16];
  if (find_nvcc(nvcc) < 0) {
    fprintf(stderr, "gsan nvcc: no nvcc found (set GSAN_NVCC or put the CUDA toolkit's bin on PATH)\n");
    return 2;
  }
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    fprintf(stderr, "gsan nvcc: cannot find the gsan executable: %s\n", strerror(errno));
    return 2;
  }
  self[sl] = 0;
  if (private_dir("gsan nvcc", nvcc, self, dir, sizeof dir) < 0) return 2;
  snprintf(prog, sizeof prog, "%s/bin/nvcc", dir);
  snprintf(ptxas, sizeof ptxas, "%s", nvcc);
  strcpy(strrchr(ptxas, '/') + 1, "ptxas");
  setenv("GSAN_REAL_PTXAS", ptxas, 1);
  int lineinfo = 1;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-G") || !strcmp(argv[i], "--device-debug") || !strcmp(argv[i], "-lineinfo") ||
        !strcmp(argv[i], "--generate-line-info"))
      lineinfo = 0;
  char **args = calloc((size_t)argc + 2, sizeof *args);
  int k = 0;
  args[k++] = prog;
  for (int i = 1; i < argc; i++) args[k++] = argv[i];
  if (lineinfo) args[k++] = "-lineinfo";
  args[k] = NULL;
  execv(prog, args);
  fprintf(stderr, "gsan nvcc: cannot run %s: %s\n", prog, strerror(errno));
  return 2;
}

int cli_ptxas_setup(char *wrapper, size_t n) {
  char nvcc[PATH_MAX], self[PATH_MAX], dir[PATH_MAX], ptxas[PATH_MAX + 16];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (find_nvcc(nvcc) < 0 || sl <= 0) return -1;
  self[sl] = 0;
  if (private_dir("gsan run", nvcc, self, dir, sizeof dir) < 0) return -2;
  snprintf(wrapper, n, "%s/wrap/ptxas", dir);
  snprintf(ptxas, sizeof ptxas, "%s", nvcc);
  strcpy(strrchr(ptxas, '/') + 1, "ptxas");
  setenv("GSAN_REAL_PTXAS", ptxas, 0);
  return 0;
}
