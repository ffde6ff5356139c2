/* gsan nvcc: a drop-in nvcc whose device code is instrumented. nvcc ignores
 * PATH for its own tools, but honours an nvcc.profile beside the nvcc it runs
 * (seen on the H100: ../shared/notes/h100-probe.md). So gsan keeps a private
 * directory with a symlink to the real nvcc and an edited profile that puts a
 * wrapper directory first on nvcc's PATH; the wrapper's ptxas is the gsan
 * binary itself, which instruments the PTX in place (so fatbinary embeds the
 * instrumented PTX too) and then runs the real ptxas with the same arguments. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
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

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
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

/* $GSAN_CACHE, or ~/.cache/gsan: one private directory per nvcc */
static int private_dir(const char *nvcc, const char *self, char *dir, size_t n) {
  const char *base = getenv("GSAN_CACHE"), *home = getenv("HOME");
  char root[PATH_MAX / 2]; /* leaves room for what is appended below */
  if (base && *base) snprintf(root, sizeof root, "%s", base);
  else if (getenv("XDG_CACHE_HOME")) snprintf(root, sizeof root, "%s/gsan", getenv("XDG_CACHE_HOME"));
  else snprintf(root, sizeof root, "%s/.cache/gsan", home && *home ? home : "/tmp");
  uint64_t h = 1469598103934665603ull;
  for (const char *s = nvcc; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  for (const char *s = self; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  /* and the gsan build: Triton's cache lives beside the wrapper, and kernels
   * instrumented by another build must not be taken from it */
  struct stat st;
  if (stat(self, &st) == 0) h = (h ^ (uint64_t)st.st_mtime ^ ((uint64_t)st.st_size << 32)) * 1099511628211ull;
  snprintf(dir, n, "%s/nvcc-%016llx", root, (unsigned long long)h);
  char check[PATH_MAX + 32];
  snprintf(check, sizeof check, "%s/wrap/ptxas", dir);
  if (exists(check)) return 0;
  /* build it beside, then rename: concurrent builds never see half of it */
  char tmp[PATH_MAX + 32], sub[PATH_MAX + 64], bindir[PATH_MAX], wrapdir[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.%ld", dir, (long)getpid());
  for (char *s = root + 1; *s; s++)
    if (*s == '/') { *s = 0; mkdir(root, 0755); *s = '/'; }
  mkdir(root, 0755);
  snprintf(sub, sizeof sub, "%s", tmp);
  if (mkdir(sub, 0755) < 0) return -1;
  snprintf(sub, sizeof sub, "%s/bin", tmp);
  mkdir(sub, 0755);
  snprintf(sub, sizeof sub, "%s/wrap", tmp);
  mkdir(sub, 0755);
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
  if (rc == 0) rc = rename(tmp, dir) == 0 || exists(check) ? 0 : -1;
  free(edited);
  return rc;
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
        "  GSAN_CACHE        where the private nvcc directory lives (default ~/.cache/gsan)\n",
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
  if (private_dir(nvcc, self, dir, sizeof dir) < 0) {
    fprintf(stderr, "gsan nvcc: cannot set up %s: %s\n", dir, strerror(errno));
    return 2;
  }
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
  if (private_dir(nvcc, self, dir, sizeof dir) < 0) return -1;
  snprintf(wrapper, n, "%s/wrap/ptxas", dir);
  snprintf(ptxas, sizeof ptxas, "%s", nvcc);
  strcpy(strrchr(ptxas, '/') + 1, "ptxas");
  setenv("GSAN_REAL_PTXAS", ptxas, 0);
  return 0;
}

/* Invoked as "ptxas" from the private directory: instrument the input PTX in
 * place, then become the real ptxas. */
int cli_ptxas_wrapper(int argc, char **argv) {
  const char *real = getenv("GSAN_REAL_PTXAS");
  if (!real || !*real) {
    fprintf(stderr, "gsan (as ptxas): GSAN_REAL_PTXAS is not set; run through gsan nvcc\n");
    return 2;
  }
  const char *input = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output-file")) { i++; continue; }
    size_t n = strlen(argv[i]);
    if (argv[i][0] != '-' && n > 4 && !strcmp(argv[i] + n - 4, ".ptx")) input = argv[i];
  }
  if (input) {
    char self[PATH_MAX];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    pid_t pid = sl > 0 ? fork() : -1;
    if (pid == 0) {
      self[sl] = 0;
      char *args[16];
      int k = 0;
      args[k++] = self;
      args[k++] = "ptx";
      args[k++] = "-q";
      char *opts = getenv("GSAN_PTX_OPTIONS") ? strdup(getenv("GSAN_PTX_OPTIONS")) : NULL;
      for (char *t = opts ? strtok(opts, " ") : NULL; t && k < 12; t = strtok(NULL, " ")) args[k++] = t;
      args[k++] = (char *)input;
      args[k++] = "-o";
      args[k++] = (char *)input;
      args[k] = NULL;
      execv(self, args);
      _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      /* the build goes on, unchecked, and says so: breaking it would be worse */
      fprintf(stderr, "gsan: warning: %s could not be instrumented; its kernels run unchecked\n", input);
  }
  argv[0] = (char *)real;
  execv(real, argv);
  fprintf(stderr, "gsan (as ptxas): cannot run %s: %s\n", real, strerror(errno));
  return 2;
}
