/* --stats: what the instrumenter saw, checked, removed and left unchecked. */
#include "ptx_instr.h"

#include <gsan/abi.h>

void ptx_stats_print(FILE *f, const ptx_stats *st) {
  static const int order[] = {GSAN_SPACE_GLOBAL, GSAN_SPACE_SHARED, GSAN_SPACE_LOCAL, GSAN_SPACE_GENERIC, GSAN_SPACE_CONST};
  long seen = 0, checked = 0;
  fprintf(f, "gsan ptx statistics\n");
  fprintf(f, "  %-10s %10s %10s\n", "space", "accesses", "checked");
  for (int k = 0; k < 5; k++) {
    int sp = order[k];
    fprintf(f, "  %-10s %10ld %10ld\n", ptx_space_name(sp), st->seen[sp], st->checked[sp]);
    seen += st->seen[sp];
    checked += st->checked[sp];
  }
  fprintf(f, "  %-10s %10ld %10ld\n", "total", seen, checked);
  /* one line per counter; the lookups line also says how many checks it serves */
  const struct { const char *label; long value, serving; } rows[] = {
      {"checks inserted:", st->checks, -1},
      {"checks removed (dominated):", st->removed_dominated, -1},
      {"checks removed (merged):", st->removed_merged, -1},
      {"checks removed (chains):", st->removed_chained, -1},
      {"checks removed (families):", st->removed_family, -1},
      {"proven in bounds:", st->static_safe, -1},
      {"proven in bounds (values):", st->range_safe, -1},
      {"proven out of bounds:", st->static_oob, -1},
      {"lookups hoisted to roots:", st->lookups_root, st->hoisted_uses},
      {"lookups at the access:", st->lookups_access, -1},
      {"loops checked before they run:", st->loops_versioned, -1},
      {"checks hoisted out of loops:", st->checks_hoisted, -1},
      {"  within their guard's range:", st->checks_guarded, -1},
      {"unchecked (no root):", st->unchecked_noroot, -1},
      {"unchecked (unsupported):", st->unchecked_unsupported, -1},
      {"unchecked (extern size):", st->unchecked_extern, -1},
      {"not requested (--spaces):", st->not_requested, -1},
      {"functions whose locals escape:", st->scope_funcs, -1},
      {"use-after-scope checks:", st->scope_checks, -1},
      {"kernels with a launch copy:", st->launch_copies, -1},
      {"kernels with a proven copy:", st->proven_copies, -1},
      {"checks decided at launch:", st->proven_checks, -1},
  };
  int rows_n = (int)(sizeof rows / sizeof rows[0]);
  for (int k = 0; k < rows_n; k++) {
    fprintf(f, "  %-31s%ld", rows[k].label, rows[k].value);
    if (rows[k].serving >= 0) fprintf(f, " (serving %ld checks)", rows[k].serving);
    fputc('\n', f);
  }
  /* only with --frame-arrays (the experiment): the other outputs stay as they were */
  if (st->frame_array_checks) fprintf(f, "  %-31s%ld\n", "checks on frame arrays:", st->frame_array_checks);
  fprintf(f, "  functions: %ld (%ld without CFG analysis)\n", st->funcs, st->funcs_fallback);
  fprintf(f, "  sites: %ld\n", st->sites);
}
