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

/* an allocation that failed is not used: what succeeding says about its size
   (asserted where it is used, not on the host's path, where it would stay in
   every later path condition) */
const sx *model_allocated(int id) {
  scan_region *r = &M.regions.v[id];
  switch (r->kind) {
  case RG_DEVICE: case RG_MANAGED: case RG_PITCHED: case RG_HOST: case RG_PINNED:
    return sx_bin(SX_ULE, r->size, M.max_alloc);
  default: return sx_true();
  }
}

void model_reset(void) {
  memset(&M, 0, sizeof M);
  M.max_alloc = sx_const(64, O.max_alloc);
}
