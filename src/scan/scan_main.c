/* scan_main.c: the gsan-scan command (also run as `gsan scan`): options,
 * the files to analyse and their flags, and the exit status (0 no findings,
 * 1 findings, 2 usage or parse errors). */
#include "scan_front.h"
#include "scan_interp.h"
#include "scan_solve.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

scan_opts scan_main_options = {.rlimit = 4000000, .budget = 60000000, .timeout_ms = 60000, .max_steps = 2000000,
                               .max_alloc = 1ull << 38};

static void usage(FILE *f) {
  fprintf(f,
          "usage: gsan scan [options] FILE.cu|DIR... [-- BUILD-FLAGS...]\n"
          "Finds input-dependent and intra-allocation out-of-bounds accesses and host\n"
          "use-after-free in CUDA source before it runs (libclang + Z3; no GPU needed).\n\n"
          "  DIR                    every .cu file under DIR, recursively, in name order\n"
          "  -I DIR, -isystem DIR, -D NAME[=VAL], -U NAME, -include FILE, -std=STD\n"
          "                         passed to the parser\n"
          "  -- BUILD-FLAGS         the flags the program is built with, in nvcc's spelling\n"
          "                         or clang's: -I, -D, -U, -include, -std (also -std c++17,\n"
          "                         --std), -Xcompiler's -D/-I/-f/-m are kept; -arch, -gencode,\n"
          "                         -rdc, --expt-*, -Xptxas, -ccbin, -O, -G, -lineinfo, -c,\n"
          "                         -o, -x, -l, -L and other flags that do not change how the\n"
          "                         source parses are dropped, with a note per kind\n"
          "  -p DIR                 read compile_commands.json in DIR for each file's flags;\n"
          "                         with no FILE, analyse every .cu file it lists\n"
          "  --format=text|sarif    compiler-style text (default) or SARIF 2.1.0\n"
          "  -o FILE                write the report to FILE\n"
          "  --cuda-path=DIR        the CUDA toolkit whose headers to parse with\n"
          "                         (default: $CUDA_PATH, $CUDA_HOME, /usr/local/cuda)\n"
          "  --no-cuda-headers      use gsan's own CUDA declarations instead\n"
          "  --rlimit=N             the solver's budget per question, in Z3 resource units\n"
          "                         (default %llu, about 2 s; results do not depend on load)\n"
          "  --budget=N             the solver's budget for the whole run, in the same units\n"
          "                         (default %llu): once spent, the accesses left are\n"
          "                         unknowns that say so, and the run ends in bounded time;\n"
          "                         loop invariants get half of it again, their own\n"
          "  --timeout=MS           a wall-clock limit per question besides (default %u)\n"
          "  --max-steps=N          expressions and statements followed from one entry point\n"
          "                         (main, a kernel, a function nothing calls; default %lu):\n"
          "                         the calls after that are not entered (unknowns say so)\n"
          "  --max-alloc=BYTES      the largest allocation that can succeed (default %llu)\n"
          "  -v, --verbose          say how each file was parsed\n"
          "  --stats                how the solver's questions were answered, and their time\n"
          "  --help, --version\n\n"
          "With several files, a progress line per file and a summary go to stderr.\n"
          "Exit status: 0 no findings, 1 findings, 2 bad usage or a file with errors (the other files are still\n"
          "analysed, and a file with errors is analysed in part: its statements and functions with errors\n"
          "are skipped; in SARIF it is a tool execution notification).\n"
          "Unknowns (accesses the model cannot decide) are reported but do not change it.\n",
          (unsigned long long)scan_main_options.rlimit, (unsigned long long)scan_main_options.budget, scan_main_options.timeout_ms,
          scan_main_options.max_steps, (unsigned long long)scan_main_options.max_alloc);
}

static int bad_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "gsan scan: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see gsan scan --help)\n");
  return 2;
}

static bool parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || !*s || *end || s[0] == '-') return false;
  *out = v;
  return true;
}

/* share/gsan/scan beside the bin/ this program is in */
static const char *data_dir(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return "/usr/local/share/gsan/scan";
  exe[n] = 0;
  const char *d = scan_util_fmt("%s/../share/gsan/scan", dirname(exe));
  char real[PATH_MAX];
  return realpath(d, real) ? scan_util_strdup(real) : d;
}

static const char *default_cuda(void) {
  const char *e = getenv("CUDA_PATH");
  if (e && *e) return e;
  e = getenv("CUDA_HOME");
  if (e && *e) return e;
  return "/usr/local/cuda";
}

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* every .cu file under DIR, recursively (hidden entries skipped) */
static void cu_files_under(const char *dir, str_vec *out) {
  DIR *d = opendir(dir);
  if (!d) return;
  str_vec names = {0};
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    VEC_PUSH(names, scan_util_strdup(e->d_name));
  }
  closedir(d);
  if (names.n) qsort(names.v, names.n, sizeof *names.v, by_name);
  size_t dl = strlen(dir);
  for (size_t i = 0; i < names.n; i++) {
    const char *p = dl && dir[dl - 1] == '/' ? scan_util_fmt("%s%s", dir, names.v[i]) : scan_util_fmt("%s/%s", dir, names.v[i]);
    size_t n = strlen(names.v[i]);
    if (is_dir(p)) cu_files_under(p, out);
    else if (n > 3 && !strcmp(names.v[i] + n - 3, ".cu")) VEC_PUSH(*out, p);
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned findings_now(void) {
  unsigned n = 0;
  for (int k = 0; k < FK_COUNT; k++)
    if (k != FK_UNKNOWN) n += scan_diag_reported((scan_fkind)k);
  return n;
}

static void reset_model(void) {
  scan_model_state.regions.n = scan_model_state.parts.n = scan_model_state.accesses.n = scan_model_state.uses.n = scan_model_state.launches.n = 0;
}

int main(int argc, char **argv) {
  str_vec files = {0}, flags = {0}, raw = {0}, args = {0};
  const char *cdb = NULL, *out_path = NULL;
  scan_front_opts fo = {default_cuda(), false, data_dir()};
  static const char *const with_arg[] = {"-I", "-isystem", "-D", "-U", "-include", NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      for (i++; i < argc; i++) VEC_PUSH(raw, argv[i]);
      break;
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--version")) {
      printf("gsan-scan %s\n", SCAN_VERSION);
      return 0;
    }
    bool took = false;
    for (int k = 0; with_arg[k] && !took; k++) {
      size_t len = strlen(with_arg[k]);
      if (!strcmp(a, with_arg[k])) {
        if (i + 1 >= argc) return bad_usage("'%s' needs an argument", a);
        VEC_PUSH(flags, a);
        VEC_PUSH(flags, argv[++i]);
        took = true;
      } else if (!strncmp(a, with_arg[k], len) && len == 2) {
        VEC_PUSH(flags, a);
        took = true;
      }
    }
    if (took) continue;
    if (!strncmp(a, "-std=", 5)) VEC_PUSH(flags, a);
    else if (!strcmp(a, "-p")) {
      if (i + 1 >= argc) return bad_usage("'%s' needs a directory", a);
      cdb = argv[++i];
    } else if (!strncmp(a, "--compile-commands=", 19)) cdb = a + 19;
    else if (!strcmp(a, "-o")) {
      if (i + 1 >= argc) return bad_usage("'%s' needs a file", a);
      out_path = argv[++i];
    } else if (!strcmp(a, "--format=text")) scan_main_options.sarif = false;
    else if (!strcmp(a, "--format=sarif")) scan_main_options.sarif = true;
    else if (!strncmp(a, "--format=", 9)) return bad_usage("unknown format '%s' (text or sarif)", a + 9);
    else if (!strncmp(a, "--cuda-path=", 12)) fo.cuda_path = a + 12;
    else if (!strcmp(a, "--no-cuda-headers")) fo.no_cuda_headers = true;
    else if (!strncmp(a, "--timeout=", 10)) {
      uint64_t v;
      if (!parse_u64(a + 10, &v) || !v || v > 3600000) return bad_usage("--timeout: '%s' is not a time in ms", a + 10);
      scan_main_options.timeout_ms = (unsigned)v;
    } else if (!strncmp(a, "--max-steps=", 12)) {
      uint64_t v;
      if (!parse_u64(a + 12, &v) || !v || v > (1ull << 40)) return bad_usage("--max-steps: '%s' is not a number of steps", a + 12);
      scan_main_options.max_steps = (unsigned long)v;
    } else if (!strncmp(a, "--budget=", 9)) {
      if (!parse_u64(a + 9, &scan_main_options.budget) || !scan_main_options.budget) return bad_usage("--budget: '%s' is not a number of resource units", a + 9);
    } else if (!strncmp(a, "--rlimit=", 9)) {
      if (!parse_u64(a + 9, &scan_main_options.rlimit) || !scan_main_options.rlimit || scan_main_options.rlimit > 0xffffffffu)
        return bad_usage("--rlimit: '%s' is not a number of resource units", a + 9);
    } else if (!strncmp(a, "--max-alloc=", 12)) {
      uint64_t v;
      if (!parse_u64(a + 12, &v) || !v || v >> 62) return bad_usage("--max-alloc: '%s' is not a size in bytes", a + 12);
      scan_main_options.max_alloc = v;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) scan_main_options.verbose = true;
    else if (!strcmp(a, "--stats")) scan_main_options.stats = true;
    else if (a[0] == '-' && a[1]) return bad_usage("unknown option '%s'", a);
    else VEC_PUSH(args, a);
  }
  /* the build's flags, in nvcc's spelling or clang's */
  scan_flags_front(raw.v, (int)raw.n, NULL, 1, &flags);
  for (size_t i = 0; i < args.n; i++) {
    if (!is_dir(args.v[i])) {
      VEC_PUSH(files, args.v[i]);
      continue;
    }
    size_t before = files.n;
    cu_files_under(args.v[i], &files);
    if (files.n == before) {
      fprintf(stderr, "gsan scan: no .cu file under '%s'\n", args.v[i]);
      return 2;
    }
  }
  if (!files.n && cdb) {
    const char *err = NULL;
    if (scan_cdb_files(cdb, &files, &err) < 0) {
      fprintf(stderr, "gsan scan: %s\n", err);
      return 2;
    }
    if (!files.n) {
      fprintf(stderr, "gsan scan: '%s/compile_commands.json' lists no .cu file\n", cdb);
      return 2;
    }
  }
  if (!files.n) {
    fprintf(stderr, "gsan scan: no input file (see gsan scan --help)\n");
    return 2;
  }
  FILE *out = stdout;
  if (out_path && !(out = fopen(out_path, "w"))) {
    fprintf(stderr, "gsan scan: cannot write '%s': %s\n", out_path, strerror(errno));
    return 2;
  }
  scan_model_state.max_alloc = scan_expr_const(64, scan_main_options.max_alloc);
  /* every solver question has a Z3 context of its own: keep the memory they
     free for the next one instead of returning it to the system each time
     (page faults were half of the run time on a large file) */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  unsigned accesses = 0, not_analysed = 0, in_part = 0;
  int status = 0;
  bool progress = files.n > 1;
  double t_all = now_s();
  VEC(scan_tu) tus = {0};
  VEC(double) parse_s = {0}; /* each parsed file's parse time */
  size_t done = 0;           /* files reported on so far */
  for (size_t i = 0; i < files.n; i++) {
    double t0 = now_s();
    str_vec ff = {0};
    if (cdb) {
      const char *err = NULL;
      if (scan_cdb_flags(cdb, files.v[i], &ff, &err) < 0) {
        fprintf(stderr, "gsan scan: %s\n", err);
        scan_sarif_not_analysed(files.v[i], err);
        if (progress) fprintf(stderr, "[%zu/%zu] %s: not analysed: no compile command\n", ++done, files.n, files.v[i]);
        not_analysed++;
        status = 2;
        continue;
      }
    }
    for (size_t k = 0; k < flags.n; k++) VEC_PUSH(ff, flags.v[k]);
    scan_tu tu;
    if (scan_front_parse(&fo, files.v[i], ff.v, (int)ff.n, &tu)) {
      scan_sarif_not_analysed(files.v[i], scan_front_error);
      if (progress)
        fprintf(stderr, "[%zu/%zu] %s: not analysed: %s (%.1f s)\n", ++done, files.n, files.v[i],
                scan_front_error && strstr(scan_front_error, "cannot open") ? "cannot be read" : "does not parse",
                now_s() - t0);
      not_analysed++;
      status = 2;
      continue;
    }
    if (tu.errors) {
      /* the rest of the file is analysed; the run is still not a clean one */
      scan_sarif_analysed_in_part(files.v[i], scan_util_fmt("%u error%s, the first: %s; the statements with errors are skipped, or their whole function",
                                                            tu.errors, tu.errors == 1 ? "" : "s", scan_front_error));
      in_part++;
      status = 2;
    }
    VEC_PUSH(tus, tu);
    VEC_PUSH(parse_s, now_s() - t0);
  }
  /* the files that parsed, in the programs the linker would make of them: a
     kernel launched in one file and defined in another is analysed at its
     launches. A progress line per program, naming its files */
  int *prog = scan_util_alloc((tus.n + 1) * sizeof *prog);
  scan_unit_programs(tus.v, (int)tus.n, prog);
  for (size_t i = 0; i < tus.n; i++) {
    if (prog[i] < 0) continue;
    double t0 = now_s(), parsing = 0;
    unsigned f0 = findings_now(), u0 = scan_diag_reported(FK_UNKNOWN);
    VEC(scan_tu) one = {0};
    scan_buf names = {0};
    for (size_t j = i; j < tus.n; j++)
      if (j == i || prog[j] == prog[i]) {
        VEC_PUSH(one, tus.v[j]);
        scan_util_buf_add(&names, "%s%s", names.n ? ", " : "", tus.v[j].file);
        parsing += parse_s.v[j];
        if (j > i) prog[j] = -1;
      }
    reset_model();
    scan_unit_analyse(one.v, (int)one.n);
    unsigned n = scan_check_all();
    accesses += n;
    done += one.n;
    if (progress) {
      unsigned f = findings_now() - f0, u = scan_diag_reported(FK_UNKNOWN) - u0;
      fprintf(stderr, "[%zu/%zu] %s: %u finding%s, %u unknown in %u access%s (%.1f s)\n", done, files.n, names.s, f,
              f == 1 ? "" : "s", u, n, n == 1 ? "" : "es", parsing + now_s() - t0);
    }
  }
  for (size_t i = 0; i < tus.n; i++) scan_front_dispose(&tus.v[i]);
  scan_tables_reset(); /* it knows units by address, which a later parse may reuse */
  if (progress)
    fprintf(stderr, "gsan scan: %zu files: %zu analysed%s, %u not analysed, %.1f s\n", files.n, files.n - not_analysed,
            in_part ? scan_util_fmt(" (%u in part)", in_part) : "", not_analysed, now_s() - t_all);
  scan_diag_sort();
  if (scan_main_options.sarif) {
    scan_sarif_print(out, files.v, (int)files.n);
    scan_diag_summary(stderr, accesses);
  } else {
    scan_diag_print_text(out, accesses);
  }
  if (scan_main_options.stats) scan_check_stats(stderr);
  if (out != stdout) fclose(out);
  if (status) return status;
  for (int k = 0; k < FK_COUNT; k++)
    if (k != FK_UNKNOWN && scan_diag_reported((scan_fkind)k)) return 1;
  return 0;
}
