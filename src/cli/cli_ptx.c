/* gsan ptx: reads a PTX file, instruments it (or only parses and prints it
 * back), writes the result. Exit codes: 0 ok, 2 bad usage or input. */
#include "../ptx/ptx_instr.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
  fputs("usage: gsan ptx [options] IN.ptx [-o OUT.ptx]\n"
        "\n"
        "Inserts a bounds check before every memory access of a PTX module.\n"
        "IN may be '-' for standard input; OUT defaults to standard output.\n"
        "\n"
        "options:\n"
        "  -o FILE            write the result to FILE ('-' = standard output)\n"
        "  --stats            print what was seen and checked to standard error\n"
        "  --spaces=LIST      spaces to check, comma-separated from\n"
        "                     global,shared,local,generic,const (default: all)\n"
        "  --recover          failed checks skip the access (loads give 0) and go on;\n"
        "                     default: record the failure, then trap\n"
        "  --no-elim          keep every check (no merging or dominance elimination)\n"
        "  --no-launch-bounds write no launch-bounds copies of kernels (each thread\n"
        "                     then looks its pointer parameters' bounds up itself)\n"
        "  --no-launch-proofs write no proven copies of kernels (checks the runtime\n"
        "                     would decide at each launch stay in every thread)\n"
        "  --frame-arrays     experiment: a local access is bounded by its own array in\n"
        "                     the frame, not the whole frame (docs/ptx.md)\n"
        "  --module-id=HEX    module id for the site table (default: hash of IN)\n"
        "  --roundtrip        parse and print back without instrumenting\n"
        "  --analyze          print the analyses instead: blocks, successors, dominators,\n"
        "                     and each access's reaching definitions and root\n"
        "  -q, --quiet        no warnings\n"
        "  -h, --help         this text\n",
        f);
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) {
    fprintf(stderr, "gsan ptx: cannot open '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *p = malloc(cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      p = realloc(p, cap);
    }
    size_t got = fread(p + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int err = ferror(f);
  if (f != stdin) fclose(f);
  if (err) {
    fprintf(stderr, "gsan ptx: cannot read '%s'\n", path);
    free(p);
    return NULL;
  }
  p[n] = 0;
  *len = n;
  return p;
}

static int parse_spaces(const char *list, unsigned *out) {
  static const struct { const char *n; int sp; } names[] = {{"global", GSAN_SPACE_GLOBAL}, {"shared", GSAN_SPACE_SHARED},
                                                            {"local", GSAN_SPACE_LOCAL},   {"generic", GSAN_SPACE_GENERIC},
                                                            {"const", GSAN_SPACE_CONST}};
  *out = 0;
  const char *p = list;
  while (*p) {
    size_t n = strcspn(p, ",");
    int found = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (strlen(names[i].n) == n && !strncmp(p, names[i].n, n)) {
        *out |= 1u << names[i].sp;
        found = 1;
      }
    if (!found) {
      fprintf(stderr, "gsan ptx: --spaces: unknown space '%.*s' (expected global, shared, local, generic, const)\n", (int)n, p);
      return -1;
    }
    p += n;
    if (*p == ',') p++;
  }
  return 0;
}

static int write_stream(FILE *f, const ptx_module *m) {
  ptx_print(f, m);
  return fflush(f) != 0 || ferror(f);
}

/* A regular file (or a new one) is written to a temporary and renamed, so a
 * failure never leaves half a file; anything else (a device such as
 * /dev/null, a pipe, a symbolic link) is written where it is. */
static int write_output(const char *out, const ptx_module *m) {
  if (!strcmp(out, "-")) return write_stream(stdout, m) ? 2 : 0;
  struct stat sb;
  if (lstat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    FILE *f = fopen(out, "wb");
    int bad = !f || write_stream(f, m);
    if (f && fclose(f) != 0) bad = 1;
    if (bad) fprintf(stderr, "gsan ptx: cannot write '%s': %s\n", out, strerror(errno));
    return bad ? 2 : 0;
  }
  /* a new file of its own (mkostemp: O_EXCL, so nothing planted at its
   * name is followed), given the mode a new file gets, then renamed */
  size_t n = strlen(out) + 8;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%s.XXXXXX", out);
  int rc = 0;
  int fd = mkostemp(tmp, O_CLOEXEC);
  mode_t mask = umask(0);
  umask(mask);
  FILE *f = fd >= 0 && fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    fprintf(stderr, "gsan ptx: cannot write '%s': %s\n", out, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(tmp);
    }
    rc = 2;
  } else {
    int bad = write_stream(f, m);
    if (fclose(f) != 0 || bad || rename(tmp, out) != 0) {
      fprintf(stderr, "gsan ptx: cannot write '%s': %s\n", out, strerror(errno));
      unlink(tmp);
      rc = 2;
    }
  }
  free(tmp);
  return rc;
}

int cli_ptx(int argc, char **argv) {
  const char *in = NULL, *out = "-";
  int stats = 0, roundtrip = 0, quiet = 0, analyze = 0;
  ptx_opts o = {0};
  o.spaces = PTX_SPACES_ALL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-o")) {
      if (++i >= argc) {
        fputs("gsan ptx: -o needs a file name\n", stderr);
        return 2;
      }
      out = argv[i];
    } else if (!strcmp(a, "--stats")) stats = 1;
    else if (!strcmp(a, "--recover")) o.recover = 1;
    else if (!strcmp(a, "--no-elim")) o.no_elim = 1;
    else if (!strcmp(a, "--no-launch-bounds")) o.no_launch_bounds = 1;
    else if (!strcmp(a, "--no-launch-proofs")) o.no_launch_proofs = 1;
    else if (!strcmp(a, "--frame-arrays")) o.frame_arrays = 1;
    else if (!strcmp(a, "--roundtrip")) roundtrip = 1;
    else if (!strcmp(a, "--analyze")) analyze = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
    else if (!strncmp(a, "--spaces=", 9)) {
      if (parse_spaces(a + 9, &o.spaces) < 0) return 2;
    } else if (!strncmp(a, "--module-id=", 12)) {
      char *end;
      o.module_id = strtoull(a + 12, &end, 16);
      if (*end || !o.module_id) {
        fprintf(stderr, "gsan ptx: --module-id: '%s' is not a non-zero hexadecimal number\n", a + 12);
        return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "gsan ptx: unknown option '%s' (see gsan ptx --help)\n", a);
      return 2;
    } else if (in) {
      fprintf(stderr, "gsan ptx: more than one input ('%s' and '%s')\n", in, a);
      return 2;
    } else in = a;
  }
  if (!in) {
    usage(stderr);
    return 2;
  }
  size_t len;
  char *src = read_all(in, &len);
  if (!src) return 2;
  ptx_diag d = {strcmp(in, "-") ? in : "<stdin>", 0, 0, quiet};
  ptx_module *m = ptx_parse(src, len, &d);
  if (!m) {
    free(src);
    return 2;
  }
  if (analyze) {
    ptx_dump_analysis(stdout, m);
    ptx_module_free(m);
    free(src);
    return fflush(stdout) ? 2 : 0;
  }
  ptx_stats st;
  memset(&st, 0, sizeof st);
  if (!roundtrip && ptx_instrument(m, &o, &st, &d) < 0) {
    ptx_module_free(m);
    free(src);
    return 2;
  }
  int rc = write_output(out, m);
  if (stats && !roundtrip) ptx_stats_print(stderr, &st);
  ptx_module_free(m);
  free(src);
  return rc;
}
