/* Tests of the GSAN_OPTIONS parser (src/runtime/rt_flags.c). */
#include "../../src/runtime/rt_flags.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

static int parse(rt_flags *f, const char *spec, char *err) {
  err[0] = 0;
  return rt_flags_parse(f, spec, err, 200);
}

int main(void) {
  rt_flags f;
  char err[200], path[600];
  rt_flags_defaults(&f);
  CHECK(f.halt_on_error == 1 && f.exitcode == 1 && f.leak_check == 1 && f.check_host_api == 1, "defaults");
  CHECK(f.report_limit == 100 && f.ring_capacity == 4096 && f.log_format == RT_LOG_TEXT && !f.log_path[0], "defaults");
  CHECK(parse(&f, "", err) == 0 && parse(&f, NULL, err) == 0, "empty");
  CHECK(parse(&f, "halt_on_error=0:exitcode=23:log_format=json", err) == 0 && !f.halt_on_error && f.exitcode == 23 &&
            f.log_format == RT_LOG_JSON,
        "colon-separated pairs");
  CHECK(parse(&f, " verbosity=1,leak_check=false report_limit=0x10 ", err) == 0 && f.verbosity == 1 && !f.leak_check &&
            f.report_limit == 16,
        "commas, spaces, hex");
  CHECK(parse(&f, "exitcode=5:exitcode=7", err) == 0 && f.exitcode == 7, "the last one wins");
  CHECK(parse(&f, "log_path=/tmp/gsan.%p.log", err) == 0, "string");
  rt_flags_log_path(&f, 4242, path, sizeof path);
  CHECK(!strcmp(path, "/tmp/gsan.4242.log"), "%%p becomes the pid");
  CHECK(parse(&f, "exitcode=9:nosuch=1:exitcode=3", err) < 0 && f.exitcode == 9 &&
            !strcmp(err, "GSAN_OPTIONS: unknown option 'nosuch' (see gsan help options)"),
        "an unknown option stops the parse; what came before stays");
  CHECK(parse(&f, "halt_on_error=yes", err) < 0 && strstr(err, "expected 0, 1, true or false"), "bad bool");
  CHECK(parse(&f, "exitcode=300", err) < 0 && strstr(err, "expected an integer from 0 to 255"), "out of range");
  CHECK(parse(&f, "exitcode=12abc", err) < 0, "trailing garbage");
  CHECK(parse(&f, "exitcode=", err) < 0, "empty integer");
  CHECK(parse(&f, "log_format=xml", err) < 0 && strstr(err, "expected text or json"), "bad enum");
  CHECK(parse(&f, "ring_capacity=1000", err) < 0 && strstr(err, "power of two"), "ring capacity");
  CHECK(f.malloc_context_size == 32 && parse(&f, "malloc_context_size=0", err) == 0 && f.malloc_context_size == 0,
        "malloc_context_size: 32 frames, or none");
  CHECK(parse(&f, "malloc_context_size=33", err) < 0 && strstr(err, "from 0 to 32"), "at most the frames a stack keeps");
  CHECK(parse(&f, "verbosity", err) < 0 && strstr(err, "is not name=value"), "no '='");
  char longv[700] = "log_path=";
  memset(longv + 9, 'x', 600);
  longv[609] = 0;
  CHECK(parse(&f, longv, err) < 0 && strstr(err, "longer than 511"), "a value too long for its field");
  printf("%d checks; %d failed\n", checks, failures);
  return failures != 0;
}
