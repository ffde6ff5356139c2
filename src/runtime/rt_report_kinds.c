/* The table of report kinds (rt_report_kinds.h), built from the one list.
 * Linked into libgsan and into the gsan command (the suppressions parser
 * that gsan run checks a file with, and `gsan help reports`). */
#include "rt_report_kinds.h"

#include <string.h>

static const struct {
  const char *name, *about;
} table[RT_REPORT_KINDS] = {
#define RT_REPORT_KIND_ROW(id, name, about) [RT_KIND_##id] = {name, about},
    RT_FOR_EACH_REPORT_KIND(RT_REPORT_KIND_ROW)
#undef RT_REPORT_KIND_ROW
};

const char *rt_report_kind_name(rt_report_kind kind) {
  return (unsigned)kind < RT_REPORT_KINDS ? table[kind].name : "?";
}

const char *rt_report_kind_about(rt_report_kind kind) {
  return (unsigned)kind < RT_REPORT_KINDS ? table[kind].about : "?";
}

int rt_report_kind_lookup(const char *s, size_t len) {
  for (int k = 0; k < RT_REPORT_KINDS; k++)
    if (strlen(table[k].name) == len && !memcmp(table[k].name, s, len)) return k;
  return -1;
}
