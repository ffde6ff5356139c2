/* scan_model.c: the model's tables: allocations (regions), partitions,
 * accesses, host uses and launches, filled by the interpreter and read by
 * the checker. */
#include "scan.h"

scan_model scan_model_state;

int scan_model_region(scan_rkind k, const char *name, scan_loc site, const sx *size, const char *size_text) {
  scan_region r;
  memset(&r, 0, sizeof r);
  r.id = (int)scan_model_state.regions.n;
  r.kind = k;
  r.name = name;
  r.site = site;
  r.size = size;
  r.size_text = size_text;
  r.ctx = -1;
  VEC_PUSH(scan_model_state.regions, r);
  return r.id;
}

int scan_model_unknown_region(const char *why) {
  int id = scan_model_region(RG_UNKNOWN, "?", (scan_loc){0}, scan_expr_const(64, 0), NULL);
  scan_model_state.regions.v[id].why = why;
  return id;
}

scan_region *scan_model_reg(int id) { return &scan_model_state.regions.v[id]; }

bool scan_model_known(const scan_region *r) { return r->kind != RG_UNKNOWN && r->kind != RG_PARAM; }

/* an allocation that failed is not used: what succeeding says about its size
   (asserted where it is used, not on the host's path, where it would stay in
   every later path condition) */
const sx *scan_model_allocated(int id) {
  scan_region *r = &scan_model_state.regions.v[id];
  switch (r->kind) {
  case RG_DEVICE: case RG_MANAGED: case RG_PITCHED: case RG_HOST: case RG_PINNED:
    return scan_expr_bin(SX_ULE, r->size, scan_model_state.max_alloc);
  default: return scan_expr_true();
  }
}

void scan_model_reset(void) {
  memset(&scan_model_state, 0, sizeof scan_model_state);
  scan_model_state.max_alloc = scan_expr_const(64, scan_main_options.max_alloc);
}
