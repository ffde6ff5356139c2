/* The GSAN_OPTIONS table and its parser (rt_flags.h). */
#include "rt_flags.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_BOOL, K_INT, K_STRING, K_ENUM };

typedef struct option {
  const char *name;
  enum kind kind;
  size_t offset, size;
  const char *def;
  const char *help;
  const char *const *values; /* K_ENUM: names, in value order */
  int min, max;              /* K_INT */
} option;

static const char *const formats[] = {"text", "json", NULL};

#define FIELD(f) offsetof(rt_flags, f), sizeof(((rt_flags *)0)->f)
static const option table[] = {
    {"halt_on_error", K_BOOL, FIELD(halt_on_error), "1",
     "stop at the first device error: print it, then exit with exitcode (0: go on after it; instrumented "
     "code skips the bad access if built with --recover, binary mode's checks end the warp that made it)", NULL, 0, 0},
    {"exitcode", K_INT, FIELD(exitcode), "1", "exit status when errors were reported", NULL, 0, 255},
    {"log_path", K_STRING, FIELD(log_path), "", "write reports to this file instead of stderr; %p is the process id",
     NULL, 0, 0},
    {"log_format", K_ENUM, FIELD(log_format), "text", "text, or json: one JSON object per report", formats, 0, 0},
    {"leak_check", K_BOOL, FIELD(leak_check), "1", "report device allocations still live at exit", NULL, 0, 0},
    {"check_host_api", K_BOOL, FIELD(check_host_api), "1",
     "check the ranges of memcpy and memset calls before they run", NULL, 0, 0},
    {"report_limit", K_INT, FIELD(report_limit), "100",
     "reports printed in full; later ones are counted per site (0: no limit)", NULL, 0, INT_MAX},
    {"suppressions", K_STRING, FIELD(suppressions), "",
     "file of kind:pattern lines; a report of that kind (or *) whose kernel, file or stack frame matches the "
     "pattern is not printed", NULL, 0, 0},
    {"default_suppressions", K_BOOL, FIELD(default_suppressions), "1",
     "suppress the leaks of libraries that keep device memory until exit (PyTorch's caching allocator, cuBLAS, "
     "cuDNN handles)", NULL, 0, 0},
    {"verbosity", K_INT, FIELD(verbosity), "0",
     "0 quiet, 1 what gsan sets up, 2 also which copy of an instrumented kernel each launch runs, and why", NULL, 0, 2},
    {"ring_capacity", K_INT, FIELD(ring_capacity), "4096",
     "device error records buffered between drains (a power of two)", NULL, 16, 1 << 24},
    {"monitor_ms", K_INT, FIELD(monitor_ms), "2", "how often, in ms, the monitor thread prints device errors", NULL,
     1, 10000},
    {"async_tables", K_BOOL, FIELD(async_tables), "1",
     "leave slot-table writes in flight on gsan's stream and order launches after them (0: wait for each "
     "write, at every allocation and free)", NULL, 0, 0},
    {"print_stats", K_BOOL, FIELD(print_stats), "0",
     "print each device's memory accounting at exit: allocations, peak live bytes and the physical memory "
     "behind them, slot tables, spare granules, the report ring", NULL, 0, 0},
    {"jit_instrument", K_BOOL, FIELD(jit_instrument), "1",
     "instrument PTX the program hands the driver at run time (NVRTC, cuModuleLoadData, cuLinkAddData, fatbins "
     "whose PTX the driver compiles)", NULL, 0, 0},
    {"jit_cache", K_BOOL, FIELD(jit_cache), "1", "keep instrumented PTX on disk, so that the same PTX is not "
     "instrumented again in a later run", NULL, 0, 0},
    {"jit_cache_dir", K_STRING, FIELD(jit_cache_dir), "",
     "directory of that cache (default: $GSAN_CACHE/jit, else $XDG_CACHE_HOME/gsan/jit, else ~/.cache/gsan/jit)",
     NULL, 0, 0},
    {"malloc_context_size", K_INT, FIELD(malloc_context_size), "32",
     "host stack frames kept for each allocation and free, shown in reports and matched by leak suppressions "
     "(0: none captured, the cheapest)", NULL, 0, 32},
    {"quarantine_mb", K_INT, FIELD(quarantine_mb), "1024",
     "MiB of device memory freed in stream order (cudaFreeAsync, PyTorch's tensors) kept mapped per device "
     "before its slots are reused: such a slot is taken again, oldest first in its size class, once half of "
     "this is held (no VMM call), so a use after free is found until then (0: unmapped at once, as cudaFree's "
     "memory always is, and slots reused only when a class wraps)",
     NULL, 0, 1048576},
    {"canaries", K_BOOL, FIELD(canaries), "1",
     "write canary words into the slack after each allocation's end and check them at frees, synchronising "
     "calls, exit and from the monitor thread: catches overflows by kernels gsan did not instrument",
     NULL, 0, 0},
    {"canary_bytes", K_INT, FIELD(canary_bytes), "32",
     "bytes of 8-byte canary words after each allocation's end, from its next 8-byte boundary (after a 4-byte "
     "word when the end is 4 bytes past one; rounded down to a multiple of 8; at most the slack there is)", NULL, 8, 256},
    {"canary_check_ms", K_INT, FIELD(canary_check_ms), "10",
     "how often, in ms, the monitor thread checks the canaries of recently used allocations while kernels run; "
     "synchronising calls check them at most that often (0: at every synchronising call, and the monitor does "
     "not check)", NULL, 0, 10000},
    {"handle_signals", K_BOOL, FIELD(handle_signals), "1",
     "on SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGFPE and SIGILL, where the program left them "
     "at their default, print the pending device reports before the signal ends the run",
     NULL, 0, 0},
    {"binary", K_BOOL, FIELD(binary), "0",
     "check the global accesses of kernels gsan did not compile (SASS only) against its slot tables, by patching "
     "them at load through NVIDIA's Sanitizer API (what gsan run --binary sets; docs/binary.md)", NULL, 0, 0},
    {"sanitizer_lib", K_STRING, FIELD(sanitizer_lib), "",
     "the Sanitizer API library binary mode loads (default: $CUDA_HOME/compute-sanitizer/libsanitizer-public.so, "
     "then /usr/local/cuda's, then the loader's search path)", NULL, 0, 0},
    {"launch_bounds", K_BOOL, FIELD(launch_bounds), "1",
     "launch an instrumented kernel's launch-bounds copy, handed its pointer parameters' bounds by the host, in "
     "place of the kernel, which looks them up in every thread (0: always launch the kernel itself)", NULL, 0, 0},
    {"launch_proofs", K_BOOL, FIELD(launch_proofs), "1",
     "launch a kernel's proven copy, which leaves out the checks whose addresses depend on the launch alone, when "
     "the host shows at the launch that every one of them stays in bounds (0: always the launch-bounds copy)",
     NULL, 0, 0},
    {"launch_proofs_cost", K_INT, FIELD(launch_proofs_cost), "20",
     "percent of the host's time between a kernel's launches that evaluating its facts may take: a kernel whose "
     "launches mostly need new evaluations, over a window of 32, and take more stops being proven and runs its "
     "launch-bounds copy (0: stop whenever they mostly need new ones; 100: never stop)",
     NULL, 0, 100},
};
#undef FIELD

static int set(rt_flags *f, const option *o, const char *v, size_t n, char *err, size_t errlen) {
  char *dst = (char *)f + o->offset;
  char buf[64];
  if (o->kind == K_STRING) {
    if (n >= o->size) {
      snprintf(err, errlen, "GSAN_OPTIONS: value of %s is longer than %zu characters", o->name, o->size - 1);
      return -1;
    }
    memcpy(dst, v, n);
    dst[n] = 0;
    return 0;
  }
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, v, n);
  buf[n] = 0;
  int val;
  if (o->kind == K_BOOL) {
    if (!strcmp(buf, "1") || !strcmp(buf, "true")) val = 1;
    else if (!strcmp(buf, "0") || !strcmp(buf, "false")) val = 0;
    else {
      snprintf(err, errlen, "GSAN_OPTIONS: %s=%s: expected 0, 1, true or false", o->name, buf);
      return -1;
    }
  } else if (o->kind == K_ENUM) {
    val = -1;
    for (int i = 0; o->values[i]; i++)
      if (!strcmp(buf, o->values[i])) val = i;
    if (val < 0) {
      snprintf(err, errlen, "GSAN_OPTIONS: %s=%s: expected %s or %s", o->name, buf, o->values[0], o->values[1]);
      return -1;
    }
  } else {
    char *end;
    errno = 0;
    long l = strtol(buf, &end, 0);
    if (!*buf || *end || errno || l < o->min || l > o->max) {
      snprintf(err, errlen, "GSAN_OPTIONS: %s=%s: expected an integer from %d to %d", o->name, buf, o->min, o->max);
      return -1;
    }
    val = (int)l;
    if (!strcmp(o->name, "ring_capacity") && (val & (val - 1))) {
      snprintf(err, errlen, "GSAN_OPTIONS: %s=%s: expected a power of two", o->name, buf);
      return -1;
    }
  }
  memcpy(dst, &val, sizeof val);
  return 0;
}

void rt_flags_defaults(rt_flags *f) {
  char err[8];
  memset(f, 0, sizeof *f);
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) set(f, &table[i], table[i].def, strlen(table[i].def), err, sizeof err);
}

static int is_sep(char c) { return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n'; }

int rt_flags_parse(rt_flags *f, const char *spec, char *err, size_t errlen) {
  const char *p = spec ? spec : "";
  while (*p) {
    while (is_sep(*p)) p++;
    if (!*p) break;
    size_t n = 0;
    while (p[n] && !is_sep(p[n])) n++;
    const char *eq = memchr(p, '=', n);
    if (!eq) {
      snprintf(err, errlen, "GSAN_OPTIONS: '%.*s' is not name=value", (int)(n > 60 ? 60 : n), p);
      return -1;
    }
    size_t nl = (size_t)(eq - p);
    const option *o = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
      if (strlen(table[i].name) == nl && !strncmp(table[i].name, p, nl)) o = &table[i];
    if (!o) {
      snprintf(err, errlen, "GSAN_OPTIONS: unknown option '%.*s' (see gsan help options)", (int)(nl > 60 ? 60 : nl), p);
      return -1;
    }
    if (set(f, o, eq + 1, n - nl - 1, err, errlen) < 0) return -1;
    p += n;
  }
  return 0;
}

void rt_flags_help(FILE *out) {
  fprintf(out, "GSAN_OPTIONS=name=value:name=value...\n\n");
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const option *o = &table[i];
    const char *type = o->kind == K_BOOL ? "bool" : o->kind == K_INT ? "int" : o->kind == K_ENUM ? "enum" : "string";
    fprintf(out, "  %-20s %-7s default %-8s %s\n", o->name, type, *o->def ? o->def : "\"\"", o->help);
  }
}

void rt_flags_log_path(const rt_flags *f, long pid, char *out, size_t n) {
  size_t j = 0;
  for (const char *s = f->log_path; *s && j + 1 < n; s++) {
    if (s[0] == '%' && s[1] == 'p') {
      int w = snprintf(out + j, n - j, "%ld", pid);
      j += w > 0 ? (size_t)w : 0;
      if (j >= n) j = n - 1;
      s++;
    } else {
      out[j++] = *s;
    }
  }
  out[j] = 0;
}
