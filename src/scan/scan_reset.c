/* scan_reset.c: gsan-scan's state emptied between unrelated analyses. A
 * gsan scan run keeps what it learnt from file to file (the cache of
 * answers, interned strings, variables) and frees it at exit; a caller that
 * analyses many inputs in one process (the fuzz harness, tests/fuzz/
 * fuzz_scan.c) starts each from nothing, so its memory stays bounded and an
 * input's report does not depend on the ones before it. */
#include "scan_interp.h"
#include "scan_solve.h"

void scan_reset(void) {
  scan_unit_reset();
  scan_exec_reset();
  scan_tables_reset();
  scan_check_reset();
  scan_cache_reset();
  scan_range_reset();
  scan_relax_reset();
  scan_z3_reset();
  scan_diag_reset();
  scan_expr_reset();
  scan_util_intern_reset();
  scan_front_reset();
  scan_util_alloc_reset(); /* everything above pointed into it */
  scan_model_reset();      /* makes its first expression in the new arena */
}
