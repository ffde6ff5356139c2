/* scan_reset.c: gsan-scan's state emptied between unrelated analyses. A
 * gsan scan run keeps what it learnt from file to file (the cache of
 * answers, interned strings, variables) and frees it at exit; a caller that
 * analyses many inputs in one process (the fuzz harness, tests/fuzz/
 * fuzz_scan.c) starts each from nothing, so its memory stays bounded and an
 * input's report does not depend on the ones before it. */
#include "scan_interp.h"
#include "scan_solve.h"

void scan_reset(void) {
  unit_reset();
  check_reset();
  cache_reset();
  range_reset();
  relax_reset();
  z3_reset();
  diag_reset();
  sx_reset();
  scan_intern_reset();
  scan_alloc_reset(); /* everything above pointed into it */
  model_reset();      /* makes its first expression in the new arena */
}
