/* libFuzzer harness for the instrumenter (gsan ptx, with the default options
 * and with --recover): parse -> instrument -> print never crashes, leaks or
 * hits undefined behaviour, and the instrumented text parses again and is
 * refused as already instrumented. Both modes see and cover the same
 * accesses (--recover only turns elimination off and changes the failure
 * path), so their per-space counts and site counts must agree. */
#include "fuzz_ptx.h"

#include <gsan/abi.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 if src was instrumented, -1 if it was refused (a parse error, or a
 * module the instrumenter rejects as a whole) */
static int instrument(const char *src, size_t size, int recover, ptx_stats *st) {
  ptx_diag d = fz_diag();
  ptx_module *m = ptx_parse(src, size, &d);
  if (!m) return -1;
  ptx_opts o = {0};
  o.spaces = (1u << GSAN_SPACE_GLOBAL) | (1u << GSAN_SPACE_SHARED) | (1u << GSAN_SPACE_LOCAL) |
             (1u << GSAN_SPACE_GENERIC) | (1u << GSAN_SPACE_CONST);
  o.recover = recover;
  memset(st, 0, sizeof *st);
  if (ptx_instrument(m, &o, st, &d) < 0) {
    if (!d.errors) fz_fail("ptx_instrument failed without an error message", src, size);
    ptx_module_free(m);
    return -1;
  }
  size_t n;
  char *out = fz_print(m, &n);
  ptx_diag d2 = fz_diag();
  ptx_module *again = ptx_parse(out, n, &d2);
  if (!again) fz_fail("the instrumented module does not parse", out, n);
  ptx_stats st2;
  memset(&st2, 0, sizeof st2);
  if (ptx_instrument(again, &o, &st2, &d2) == 0) fz_fail("an instrumented module was instrumented again", out, n);
  ptx_module_free(again);
  ptx_module_free(m);
  free(out);
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = fz_text(data, size);
  ptx_stats trap, recover;
  int a = instrument(src, size, 0, &trap), b = instrument(src, size, 1, &recover);
  if (a != b) fz_fail("instrumented in one mode and refused in the other", src, size);
  if (a > 0 && (memcmp(trap.seen, recover.seen, sizeof trap.seen) || memcmp(trap.checked, recover.checked, sizeof trap.checked) ||
                trap.sites != recover.sites))
    fz_fail("the default mode and --recover see or cover different accesses", src, size);
  free(src);
  return 0;
}
