/* scan_flags.c: compiler flags, in nvcc's spelling or clang's, as the parser
 * (clang's CUDA front end) needs them. A program's build passes nvcc flags
 * clang does not know (-arch=sm_90, -rdc=true, --expt-relaxed-constexpr,
 * -Xcompiler -fopenmp, -ccbin g++); given to libclang they are errors and
 * the file would not parse. What shapes the source as the parser sees it is
 * kept in clang's spelling: include paths, macros, forced includes, the
 * language standard, and the host compiler's -f/-m flags that define macros
 * (-fopenmp, -mavx2). Everything else is dropped, with one note on stderr per
 * kind of flag dropped in the whole run (not per file). */
#include "scan_front.h"

#include <ctype.h>

typedef enum {
  DK_ARCH,   /* GPU architecture */
  DK_DEVICE, /* device code generation */
  DK_EXT,    /* nvcc's language switches clang's CUDA does not need */
  DK_TOOLS,  /* options for nvcc's other tools */
  DK_HOSTCC, /* the host compiler's choice */
  DK_OPT,    /* optimisation and debug information */
  DK_WARN,   /* warnings */
  DK_BUILD,  /* build steps and outputs */
  DK_LINK,   /* linking */
  DK_FILES,  /* input and output files */
  DK_HOST,   /* host compiler options that do not change how the source parses */
  DK_OTHER,  /* not recognised */
  DK_COUNT
} drop_kind;

static const char *const drop_what[DK_COUNT] = {
    "GPU architecture flags",
    "device code generation flags",
    "nvcc language switches (clang's CUDA needs none)",
    "options for nvcc's other tools",
    "host compiler selection flags",
    "optimisation and debug flags",
    "warning flags",
    "build step and output flags",
    "linker flags",
    "file names",
    "host compiler flags that do not change how the source parses",
    "unrecognised flags",
};

static bool noted[DK_COUNT];

void scan_flags_reset_notes(void) { memset(noted, 0, sizeof noted); }

/* notes: 0 none, 1 every kind, 2 all but file names (a compile database
   entry names its input and output) */
static void drop(drop_kind k, const char *flag, const char *arg, int notes) {
  if (!notes || noted[k] || (notes == 2 && k == DK_FILES)) return;
  noted[k] = true;
  fprintf(stderr, "gsan scan: note: ignoring %s (%s%s%s): they do not change how the source parses\n", drop_what[k],
          flag, arg ? " " : "", arg ? arg : "");
}

/* ---- the table of nvcc's flags ---- */
enum { A_NONE, A_SEP, A_JOINED }; /* no argument; "-f ARG" or "-f=ARG"; also "-fARG" */
typedef enum { T_DROP, T_PATH, T_MACRO, T_STD, T_XCOMP } action;
typedef struct {
  const char *name;
  int arg;
  action act;
  drop_kind kind;   /* T_DROP */
  const char *to;   /* T_PATH, T_MACRO: clang's spelling */
} flag_def;

static const flag_def defs[] = {
    /* kept */
    {"-I", A_JOINED, T_PATH, 0, "-I"},
    {"--include-path", A_SEP, T_PATH, 0, "-I"},
    {"-isystem", A_SEP, T_PATH, 0, "-isystem"},
    {"--system-include", A_SEP, T_PATH, 0, "-isystem"},
    {"-iquote", A_SEP, T_PATH, 0, "-iquote"},
    {"-idirafter", A_SEP, T_PATH, 0, "-idirafter"},
    {"-include", A_SEP, T_PATH, 0, "-include"},
    {"--pre-include", A_SEP, T_PATH, 0, "-include"},
    {"-D", A_JOINED, T_MACRO, 0, "-D"},
    {"--define-macro", A_SEP, T_MACRO, 0, "-D"},
    {"-U", A_JOINED, T_MACRO, 0, "-U"},
    {"--undefine-macro", A_SEP, T_MACRO, 0, "-U"},
    {"-std", A_SEP, T_STD, 0, NULL},
    {"--std", A_SEP, T_STD, 0, NULL},
    {"-Xcompiler", A_SEP, T_XCOMP, 0, NULL},
    {"--compiler-options", A_SEP, T_XCOMP, 0, NULL},
    /* GPU architecture */
    {"-arch", A_SEP, T_DROP, DK_ARCH, NULL},
    {"--gpu-architecture", A_SEP, T_DROP, DK_ARCH, NULL},
    {"-code", A_SEP, T_DROP, DK_ARCH, NULL},
    {"--gpu-code", A_SEP, T_DROP, DK_ARCH, NULL},
    {"-gencode", A_SEP, T_DROP, DK_ARCH, NULL},
    {"--generate-code", A_SEP, T_DROP, DK_ARCH, NULL},
    {"--cuda-gpu-arch", A_SEP, T_DROP, DK_ARCH, NULL},
    {"--offload-arch", A_SEP, T_DROP, DK_ARCH, NULL},
    /* device code generation */
    {"-rdc", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--relocatable-device-code", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-dc", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--device-c", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-dw", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-dlink", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--device-link", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-dlto", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-maxrregcount", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--maxrregcount", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-use_fast_math", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--use_fast_math", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--use-fast-math", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-ftz", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--ftz", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-prec-div", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--prec-div", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-prec-sqrt", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--prec-sqrt", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-fmad", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--fmad", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-lineinfo", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--generate-line-info", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-G", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--device-debug", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-res-usage", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--resource-usage", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-src-in-ptx", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--source-in-ptx", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-extra-device-vectorization", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--extra-device-vectorization", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-restrict", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--restrict", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-default-stream", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--default-stream", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-cudart", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--cudart", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-cudadevrt", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--cudadevrt", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-keep", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--keep", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-keep-dir", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--keep-dir", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-split-compile", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--split-compile", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-t", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"--threads", A_SEP, T_DROP, DK_DEVICE, NULL},
    {"-ptx", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--ptx", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-cubin", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--cubin", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"-fatbin", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--fatbin", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--cuda-device-only", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--cuda-host-only", A_NONE, T_DROP, DK_DEVICE, NULL},
    {"--cuda-path", A_SEP, T_DROP, DK_DEVICE, NULL},
    /* nvcc's language switches */
    {"--expt-relaxed-constexpr", A_NONE, T_DROP, DK_EXT, NULL},
    {"-expt-relaxed-constexpr", A_NONE, T_DROP, DK_EXT, NULL},
    {"--expt-extended-lambda", A_NONE, T_DROP, DK_EXT, NULL},
    {"-expt-extended-lambda", A_NONE, T_DROP, DK_EXT, NULL},
    {"--extended-lambda", A_NONE, T_DROP, DK_EXT, NULL},
    {"-extended-lambda", A_NONE, T_DROP, DK_EXT, NULL},
    {"--no-host-device-initializer-list", A_NONE, T_DROP, DK_EXT, NULL},
    {"--no-host-device-move-forward", A_NONE, T_DROP, DK_EXT, NULL},
    /* other tools */
    {"-Xptxas", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"--ptxas-options", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"-Xnvlink", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"--nvlink-options", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"-Xcudafe", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"-Xarchive", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"--archive-options", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"-Xfatbin", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"-diag-suppress", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"--diag-suppress", A_SEP, T_DROP, DK_TOOLS, NULL},
    {"--display-error-number", A_NONE, T_DROP, DK_TOOLS, NULL},
    /* the host compiler */
    {"-ccbin", A_SEP, T_DROP, DK_HOSTCC, NULL},
    {"--compiler-bindir", A_SEP, T_DROP, DK_HOSTCC, NULL},
    {"-allow-unsupported-compiler", A_NONE, T_DROP, DK_HOSTCC, NULL},
    {"--allow-unsupported-compiler", A_NONE, T_DROP, DK_HOSTCC, NULL},
    {"--forward-unknown-to-host-compiler", A_NONE, T_DROP, DK_HOSTCC, NULL},
    {"-forward-unknown-to-host-compiler", A_NONE, T_DROP, DK_HOSTCC, NULL},
    {"--forward-unknown-opts", A_NONE, T_DROP, DK_HOSTCC, NULL},
    {"-forward-unknown-opts", A_NONE, T_DROP, DK_HOSTCC, NULL},
    /* optimisation and debug */
    {"--optimize", A_SEP, T_DROP, DK_OPT, NULL},
    {"-dopt", A_SEP, T_DROP, DK_OPT, NULL},
    {"--dopt", A_SEP, T_DROP, DK_OPT, NULL},
    {"--debug", A_NONE, T_DROP, DK_OPT, NULL},
    /* warnings (nvcc's -Werror takes a kind: -Werror all-warnings) */
    {"-Werror", A_SEP, T_DROP, DK_WARN, NULL},
    {"--Werror", A_SEP, T_DROP, DK_WARN, NULL},
    {"-w", A_NONE, T_DROP, DK_WARN, NULL},
    {"--disable-warnings", A_NONE, T_DROP, DK_WARN, NULL},
    /* build steps and outputs */
    {"-c", A_NONE, T_DROP, DK_BUILD, NULL},
    {"--compile", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-o", A_SEP, T_DROP, DK_BUILD, NULL},
    {"--output-file", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-odir", A_SEP, T_DROP, DK_BUILD, NULL},
    {"--output-directory", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-x", A_SEP, T_DROP, DK_BUILD, NULL},
    {"--x", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-E", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-M", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-MM", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-MD", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-MMD", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-MP", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-MF", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-MT", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-MQ", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-v", A_NONE, T_DROP, DK_BUILD, NULL},
    {"--verbose", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-time", A_SEP, T_DROP, DK_BUILD, NULL},
    {"--time", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-m", A_SEP, T_DROP, DK_BUILD, NULL},
    {"--machine", A_SEP, T_DROP, DK_BUILD, NULL},
    {"-lib", A_NONE, T_DROP, DK_BUILD, NULL},
    {"--lib", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-shared", A_NONE, T_DROP, DK_BUILD, NULL},
    {"--shared", A_NONE, T_DROP, DK_BUILD, NULL},
    {"-run", A_NONE, T_DROP, DK_BUILD, NULL},
    {"--run", A_NONE, T_DROP, DK_BUILD, NULL},
    /* linking */
    {"-l", A_JOINED, T_DROP, DK_LINK, NULL},
    {"--library", A_SEP, T_DROP, DK_LINK, NULL},
    {"-L", A_JOINED, T_DROP, DK_LINK, NULL},
    {"--library-path", A_SEP, T_DROP, DK_LINK, NULL},
    {"-Xlinker", A_SEP, T_DROP, DK_LINK, NULL},
    {"--linker-options", A_SEP, T_DROP, DK_LINK, NULL},
    {"-static", A_NONE, T_DROP, DK_LINK, NULL},
    {"-rdynamic", A_NONE, T_DROP, DK_LINK, NULL},
    {"-pthread", A_NONE, T_DROP, DK_LINK, NULL},
};

/* -f flags of the host compiler that change what the parser sees */
static bool kept_f(const char *f) {
  static const char *const pre[] = {"-fopenmp", "-fno-openmp", "-fexceptions", "-fno-exceptions", "-frtti",
                                    "-fno-rtti", "-fsigned-char", "-funsigned-char", "-fshort-wchar",
                                    "-fno-short-wchar", "-fms-extensions", "-fgnu-keywords", "-fno-gnu-keywords",
                                    "-fchar8_t", "-fno-char8_t", "-fsized-deallocation", "-faligned-new",
                                    "-fno-aligned-new", "-fcoroutines", "-fconcepts", NULL};
  for (int i = 0; pre[i]; i++) {
    size_t n = strlen(pre[i]);
    if (!strncmp(f, pre[i], n) && (!f[n] || f[n] == '=')) return true;
  }
  return false;
}

static const char *absolute(const char *dir, const char *p) {
  if (!dir || p[0] == '/' || !p[0]) return scan_util_strdup(p);
  return scan_util_fmt("%s/%s", dir, p);
}

static bool has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && !strcmp(s + n - m, suf);
}

/* a word that is not a flag: a source, object or library file */
static bool is_file(const char *w) { return w[0] != '-' || !w[1]; }

typedef struct {
  const char *const *a;
  int n, i;
  const char *dir;
  int notes;
  str_vec *out;
} flag_state;

static void translate_one(flag_state *s, const char *f, bool host);

/* -Xcompiler's argument: host flags separated by commas (or spaces, when the
   build quoted several into one word) */
static void xcompiler(flag_state *s, const char *arg) {
  str_vec words = {0};
  const char *p = arg;
  while (*p) {
    while (*p == ',' || isspace((unsigned char)*p)) p++;
    const char *q = p;
    while (*q && *q != ',' && !isspace((unsigned char)*q)) q++;
    if (q > p) VEC_PUSH(words, scan_util_strndup(p, (size_t)(q - p)));
    p = q;
  }
  /* the host flags' own arguments come in the next words (-Xcompiler -include,foo.h) */
  flag_state sub = {words.v, (int)words.n, 0, s->dir, s->notes, s->out};
  for (; sub.i < sub.n; sub.i++) translate_one(&sub, sub.a[sub.i], true);
}

static void translate_one(flag_state *s, const char *f, bool host) {
  if (is_file(f)) {
    drop(DK_FILES, f, NULL, s->notes);
    return;
  }
  for (size_t k = 0; k < sizeof defs / sizeof defs[0]; k++) {
    const flag_def *d = &defs[k];
    size_t len = strlen(d->name);
    if (strncmp(f, d->name, len)) continue;
    const char *arg = NULL;
    if (!f[len]) {
      if (d->arg != A_NONE) {
        if (s->i + 1 >= s->n) return drop(d->act == T_DROP ? d->kind : DK_OTHER, f, NULL, s->notes);
        arg = s->a[++s->i];
      }
    } else if (f[len] == '=' && d->arg != A_NONE) {
      arg = f + len + 1;
    } else if (d->arg == A_JOINED) {
      arg = f + len;
    } else {
      continue;
    }
    switch (d->act) {
    case T_PATH:
      VEC_PUSH(*s->out, d->to);
      VEC_PUSH(*s->out, absolute(s->dir, arg));
      return;
    case T_MACRO: VEC_PUSH(*s->out, scan_util_fmt("%s%s", d->to, arg)); return;
    case T_STD: VEC_PUSH(*s->out, scan_util_fmt("-std=%s", arg)); return;
    case T_XCOMP: xcompiler(s, arg); return;
    case T_DROP:
      /* -Werror alone is the host compiler's (from -Xcompiler): no argument */
      if (d->kind == DK_WARN && arg && !f[len] && (host || arg[0] == '-')) s->i--;
      drop(d->kind, f, f[len] ? NULL : arg, s->notes);
      return;
    }
  }
  /* prefixes of whole families */
  if (!strncmp(f, "-O", 2) || !strncmp(f, "-g", 2)) return drop(DK_OPT, f, NULL, s->notes);
  if (!strncmp(f, "-W", 2) && strncmp(f, "-Wl,", 4)) return drop(DK_WARN, f, NULL, s->notes);
  if (!strncmp(f, "-Wl,", 4) || !strncmp(f, "-Wp,", 4)) return drop(DK_LINK, f, NULL, s->notes);
  if (!strncmp(f, "-std=", 5) || !strncmp(f, "--std=", 6)) {
    VEC_PUSH(*s->out, scan_util_fmt("-std=%s", strchr(f, '=') + 1));
    return;
  }
  if (!strncmp(f, "-f", 2)) {
    if (kept_f(f)) VEC_PUSH(*s->out, f);
    else drop(DK_HOST, f, NULL, s->notes);
    return;
  }
  if (!strncmp(f, "-m", 2) && f[2] && f[2] != '=') {
    VEC_PUSH(*s->out, f); /* -m64, -mavx2, -march=native: macros the host code tests */
    return;
  }
  if (!strcmp(f, "-nostdinc") || !strcmp(f, "-nostdinc++")) {
    VEC_PUSH(*s->out, f);
    return;
  }
  drop(host ? DK_HOST : DK_OTHER, f, NULL, s->notes);
}

void scan_flags_front(const char *const *in, int n, const char *dir, int notes, str_vec *out) {
  flag_state s = {in, n, 0, dir, notes, out};
  for (; s.i < s.n; s.i++) {
    const char *f = s.a[s.i];
    if (has_suffix(f, ".o") || has_suffix(f, ".a") || has_suffix(f, ".so")) {
      drop(DK_LINK, f, NULL, notes);
      continue;
    }
    translate_one(&s, f, false);
  }
}
