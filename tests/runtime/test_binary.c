/* Binary mode's records on the CPU: the record gsan's Sanitizer API patch
 * writes for a SASS-only kernel (include/gsan/abi.h, "Binary mode") is
 * decoded without a site table and printed through the same report path as
 * instrumented code's. The lit test (binary.test) holds the output.
 * Usage: test_binary overflow | uaf | json | repeats | plain */
#include "../../src/runtime/rt_arena.h"
#include "../../src/runtime/rt_binary.h"
#include "../../src/runtime/rt_report.h"

#include <stdio.h>
#include <string.h>

static const rt_stack alloc_stack = {2, {"cudaMalloc", "main overflow.cu:20"}};
static const rt_stack free_stack = {2, {"cudaFree", "main overflow.cu:24"}};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s overflow|uaf|json|repeats|plain\n", argv[0]);
    return 2;
  }
  const char *sc = argv[1];
  static rt_log log;
  rt_log_init(&log, stdout, !strcmp(sc, "json"), 4242);
  /* two kernels launched: the second one fails */
  rt_binary_kernel_index("_Z5firstPf");
  uint32_t k = rt_binary_kernel_index("_Z8overflowPii");
  if (rt_binary_kernel_index("_Z8overflowPii") != k) {
    printf("the same kernel got two indices\n");
    return 1;
  }
  int uaf = !strcmp(sc, "uaf");
  gsan_record rec;
  memset(&rec, 0, sizeof rec);
  rec.module_id = gsan_binary_module(k, uaf ? GSAN_ACCESS_READ : GSAN_ACCESS_WRITE, 2);
  rec.site = 0x1f0;
  rec.base = 0x100000004000ull;
  rec.addr = rec.base + (uaf ? 8 : 116);
  rec.size = uaf ? 0 : 100;
  rec.tid[0] = 29, rec.ctaid[0] = 1;
  rt_site s;
  if (!strcmp(sc, "plain")) {
    /* a hashed module id of instrumented code is not binary mode's */
    rec.module_id = 0x1234abcd5678ef01ull;
    printf("plain: %s\n", rt_binary_site(&rec, &s) ? "binary" : "not binary");
    return 0;
  }
  if (!rt_binary_site(&rec, &s)) {
    printf("not decoded\n");
    return 1;
  }
  rt_region reg = {rec.base, uaf ? 100 : rec.size, NULL, GSAN_SPACE_GLOBAL, &alloc_stack, uaf ? &free_stack : NULL, 0, NULL};
  rt_report_kind kind = rt_classify_device(&s, &rec, uaf ? RT_SLOT_FREED : RT_SLOT_LIVE);
  if (!strcmp(sc, "repeats")) {
    rt_err_repeats e = {rt_report_kind_name(kind), &s, 4000, 1};
    rt_report_repeats(&log, &e);
    return 0;
  }
  rt_err_device e = {kind, rec, s, reg};
  rt_report_device(&log, &e);
  return 0;
}
