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

bool scan_model_known(const scan_region *r) { return r->kind != RG_UNKNOWN && r->kind != RG_PARAM && r->kind != RG_JOIN; }

/* c ? a : b as one region: its size the chosen one's, freed where the chosen
   one was by then (a free after the join is not seen through it: stores and
   frees through it treat it as a pointer the model does not follow) */
int scan_model_join(const sx *c, int a, int b, scan_loc at) {
  const scan_region *ra = scan_model_reg(a), *rb = scan_model_reg(b);
  const char *name = scan_util_fmt("%s or %s", ra->name, rb->name);
  const sx *size = scan_expr_ite(c, ra->size, rb->size);
  const sx *fa = ra->freed ? ra->freed : scan_expr_false(), *fb = rb->freed ? rb->freed : scan_expr_false();
  const sx *freed = ra->freed || rb->freed ? scan_expr_or(scan_expr_and(c, fa), scan_expr_and(scan_expr_not(c), fb)) : NULL;
  scan_loc free_site = ra->freed ? ra->free_site : rb->free_site;
  int ctx = ra->ctx == rb->ctx ? ra->ctx : -1;
  /* ra and rb point into the table, which adding a region may move */
  int id = scan_model_region(RG_JOIN, name, at, size, NULL);
  scan_region *r = scan_model_reg(id);
  r->freed = freed;
  r->free_site = free_site;
  r->ctx = ctx;
  r->join[0] = a;
  r->join[1] = b;
  return id;
}

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
