/* scan_check.c: the verdict on every access and host use the interpreter
 * recorded. Per access: is there an assignment of the variables, within the
 * path condition and the facts, that puts it outside its allocation? And,
 * through a partition pointer, outside its partition? A satisfying
 * assignment is a finding only when every variable it involves is a program
 * input, a launch dimension, a thread id, a loop counter or a value read
 * from memory (its own category); a variable the model could not compute
 * turns it into an unknown that names why. An access reached in several
 * launches gets the worst verdict over them. */
#include "scan_solve.h"

#include <stdlib.h>
#include <time.h>

/* ---- building a query ---- */
static struct {
  unsigned char *seen;   /* per variable, cleared after each query */
  unsigned char *tmp;
  size_t cap;
  bool with_inv;         /* the query takes the variables' invariant facts too */
} Q;

static void ensure_seen(void) {
  size_t n = scan_expr_var_count() + 1;
  if (n <= Q.cap) return;
  size_t c = Q.cap ? Q.cap : 1024;
  while (c < n) c *= 2;
  Q.seen = scan_util_alloc(c);
  Q.tmp = scan_util_alloc(c);
  Q.cap = c;
}

static void add_conj(scan_query *q, const sx *c) {
  for (size_t i = 0; i < q->conj.n; i++)
    if (q->conj.v[i] == c) return;
  VEC_PUSH(q->conj, c);
  scan_expr_vars(c, &q->vars, Q.seen);
}

void scan_check_query_build(scan_query *q, scan_goal g, const sx *reach) {
  ensure_seen();
  memset(q, 0, sizeof *q);
  q->goal = g;
  const sx *parts[4] = {g.off, g.w, g.size, g.start};
  for (int i = 0; i < 4; i++)
    if (parts[i]) scan_expr_vars(parts[i], &q->vars, Q.seen);
  for (int i = 0; i < g.nafter; i++) scan_expr_vars(g.after[i], &q->vars, Q.seen);
  if (g.expr) scan_expr_vars(g.expr, &q->vars, Q.seen);
  sx_vec rc = {0};
  scan_expr_conjuncts(reach, &rc);
  VEC(int_vec) rv = {0};
  for (size_t i = 0; i < rc.n; i++) {
    int_vec vs = {0};
    scan_expr_vars(rc.v[i], &vs, Q.tmp);
    for (size_t j = 0; j < vs.n; j++) Q.tmp[vs.v[j]] = 0;
    VEC_PUSH(rv, vs);
  }
  unsigned char *used = scan_util_alloc(rc.n + 1);
  size_t done_vars = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (; done_vars < q->vars.n; done_vars++) {
      scan_var *v = scan_expr_var_get(q->vars.v[done_vars]);
      for (size_t f = 0; f < v->facts.n; f++) add_conj(q, v->facts.v[f]);
      if (Q.with_inv)
        for (size_t f = 0; f < v->inv_facts.n; f++) add_conj(q, v->inv_facts.v[f]);
    }
    for (size_t i = 0; i < rc.n; i++) {
      if (used[i]) continue;
      bool linked = rv.v[i].n == 0;
      for (size_t j = 0; j < rv.v[i].n && !linked; j++) linked = Q.seen[rv.v[i].v[j]];
      if (!linked) continue;
      used[i] = 1;
      add_conj(q, rc.v[i]);
      changed = true;
    }
    if (done_vars < q->vars.n) changed = true;
  }
  for (size_t i = 0; i < q->vars.n; i++) Q.seen[q->vars.v[i]] = 0;
}

/* inputs and ids bounded by b (signed: -b..b): a witness a person can replay */
static void bound_vars(scan_query *q, int64_t b) {
  size_t nv = q->vars.n;
  for (size_t i = 0; i < nv; i++) {
    scan_var *v = scan_expr_var_get(q->vars.v[i]);
    if (v->w < 8 || v->kind == VK_OPAQUE || v->kind == VK_BLOCK || v->kind == VK_THREADIDX) continue;
    const sx *x = scan_expr_var(q->vars.v[i]);
    if (v->sgn) {
      VEC_PUSH(q->conj, scan_expr_bin(SX_SLE, scan_expr_const(v->w, (uint64_t)-b), x));
      VEC_PUSH(q->conj, scan_expr_bin(SX_SLE, x, scan_expr_const(v->w, (uint64_t)b)));
    } else {
      VEC_PUSH(q->conj, scan_expr_bin(SX_ULE, x, scan_expr_const(v->w, (uint64_t)b)));
    }
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* what --stats prints: how each question was answered, and the time it took */
static struct {
  unsigned questions, by_range, by_relax, small, exact, implications, by_invariants;
  double t_range, t_relax, t_small, t_exact, t_impl;
} S;

/* intervals, then the relaxation, prove most safe accesses; a violation is
   looked for among small inputs first (fast, and a readable witness), then
   anywhere (wrap-around needs large values) */
static qres decide_new(scan_query *q, uint64_t *values) {
  S.questions++;
  double t0 = now();
  range_ctx *r = scan_range_new(q);
  bool safe = scan_range_safe(r, q);
  double t1 = now();
  S.t_range += t1 - t0;
  if (safe) {
    S.by_range++;
    return Q_UNSAT;
  }
  qres rr = scan_relax_check(r, q, scan_main_options.rlimit / 4);
  double t2 = now();
  S.t_relax += t2 - t1;
  if (rr == Q_UNSAT) {
    S.by_relax++;
    return Q_UNSAT;
  }
  static const int64_t bounds[2] = {16, 1024};
  size_t n0 = q->conj.n;
  for (int i = 0; i < 2; i++) {
    bound_vars(q, bounds[i]);
    range_ctx *rb = scan_range_new(q);
    bool sat = !scan_range_safe(rb, q) && scan_relax_check(rb, q, scan_main_options.rlimit / 8) != Q_UNSAT &&
               scan_z3_check(q, scan_main_options.rlimit / 4, values) == Q_SAT;
    q->conj.n = n0;
    if (sat) {
      S.small++;
      S.t_small += now() - t2;
      return Q_SAT;
    }
  }
  double t3 = now();
  S.t_small += t3 - t2;
  qres res = scan_z3_check(q, scan_main_options.rlimit, values);
  S.exact++;
  S.t_exact += now() - t3;
  return res;
}

static qres decide_plain(scan_query *q, uint64_t *values) { return scan_cache_decide(q, values, decide_new); }

/* q proved (its goal impossible) by intervals, the relaxation or Z3 within
   the limits given; no witness is looked for */
static bool proves(scan_query *q, uint64_t relax_rlimit, uint64_t z3_rlimit) {
  range_ctx *r = scan_range_new(q);
  return scan_range_safe(r, q) || scan_relax_check(r, q, relax_rlimit) == Q_UNSAT ||
         scan_z3_check(q, z3_rlimit, NULL) == Q_UNSAT;
}

static bool has_inv_facts(const scan_query *q) {
  for (size_t i = 0; i < q->vars.n; i++)
    if (scan_expr_var_get(q->vars.v[i])->inv_facts.n) return true;
  return false;
}

/* q built from goal and reach: its answer; where it is not proved and a
   variable of it has invariant facts (a loop's, scan_invariant.c), the
   question with them, which replaces q where it proves the access (only
   ever a proof: a loop's variables are opaque, so the answer without the
   facts was an unknown at best), asked on the invariants' budget */
static qres decide(scan_query *q, scan_goal goal, const sx *reach, uint64_t *values) {
  qres res = decide_plain(q, values);
  if (res == Q_UNSAT || !has_inv_facts(q)) return res;
  scan_query qi;
  Q.with_inv = true;
  scan_check_query_build(&qi, goal, reach);
  Q.with_inv = false;
  /* a question the invariants add, on their budget, for a proof only (no
     witness search: a witness here would be an unknown's) */
  scan_z3_side(true);
  bool proved = proves(&qi, scan_main_options.rlimit / 32, scan_main_options.rlimit / 32);
  scan_z3_side(false);
  if (!proved) return res;
  S.by_invariants++;
  *q = qi;
  return Q_UNSAT;
}

/* reach and not f: the question whether reach implies f */
static void implies_query(scan_query *q, const sx *reach, const sx *f) {
  scan_goal g = {G_EXPR, NULL, NULL, NULL, NULL, NULL, 0, scan_expr_not(f)};
  scan_check_query_build(q, g, reach);
}

/* Not through the cache of answers: a question this leaves open may be one
   decide answers (a witness), and the next to ask it must get that. All of
   fs at once, by the relaxation, then by Z3, whose counterexample drops the
   formulas it breaks, and again of the rest (a loop's invariants that hold
   are mostly proved together); what that leaves open, each alone. A small
   share of --rlimit each question. (One incremental Z3 solver for all was
   tried: its push spent minutes unbounded on HeCBench's bitcracker.) */
#define IMPLIED_ROUNDS 8
void scan_check_implied(const sx *reach, const sx *const *fs, int n, bool *proved) {
  double t0 = now();
  for (int i = 0; i < n; i++) proved[i] = scan_expr_is_true(fs[i]);
  /* the tests take half the invariants' budget at most (a quarter of
     --budget): the questions asked again with what they find come after
     every loop is analysed */
  if (scan_z3_side_spent() >= scan_main_options.budget / 4) return;
  S.implications += (unsigned)n;
  scan_z3_side(true);
  int *alive = scan_util_alloc(((size_t)n + 1) * sizeof *alive), na = 0;
  for (int i = 0; i < n; i++)
    if (!proved[i]) alive[na++] = i;
  uint64_t *values = scan_util_alloc((scan_expr_var_count() + 1) * sizeof *values);
  bool each = false;
  for (int round = 0; na && !each; round++) {
    const sx *all = scan_expr_true();
    for (int i = 0; i < na; i++) all = scan_expr_and(all, fs[alive[i]]);
    scan_query q;
    implies_query(&q, reach, all);
    qres r = scan_relax_check(scan_range_new(&q), &q, scan_main_options.rlimit / 32) == Q_UNSAT
                 ? Q_UNSAT
                 : scan_z3_check(&q, scan_main_options.rlimit / 32, values);
    if (r == Q_UNSAT) {
      for (int i = 0; i < na; i++) proved[alive[i]] = true;
      na = 0;
      break;
    }
    int kept = 0;
    if (r == Q_SAT)
      for (int i = 0; i < na; i++)
        if (scan_expr_eval(fs[alive[i]], values)) alive[kept++] = alive[i];
    each = r != Q_SAT || kept == na || round + 1 == IMPLIED_ROUNDS;
    if (!each) na = kept;
  }
  for (int i = 0; i < na; i++) {
    scan_query q;
    implies_query(&q, reach, fs[alive[i]]);
    proved[alive[i]] = proves(&q, scan_main_options.rlimit / 64, scan_main_options.rlimit / 32);
  }
  scan_z3_side(false);
  S.t_impl += now() - t0;
}

void scan_check_stats(FILE *out) {
  fprintf(out,
          "gsan scan: %u questions: %u answered before, %u decided by intervals (%.2f s), %u by the relaxation (%.2f s), "
          "%u by a small witness (%.2f s), %u by the exact search (%.2f s); %u loop invariants tested (%.2f s, %llu units of their own half of the budget), "
          "%u accesses proved with them; "
          "%llu of %llu resource units\n",
          S.questions + scan_cache_hits(), scan_cache_hits(), S.by_range, S.t_range, S.by_relax, S.t_relax, S.small, S.t_small,
          S.exact, S.t_exact, S.implications, S.t_impl, (unsigned long long)scan_z3_side_spent(), S.by_invariants,
          (unsigned long long)scan_z3_spent(), (unsigned long long)scan_main_options.budget);
}

/* ---- witnesses ---- */
static int kind_rank(scan_vkind k) {
  switch (k) {
  case VK_INPUT: return 0;
  case VK_RUNTIME: return 1;
  case VK_GRID: return 2;
  case VK_BLOCK: return 3;
  case VK_BLOCKIDX: return 4;
  case VK_THREADIDX: return 5;
  case VK_LOOP: return 6;
  case VK_LOADED: return 7;
  default: return 8;
  }
}

static int var_order(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  scan_var *vx = scan_expr_var_get(x), *vy = scan_expr_var_get(y);
  int rx = kind_rank(vx->kind), ry = kind_rank(vy->kind);
  if (rx != ry) return rx - ry;
  return x - y;
}

static const char *value_text(const scan_var *v, uint64_t k) {
  if (v->w == 1) return k ? "true" : "false";
  if (v->sgn) return scan_util_fmt("%lld", (long long)scan_expr_sext_val(k, v->w));
  return scan_util_fmt("%llu", (unsigned long long)k);
}

/* a launch dimension on an axis no index of the witness uses says nothing
   when it is 1 or the launch is an arbitrary one */
static bool idle_axis(const scan_query *q, const scan_var *v, uint64_t value) {
  if (v->kind != VK_GRID && v->kind != VK_BLOCK) return false;
  if (value != 1 && !(v->launch >= 0 && scan_model_state.launches.v[v->launch].free_launch)) return false;
  for (size_t i = 0; i < q->vars.n; i++) {
    scan_var *o = scan_expr_var_get(q->vars.v[i]);
    if ((o->kind == VK_THREADIDX || o->kind == VK_BLOCKIDX) && o->axis == v->axis && o->launch == v->launch) return false;
  }
  return true;
}

static const char *witness_vars(const scan_query *q, const uint64_t *values) {
  int_vec vs = {0};
  for (size_t i = 0; i < q->vars.n; i++) {
    scan_var *v = scan_expr_var_get(q->vars.v[i]);
    if (v->kind != VK_OPAQUE && !v->hidden && !idle_axis(q, v, values[q->vars.v[i]])) VEC_PUSH(vs, q->vars.v[i]);
  }
  if (!vs.n) return NULL;
  qsort(vs.v, vs.n, sizeof *vs.v, var_order);
  scan_buf b = {0};
  for (size_t i = 0; i < vs.n; i++) {
    scan_var *v = scan_expr_var_get(vs.v[i]);
    bool dup = false;
    for (size_t j = 0; j < vs.n; j++)
      if (j != i && !strcmp(scan_expr_var_get(vs.v[j])->name, v->name)) dup = true;
    scan_util_buf_add(&b, "%s%s", i ? ", " : "", v->name);
    if (dup) scan_util_buf_add(&b, "@%u", v->loc.line);
    scan_util_buf_add(&b, "=%s", value_text(v, values[vs.v[i]]));
  }
  return b.s;
}

static const char *join_witness(const char *vars, const char *tail) {
  if (!vars) return tail;
  if (!tail) return vars;
  return scan_util_fmt("%s: %s", vars, tail);
}

/* "index 17 >= size 17 (4-byte elements: byte 68, size 68 bytes)" in elements and bytes where the sizes allow, else in bytes;
   counted from the allocation's start, which names it when the pointer does not */
static const char *oob_tail(const scan_access *a, const uint64_t *values) {
  int64_t off = (int64_t)scan_expr_eval(a->off, values);
  scan_region *r = scan_model_reg(a->region);
  uint64_t w = scan_expr_eval(a->width, values), size = scan_expr_eval(r->size, values);
  unsigned el = a->elem;
  if (el && off % el == 0 && size % el == 0 && w == el) {
    const char *of = strcmp(a->base, r->name) && a->ctx >= 0 ? scan_util_fmt(" of '%s'", r->name) : "";
    /* both units: the elements as indexed, the bytes the allocation was asked for */
    const char *bytes = scan_util_fmt("%u-byte elements: byte %lld, size %llu bytes", el, (long long)off, (unsigned long long)size);
    if (off < 0) return scan_util_fmt("index %lld%s < 0 (%s)", (long long)(off / el), of, bytes);
    return scan_util_fmt("index %lld%s >= size %llu (%s)", (long long)(off / el), of, (unsigned long long)(size / el), bytes);
  }
  if (off < 0) return scan_util_fmt("byte offset %lld < 0", (long long)off);
  if (!off) return scan_util_fmt("%llu bytes > size %llu bytes", (unsigned long long)w, (unsigned long long)size);
  return scan_util_fmt("bytes %lld..%lld outside size %llu", (long long)off, (long long)(off + (int64_t)w - 1),
                  (unsigned long long)size);
}

/* ---- verdicts per site ---- */
typedef struct {
  scan_loc loc;
  scan_akind kind;
  scan_finding *f; /* the worst so far */
} site;

static VEC(site) sites;

static site *site_of(const scan_access *a) {
  for (size_t i = sites.n; i-- > 0;)
    if (!scan_util_loc_cmp(sites.v[i].loc, a->loc) && sites.v[i].kind == a->kind) return &sites.v[i];
  site s = {a->loc, a->kind, NULL};
  VEC_PUSH(sites, s);
  return &sites.v[sites.n - 1];
}

static const char *access_verb(scan_akind k) {
  switch (k) {
  case AK_READ: return "read of";
  case AK_WRITE: return "write to";
  case AK_ATOMIC: return "atomic access to";
  case AK_COPY_TO: return "copy to";
  case AK_COPY_FROM: return "copy from";
  case AK_SET: return "set of";
  case AK_USE: return "use of";
  }
  return "access to";
}

static const char *access_desc(const scan_access *a) {
  if (a->what) return scan_util_fmt("%s '%s' by %s", access_verb(a->kind), a->base, a->what);
  return scan_util_fmt("%s '%s'", access_verb(a->kind), a->base);
}

static bool shows_vars(const sx *e) {
  int_vec vs = {0};
  ensure_seen();
  scan_expr_vars(e, &vs, Q.tmp);
  bool ok = true;
  for (size_t i = 0; i < vs.n; i++) {
    scan_vkind k = scan_expr_var_get(vs.v[i])->kind;
    if (k != VK_INPUT && k != VK_RUNTIME) ok = false;
    Q.tmp[vs.v[i]] = 0;
  }
  return ok;
}

static void note_region(scan_finding *f, const scan_region *r) {
  if (r->kind == RG_JOIN) { /* where the pointer was chosen, then each it may be */
    scan_diag_note(f, r->site, "the pointer is '%s' or '%s', as a condition chooses here", scan_model_reg(r->join[0])->name,
                   scan_model_reg(r->join[1])->name);
    note_region(f, scan_model_reg(r->join[0]));
    note_region(f, scan_model_reg(r->join[1]));
    return;
  }
  const char *what = r->kind == RG_SHARED || r->kind == RG_LOCAL || r->kind == RG_HOSTVAR || r->kind == RG_GLOBALVAR ||
                             r->kind == RG_MEMBER || r->kind == RG_VAR
                         ? "declared" : "allocated";
  scan_buf b = {0};
  uint64_t k;
  if (scan_expr_is_const(r->size, &k)) {
    scan_util_buf_add(&b, "%llu", (unsigned long long)k);
    if (r->size_text && strcmp(r->size_text, b.s)) b.n = 0, scan_util_buf_add(&b, "%s", r->size_text);
  } else if (shows_vars(r->size) && (scan_expr_print(&b, r->size), b.n <= 60)) {
    /* the size in the program's inputs */
  } else {
    b.n = 0;
    scan_util_buf_add(&b, "%s", r->size_text ? r->size_text : "(not known)");
  }
  const char *kind = r->kind == RG_DYNSHARED ? "dynamic shared memory " : r->kind == RG_SHARED ? "shared array " : "";
  scan_diag_note(f, r->site, "%s'%s' %s here with size %s bytes", kind, r->name, what, b.s);
}

static void note_launch(scan_finding *f, int ctx) {
  if (ctx < 0) return;
  scan_launch *L = &scan_model_state.launches.v[ctx];
  if (!L->free_launch) scan_diag_note(f, L->site, "kernel '%s' launched here", L->kernel);
}

static const char *first_opaque(const scan_query *q) {
  for (size_t i = 0; i < q->vars.n; i++) {
    scan_var *v = scan_expr_var_get(q->vars.v[i]);
    if (v->kind != VK_OPAQUE) continue;
    const char *why = v->why ? v->why : "a value the model does not compute";
    return strstr(why, "line ") || !v->loc.line ? why : scan_util_fmt("%s (line %u)", why, v->loc.line);
  }
  return NULL;
}

static const scan_var *first_kind(const scan_query *q, scan_vkind k) {
  for (size_t i = 0; i < q->vars.n; i++)
    if (scan_expr_var_get(q->vars.v[i])->kind == k) return scan_expr_var_get(q->vars.v[i]);
  return NULL;
}

static scan_finding *unknown(const scan_access *a, const char *why) {
  return scan_diag_new(FK_UNKNOWN, a->loc, scan_util_fmt("cannot decide whether the %s stays in bounds: %s", access_desc(a), why));
}

/* replaces the site's verdict when f is worse; finding > unknown */
static void settle(site *s, scan_finding *f) {
  if (!f) return;
  if (!s->f) {
    s->f = f;
  } else if (s->f->kind == FK_UNKNOWN && f->kind != FK_UNKNOWN) {
    s->f->dropped = true;
    s->f = f;
  } else {
    f->dropped = true;
  }
}

static const char *timeout_why(void) {
  if (scan_z3_budget_spent())
    return scan_util_fmt("the run's solver budget was spent before this access (--budget=%llu)",
                    (unsigned long long)scan_main_options.budget);
  return scan_util_fmt("the solver found no answer within its budget (--rlimit=%llu)", (unsigned long long)scan_main_options.rlimit);
}

/* the query was satisfiable and its witness made as small as it goes: what
   kind of report it makes */
static scan_finding *report(const scan_access *a, const scan_query *q, const uint64_t *values, scan_fkind want,
                            const char *msg, const char *tail) {
  /* after code with errors that was skipped: a guard it held is not seen */
  if (a->taint) return unknown(a, a->taint);
  const char *wit = join_witness(witness_vars(q, values), tail);
  if (a->ctx >= 0 && scan_model_state.launches.v[a->ctx].free_launch) {
    const scan_launch *L = &scan_model_state.launches.v[a->ctx];
    return unknown(a, scan_util_fmt(L->device_fn ? "'%s' is called by no analysed code; under some launch: %s"
                                                 : "'%s' has no launch in the analysed code; under some launch: %s",
                                    L->kernel, wit));
  }
  const scan_var *ld = first_kind(q, VK_LOADED);
  scan_finding *f;
  if (ld) {
    f = scan_diag_new(FK_UNVALIDATED, a->loc, scan_util_fmt("the index of the %s is read from memory and not validated", access_desc(a)));
    scan_diag_note(f, ld->loc, "'%s' is read here", ld->name);
  } else {
    f = scan_diag_new(want, a->loc, msg);
  }
  f->witness = wit;
  return f;
}

static void check_partition(const scan_access *a, site *s) {
  scan_part *p = &scan_model_state.parts.v[a->part];
  VEC(const sx *) others = {0};
  VEC(int) oid = {0};
  for (size_t i = 0; i < scan_model_state.parts.n; i++) {
    scan_part *o = &scan_model_state.parts.v[i];
    if ((int)i == a->part || o->region != p->region || o->ctx != p->ctx) continue;
    VEC_PUSH(others, o->start);
    VEC_PUSH(oid, (int)i);
  }
  scan_region *r = scan_model_reg(a->region);
  scan_goal g = {G_PART, a->off, a->width, r->size, p->start, others.v, (int)others.n, NULL};
  scan_query q;
  scan_check_query_build(&q, g, a->reach);
  uint64_t *values = scan_util_alloc((scan_expr_var_count() + 1) * sizeof *values);
  qres res = decide(&q, g, a->reach, values);
  if (res == Q_UNSAT) return;
  if (res == Q_UNKNOWN) {
    settle(s, unknown(a, timeout_why()));
    return;
  }
  if (first_opaque(&q)) {
    settle(s, unknown(a, first_opaque(&q)));
    return;
  }
  int64_t off = (int64_t)scan_expr_eval(a->off, values), start = (int64_t)scan_expr_eval(p->start, values);
  uint64_t w = scan_expr_eval(a->width, values);
  const char *tail, *msg;
  /* the partition it reaches: below, the nearest that starts before it; above, the nearest after */
  int hit = -1;
  int64_t hit_start = 0;
  bool below = off < start;
  for (size_t i = 0; i < others.n; i++) {
    int64_t qs = (int64_t)scan_expr_eval(others.v[i], values);
    bool reach = off + (int64_t)w > qs && (below ? qs < start : qs > start);
    if (reach && (hit < 0 || (below ? qs > hit_start : qs < hit_start))) {
      hit = oid.v[i];
      hit_start = qs;
    }
  }
  unsigned el = a->elem ? a->elem : 1;
  if (below) {
    msg = hit >= 0 ? scan_util_fmt("%s reaches below the start of partition '%s' into '%s', another partition of '%s'",
                              access_desc(a), p->name, scan_model_state.parts.v[hit].name, r->name)
                   : scan_util_fmt("%s reaches below the start of partition '%s' of '%s'", access_desc(a), p->name, r->name);
    tail = scan_util_fmt("byte %lld < start of '%s' at byte %lld", (long long)off, p->name, (long long)start);
  } else {
    msg = scan_util_fmt("%s overflows partition '%s' into '%s', another partition of '%s'", access_desc(a), p->name,
                   scan_model_state.parts.v[hit].name, r->name);
    tail = scan_util_fmt("index %lld of '%s' is byte %lld >= %lld, where '%s' starts", (long long)((off - start) / el), p->name,
                    (long long)off, (long long)hit_start, scan_model_state.parts.v[hit].name);
  }
  scan_finding *f = report(a, &q, values, FK_PARTITION, msg, tail);
  if (f->kind == FK_PARTITION || f->kind == FK_UNVALIDATED) {
    scan_diag_note(f, p->loc, "partition '%s' starts here", p->name);
    if (hit >= 0) scan_diag_note(f, scan_model_state.parts.v[hit].loc, "partition '%s' starts here", scan_model_state.parts.v[hit].name);
    note_region(f, r);
    note_launch(f, a->ctx);
  }
  settle(s, f);
}

static void check_access(const scan_access *a) {
  site *s = site_of(a);
  if (s->f && s->f->kind != FK_UNKNOWN) return; /* already a finding here */
  if (a->why) {
    settle(s, unknown(a, a->why));
    return;
  }
  scan_region *r = scan_model_reg(a->region);
  if (r->kind == RG_UNKNOWN) {
    settle(s, unknown(a, r->why));
    return;
  }
  scan_goal g = {G_OOB, a->off, a->width, r->size, NULL, NULL, 0, NULL};
  scan_query q;
  scan_check_query_build(&q, g, a->reach);
  uint64_t *values = scan_util_alloc((scan_expr_var_count() + 1) * sizeof *values);
  qres res = decide(&q, g, a->reach, values);
  if (res == Q_UNKNOWN) {
    settle(s, unknown(a, timeout_why()));
    return;
  }
  if (res == Q_UNSAT) {
    if (a->part >= 0) check_partition(a, s);
    return;
  }
  if (first_opaque(&q)) {
    settle(s, unknown(a, first_opaque(&q)));
    return;
  }
  if (r->kind == RG_PARAM) { /* the declaration is assumed, not known: a caller may pass more */
    settle(s, unknown(a, r->why));
    return;
  }
  scan_finding *f = report(a, &q, values, FK_OOB, scan_util_fmt("out-of-bounds %s", access_desc(a)), oob_tail(a, values));
  if (f->kind != FK_UNKNOWN) {
    note_region(f, r);
    note_launch(f, a->ctx);
  }
  settle(s, f);
}

/* the conditions of the free that the use's own path does not imply: the
   witness of a use after a free on some paths only */
static const char *free_condition(const scan_query *q, const scan_use *u, const uint64_t *values) {
  sx_vec fc = {0}, rc = {0};
  scan_expr_conjuncts(u->freed, &fc);
  scan_expr_conjuncts(u->reach, &rc);
  scan_query only = *q;
  memset(&only.vars, 0, sizeof only.vars);
  ensure_seen();
  for (size_t i = 0; i < fc.n; i++) {
    bool shared = false;
    for (size_t j = 0; j < rc.n && !shared; j++) shared = rc.v[j] == fc.v[i];
    if (!shared) scan_expr_vars(fc.v[i], &only.vars, Q.tmp);
  }
  for (size_t i = 0; i < only.vars.n; i++) Q.tmp[only.vars.v[i]] = 0;
  return witness_vars(&only, values);
}

static void check_use(const scan_use *u) {
  for (size_t i = 0; i < scan_diag_count(); i++) {
    scan_finding *f = scan_diag_get(i);
    if (f->kind == FK_UAF && !scan_util_loc_cmp(f->loc, u->loc) && !f->dropped) return;
  }
  scan_goal g = {G_EXPR, NULL, NULL, NULL, NULL, NULL, 0, u->freed};
  scan_query q;
  scan_check_query_build(&q, g, u->reach);
  uint64_t *values = scan_util_alloc((scan_expr_var_count() + 1) * sizeof *values);
  qres res = decide(&q, g, u->reach, values);
  if (res == Q_UNSAT) return;
  scan_region *r = scan_model_reg(u->region);
  const char *what = !strncmp(u->what, "freed again", 11)
                         ? scan_util_fmt("'%s' may be freed twice: %s", u->name, u->what)
                         : scan_util_fmt("'%s' is used after it was freed: %s", u->name, u->what);
  if (res == Q_UNKNOWN || u->why || u->taint || first_opaque(&q)) {
    scan_diag_new(FK_UNKNOWN, u->loc, scan_util_fmt("cannot decide whether %s: %s", what,
                                          u->why     ? u->why
                                          : u->taint ? u->taint
                                          : res == Q_UNKNOWN ? timeout_why() : first_opaque(&q)));
    return;
  }
  scan_finding *f = scan_diag_new(FK_UAF, u->loc, what);
  scan_diag_note(f, r->free_site, "'%s' freed here", r->name);
  note_region(f, r);
  f->witness = free_condition(&q, u, values);
}

unsigned scan_check_all(void) {
  size_t before = sites.n;
  for (size_t i = 0; i < scan_model_state.accesses.n; i++) check_access(&scan_model_state.accesses.v[i]);
  for (size_t i = 0; i < scan_model_state.uses.n; i++) check_use(&scan_model_state.uses.v[i]);
  return (unsigned)(sites.n - before);
}

void scan_check_reset(void) {
  memset(&Q, 0, sizeof Q);
  memset(&S, 0, sizeof S);
  memset(&sites, 0, sizeof sites);
}
