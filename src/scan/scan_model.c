/* scan_model.c: the model's tables: allocations (regions), partitions,
 * accesses, host uses and launches, filled by the interpreter and read by
 * the checker. */
#include "scan.h"

scan_model M;

int model_region(scan_rkind k, const char *name, scan_loc site, const sx *size, const char *size_text) {
  scan_region r;
  memset(&r, 0, sizeof r);
  r.id = (int)M.regions.n;
  r.kind = k;
  r.name = name;
  r.site = site;
  r.size = size;
  r.size_text = size_text;
  r.ctx = -1;
  VEC_PUSH(M.regions, r);
  return r.id;
}

int model_unknown_region(const char *why) {
  int id = model_region(RG_UNKNOWN, "?", (scan_loc){0}, sx_const(64, 0), NULL);
  M.regions.v[id].why = why;
  return id;
}

scan_region *model_reg(int id) { return &M.regions.v[id]; }
