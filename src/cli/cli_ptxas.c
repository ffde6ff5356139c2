/* gsan as ptxas, in gsan nvcc's private directory (cli_nvcc.c sets it up):
 * the input PTX is instrumented in place (`gsan ptx`), then assembled by the
 * real ptxas, so that every kernel still launches as its original did.
 *
 * Registers. Checks cost registers, and a kernel the program launches with
 * 1024 threads a block fits a multiprocessor's 64K registers only at 64 a
 * thread or fewer: HeCBench's CUB block scan takes 48 natively and 79 once
 * instrumented, and every launch of it was refused
 * (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), the program printing FAIL. So ptxas
 * runs with -v, its output kept; when an entry takes more than 64 registers
 * a thread, the original PTX is assembled too (to /dev/null) for the
 * original kernel's count, and every entry made of that kernel (itself, its
 * launch-bounds and proven copies) that would allow fewer threads a block
 * than the original gets `.maxnreg` of the most that allows as many, and
 * ptxas runs again. An entry with its own .maxnreg, .maxntid or .reqntid is
 * left as it is (ptxas holds it to them already). What ptxas prints is
 * passed on, less the -v lines gsan asked for; with the program's own -v
 * they stay, and a line says which kernels were held to fewer registers. */
#include "cli.h"

#include <gsan/abi.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* a multiprocessor's registers, and a warp's allotment: 8 a thread at a time */
#define REGS_PER_SM 65536
#define MAX_THREADS 1024

/* the most threads a block of a kernel of r registers a thread can have */
static unsigned threads_for(unsigned r) {
  unsigned per = (r + 7) / 8 * 8;
  unsigned t = per ? REGS_PER_SM / per / 32 * 32 : MAX_THREADS;
  return t > MAX_THREADS ? MAX_THREADS : t;
}

/* the most registers a thread that still allow blocks of t threads */
static unsigned regs_for(unsigned t) {
  unsigned r = REGS_PER_SM / t / 8 * 8;
  return r > 255 ? 255 : r;
}

typedef struct entry_regs {
  char name[512];
  unsigned regs;
} entry_regs;

/* the entries ptxas -v named in log and their registers; how many (at most max) */
static size_t parse_regs(const char *log, entry_regs *out, size_t max) {
  size_t n = 0;
  const char *cur = NULL;
  size_t cur_len = 0;
  for (const char *l = log; l && *l;) {
    const char *eol = strchr(l, '\n');
    size_t len = eol ? (size_t)(eol - l) : strlen(l);
    const char *c = strstr(l, "Compiling entry function '");
    if (c && c < l + len) {
      cur = c + strlen("Compiling entry function '");
      const char *q = memchr(cur, '\'', (size_t)(l + len - cur));
      cur_len = q ? (size_t)(q - cur) : 0;
    }
    const char *u = strstr(l, ": Used ");
    unsigned r;
    if (u && u < l + len && cur && cur_len && cur_len < sizeof out[0].name && n < max &&
        sscanf(u, ": Used %u registers", &r) == 1) {
      memcpy(out[n].name, cur, cur_len);
      out[n].name[cur_len] = 0;
      out[n].regs = r;
      n++;
      cur = NULL;
    }
    l = eol ? eol + 1 : NULL;
  }
  return n;
}

/* the original kernel an entry was made of: its name less gsan's prefix */
static const char *original_of(const char *entry) {
  static const char *const prefixes[] = {GSAN_LAUNCH_PREFIX, GSAN_PROVEN_PREFIX};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (!strncmp(entry, prefixes[i], strlen(prefixes[i]))) return entry + strlen(prefixes[i]);
  return entry;
}

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *b = malloc(cap + 1);
  size_t k;
  while (b && (k = fread(b + len, 1, cap - len, f)) > 0) {
    len += k;
    if (len == cap) {
      char *nb = realloc(b, 2 * cap + 1);
      if (!nb) { free(b); b = NULL; break; }
      b = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (b) b[len] = 0;
  if (n) *n = len;
  return b;
}

/* A new file beside path (nvcc's temporary files may be in a shared /tmp:
 * made by mkstemp, so that no planted link redirects a write), its name in
 * out; its descriptor, or -1. */
static int temp_beside(const char *path, char *out, size_t n) {
  if ((size_t)snprintf(out, n, "%s.gsan-XXXXXX", path) >= n) return -1;
  return mkstemp(out);
}

static int write_all(int fd, const char *text, size_t n) {
  while (n) {
    ssize_t k = write(fd, text, n);
    if (k <= 0) return -1;
    text += k;
    n -= (size_t)k;
  }
  return 0;
}

/* text in place of path: written to a new file beside it, renamed over it */
static int replace(const char *path, const char *text, size_t n) {
  char tmp[PATH_MAX + 16];
  int fd = temp_beside(path, tmp, sizeof tmp);
  if (fd < 0) return -1;
  int ok = write_all(fd, text, n) == 0;
  ok = close(fd) == 0 && ok && rename(tmp, path) == 0;
  if (!ok) unlink(tmp);
  return ok ? 0 : -1;
}

/* runs argv with its stdout and stderr into the file open at fd (emptied
 * first); its exit status, or -1 when it could not run */
static int run_logged(char **argv, int fd) {
  if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ptxas's output as the program would see it: with its own -v all of it,
 * else less the lines -v adds (info lines, and the indented ones after
 * them) */
static void pass_on(const char *log, int verbose) {
  int after_info = 0;
  for (const char *l = log; l && *l;) {
    const char *eol = strchr(l, '\n');
    size_t len = eol ? (size_t)(eol - l) + 1 : strlen(l);
    int info = !strncmp(l, "ptxas info", 10);
    int cont = after_info && l[0] == ' ';
    if (verbose || (!info && !cont)) fwrite(l, 1, len, stderr);
    after_info = info || cont;
    l += len;
  }
}

/* where entry name's body begins in ptx (its directives are between its
 * parameters and it), or NULL when it is not there or limits its registers
 * or threads itself */
static const char *open_body(const char *ptx, const char *name) {
  size_t nl = strlen(name);
  for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
    const char *q = p + 7;
    while (*q == ' ' || *q == '\t') q++;
    if (strncmp(q, name, nl) || (q[nl] != '(' && q[nl] != ' ' && q[nl] != '\n' && q[nl] != '\t')) continue;
    const char *close = strchr(q + nl, ')'), *body = close ? strchr(close, '{') : NULL;
    if (!body) return NULL;
    for (const char *d = close; d < body; d++)
      if (!strncmp(d, ".maxnreg", 8) || !strncmp(d, ".maxntid", 8) || !strncmp(d, ".reqntid", 8)) return NULL;
    return body;
  }
  return NULL;
}

/* the PTX with `.maxnreg cap` added to entry name's directives, or NULL
 * (open_body found none to add to) */
static char *cap_entry(const char *ptx, const char *name, unsigned cap) {
  const char *body = open_body(ptx, name);
  if (!body) return NULL;
  size_t head = (size_t)(body - ptx), total = strlen(ptx);
  char line[32];
  int k = snprintf(line, sizeof line, ".maxnreg %u\n", cap);
  char *out = malloc(total + (size_t)k + 1);
  if (!out) return NULL;
  memcpy(out, ptx, head);
  memcpy(out + head, line, (size_t)k);
  memcpy(out + head + k, ptx + head, total - head + 1);
  return out;
}

#define MAX_ENTRIES 4096

/* After the instrumented PTX at input was assembled (argv, with -v, its
 * output in log): the entries that allow fewer threads a block than their
 * originals (in orig, the PTX as it came) held to what the original allows,
 * in input; how many were. */
static int fit_registers(char **argv, int argc, const char *input, const char *orig, const char *log,
                         int verbose) {
  static entry_regs got[MAX_ENTRIES], native[MAX_ENTRIES];
  size_t ng = parse_regs(log, got, MAX_ENTRIES), over = 0;
  char *ptx = slurp(input, NULL);
  /* only an entry that sets no limit of its own (Triton's all do) */
  for (size_t i = 0; ptx && i < ng; i++) over += got[i].regs > regs_for(MAX_THREADS) && open_body(ptx, got[i].name);
  if (!over) {
    free(ptx);
    return 0;
  }
  /* the original PTX assembled alone, for its kernels' registers */
  char **a = calloc((size_t)argc + 3, sizeof *a);
  if (!a) {
    free(ptx);
    return 0;
  }
  int k = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output-file")) {
      a[k++] = argv[i++];
      a[k++] = "/dev/null";
      continue;
    }
    a[k++] = argv[i] == input ? (char *)orig : argv[i];
  }
  a[k] = NULL;
  char nlog[PATH_MAX + 16];
  int fd = temp_beside(input, nlog, sizeof nlog);
  int st = fd < 0 ? -1 : run_logged(a, fd);
  free(a);
  if (fd >= 0) close(fd);
  char *nl = st == 0 ? slurp(nlog, NULL) : NULL;
  if (fd >= 0) unlink(nlog);
  if (!nl) {
    free(ptx);
    return 0;
  }
  size_t nn = parse_regs(nl, native, MAX_ENTRIES);
  free(nl);
  int capped = 0;
  for (size_t i = 0; ptx && i < ng; i++) {
    if (got[i].regs <= regs_for(MAX_THREADS)) continue;
    const char *orig_name = original_of(got[i].name);
    for (size_t j = 0; j < nn; j++) {
      if (strcmp(native[j].name, orig_name)) continue;
      unsigned t = threads_for(native[j].regs), cap = regs_for(t);
      if (threads_for(got[i].regs) >= t) break;
      char *np = cap_entry(ptx, got[i].name, cap);
      if (np) {
        free(ptx);
        ptx = np;
        capped++;
        if (verbose)
          fprintf(stderr, "gsan: %s held to %u registers a thread (instrumented %u; natively %u, blocks of up to %u "
                          "threads)\n", got[i].name, cap, got[i].regs, native[j].regs, t);
      }
      break;
    }
  }
  if (capped && replace(input, ptx, strlen(ptx)) != 0) capped = 0;
  free(ptx);
  return capped;
}

/* Invoked as "ptxas" from the private directory: instrument the input PTX in
 * place, then assemble it with the real ptxas, registers fitted. */
int cli_ptxas_wrapper(int argc, char **argv) {
  const char *real = getenv("GSAN_REAL_PTXAS");
  if (!real || !*real) {
    fprintf(stderr, "gsan (as ptxas): GSAN_REAL_PTXAS is not set; run through gsan nvcc\n");
    return 2;
  }
  char *input = NULL;
  int verbose = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output-file")) { i++; continue; }
    if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) verbose = 1;
    size_t n = strlen(argv[i]);
    if (argv[i][0] != '-' && n > 4 && !strcmp(argv[i] + n - 4, ".ptx")) input = argv[i];
  }
  int instrumented = 0;
  char orig[PATH_MAX + 16] = "";
  if (input) {
    /* the PTX as it came, for the original kernels' registers */
    size_t len;
    char *text = slurp(input, &len);
    int fd = text ? temp_beside(input, orig, sizeof orig) : -1;
    if (fd >= 0) {
      int bad = write_all(fd, text, len) != 0;
      bad |= close(fd) != 0;
      if (bad) unlink(orig);
      if (bad) orig[0] = 0;
    } else {
      orig[0] = 0;
    }
    free(text);
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
      args[k++] = input;
      args[k++] = "-o";
      args[k++] = input;
      args[k] = NULL;
      execv(self, args);
      _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      /* the build goes on, unchecked, and says so: breaking it would be worse */
      fprintf(stderr, "gsan: warning: %s could not be instrumented; its kernels run unchecked\n", input);
    else
      instrumented = 1;
  }
  argv[0] = (char *)real;
  if (!instrumented || !orig[0]) {
    if (orig[0]) unlink(orig);
    execv(real, argv);
    fprintf(stderr, "gsan (as ptxas): cannot run %s: %s\n", real, strerror(errno));
    return 2;
  }
  /* assembled with -v (the program's arguments and one more), its output kept */
  char **a = calloc((size_t)argc + 2, sizeof *a);
  char log[PATH_MAX + 16];
  int fd = a ? temp_beside(input, log, sizeof log) : -1;
  if (fd < 0) {
    unlink(orig);
    free(a);
    execv(real, argv);
    fprintf(stderr, "gsan (as ptxas): cannot run %s: %s\n", real, strerror(errno));
    return 2;
  }
  memcpy(a, argv, (size_t)argc * sizeof *a);
  if (!verbose) a[argc] = "-v";
  int st = run_logged(a, fd);
  char *out = slurp(log, NULL);
  if (st == 0 && out && fit_registers(a, verbose ? argc : argc + 1, input, orig, out, verbose)) {
    free(out);
    st = run_logged(a, fd);
    out = slurp(log, NULL);
  }
  close(fd);
  unlink(orig);
  unlink(log);
  free(a);
  if (st < 0) {
    fprintf(stderr, "gsan (as ptxas): cannot run %s: %s\n", real, strerror(errno));
    return 2;
  }
  pass_on(out, verbose);
  free(out);
  return st;
}
