/* libFuzzer harness for the runtime's two text inputs: GSAN_OPTIONS
 * (rt_flags_parse, then the log path with %p expanded) and the suppressions
 * file (rt_suppress_load, then matching). The input up to its first NUL is
 * the GSAN_OPTIONS string; the rest is the suppressions file, which the
 * loader reads through its usual path (a memfd seen as /proc/self/fd/N).
 * Neither parser may crash, leak or hit undefined behaviour; after any parse,
 * good or bad, every field holds a value its option allows, and a failure
 * leaves a one-line message. */
#include "../../src/runtime/rt_flags.h"
#include "../../src/runtime/rt_suppress.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "gsan fuzz: %s: %s\n", what, detail);
  abort();
}

/* the message is one non-empty line */
static void check_message(const char *err) {
  if (!*err || strchr(err, '\n')) fail("an error without a one-line message", err);
}

static void check_flags(const rt_flags *f) {
  if (strnlen(f->log_path, sizeof f->log_path) == sizeof f->log_path ||
      strnlen(f->suppressions, sizeof f->suppressions) == sizeof f->suppressions)
    fail("a string option fills its field without a NUL", "log_path or suppressions");
  int bools[] = {f->halt_on_error, f->leak_check, f->check_host_api, f->default_suppressions, f->async_tables,
                 f->print_stats};
  for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
    if (bools[i] != 0 && bools[i] != 1) fail("a bool option is neither 0 nor 1", "");
  if (f->exitcode < 0 || f->exitcode > 255 || f->report_limit < 0 || f->verbosity < 0 || f->verbosity > 2 ||
      f->monitor_ms < 1 || f->monitor_ms > 10000 || (f->log_format != RT_LOG_TEXT && f->log_format != RT_LOG_JSON))
    fail("an option out of its range", "");
  if (f->ring_capacity < 16 || f->ring_capacity > (1 << 24) || (f->ring_capacity & (f->ring_capacity - 1)))
    fail("ring_capacity is not a power of two in range", "");
}

static void options(const char *spec) {
  rt_flags f;
  char err[256];
  rt_flags_defaults(&f);
  if (rt_flags_parse(&f, spec, err, sizeof err) < 0) check_message(err);
  check_flags(&f);
  /* a short buffer too: the expansion stops at its end */
  char path[700], tiny[6];
  rt_flags_log_path(&f, 4242, path, sizeof path);
  rt_flags_log_path(&f, 2147483647L, tiny, sizeof tiny);
  if (strlen(tiny) >= sizeof tiny) fail("the log path overran its buffer", tiny);
}

static void suppressions(const uint8_t *text, size_t n) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("suppressions", 0);
    if (fd < 0) fail("memfd_create", "failed");
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) || pwrite(fd, text, n, 0) != (ssize_t)n) fail("writing the memfd", path);
  static rt_suppress sp; /* 64 KiB: not on the stack */
  char err[512];
  if (rt_suppress_load(&sp, 1, path, err, sizeof err) < 0) {
    check_message(err);
    if (!strstr(err, path)) fail("a suppressions error that does not name the file", err);
  }
  if (sp.n < 0 || sp.n > RT_SUPPRESS_MAX) fail("suppression count out of range", "");
  static const char *const names[] = {"_Z5saxpyifPKfPf", "at::cuda::CUDACachingAllocator::malloc", "test_interpose.c",
                                      NULL};
  for (int k = 0; k < RT_REPORT_KINDS; k++) rt_suppress_match(&sp, (rt_report_kind)k, names, 2, names + 2, 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  size_t n = nul ? (size_t)(nul - data) : size;
  char *spec = malloc(n + 1);
  memcpy(spec, data, n);
  spec[n] = 0;
  options(spec);
  free(spec);
  if (nul) suppressions(nul + 1, size - n - 1);
  return 0;
}
