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
  fprintf(f, "  checks inserted:            %ld\n", st->checks);
  fprintf(f, "  checks removed (dominated): %ld\n", st->removed_dominated);
  fprintf(f, "  checks removed (merged):    %ld\n", st->removed_merged);
  fprintf(f, "  proven in bounds:           %ld\n", st->static_safe);
  fprintf(f, "  proven out of bounds:       %ld\n", st->static_oob);
  fprintf(f, "  lookups hoisted to roots:   %ld (serving %ld checks)\n", st->lookups_root, st->hoisted_uses);
  fprintf(f, "  lookups at the access:      %ld\n", st->lookups_access);
  fprintf(f, "  unchecked (no root):        %ld\n", st->unchecked_noroot);
  fprintf(f, "  unchecked (unsupported):    %ld\n", st->unchecked_unsupported);
  fprintf(f, "  unchecked (extern size):    %ld\n", st->unchecked_extern);
  fprintf(f, "  not requested (--spaces):   %ld\n", st->not_requested);
  fprintf(f, "  functions: %ld (%ld without CFG analysis)\n", st->funcs, st->funcs_fallback);
  fprintf(f, "  sites: %ld\n", st->sites);
}
