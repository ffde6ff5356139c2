/* scan_invariant.c: relations a loop keeps. A variable a loop changes is an
 * opaque value in its body and after it (scan_exec.c), so an access through
 * it is at best an unknown. Some relations survive every iteration and are
 * enough: a binary search's bounds stay between their starting values
 * (lo0 <= lo <= hi <= hi0, so its midpoint indexes the array), a compaction's
 * output index never passes the loop's counter (j <= i).
 *
 * Candidates, over the loop's tracked integers (same width and signedness):
 *   e(a) <= x(a) and x(a) <= e(a)   a variable only grows, or only shrinks
 *   x(a) <= x(b)                    two variables (held at entry; not two
 *                                   that start equal, neither the counter)
 * (a variable against another's entry value was tried too: on HeCBench's
 * deredundancy 655 tests against 259, and on segsort not one access more
 * decided). Then Houdini's fixpoint: the caller runs the body once as a
 * trial with every candidate assumed (scan_invariant_assumed) and gives the
 * values at its end (the back edge); a candidate those values do not keep is
 * dropped (scan_invariant_step), and the trial runs again until none is.
 * What is left holds at the top of every iteration: facts of the body's
 * opaque values, and of the values after a loop left only through its
 * condition (scan_invariant_attach). The tests are scan_check_implied's, a
 * small share of --rlimit each; a test that does not prove drops the
 * candidate, so a fact is never a guess. */
#include "scan_interp.h"

#include <string.h>

typedef struct {
  int a, b;      /* variable indexes: term(a) <= term(b) */
  bool a_entry;  /* a's entry value, else its current one */
  bool b_entry;
} cand;

struct scan_inv {
  const scan_inv_var *vars;
  int n;
  VEC(cand) c;
};

static const sx *term(const scan_inv *v, int i, bool entry, const sx *const *vals) {
  return entry ? v->vars[i].entry : vals[i];
}

static const sx *holds(const scan_inv *v, const cand *c, const sx *const *vals) {
  const sx *a = term(v, c->a, c->a_entry, vals), *b = term(v, c->b, c->b_entry, vals);
  return scan_expr_bin(v->vars[c->a].sgn ? SX_SLE : SX_ULE, a, b);
}

/* keeps the candidates that reach implies, each of vals (NULL: at entry,
   every term its entry value) */
static void filter(scan_inv *v, const sx *reach, const sx *const *vals) {
  const sx **x = scan_util_alloc(((size_t)v->n + 1) * sizeof *x);
  for (int i = 0; i < v->n; i++) x[i] = vals ? vals[i] : v->vars[i].entry;
  size_t kept = 0;
  for (size_t i = 0; i < v->c.n; i++) {
    const cand *c = &v->c.v[i];
    if (vals && ((!c->a_entry && !x[c->a]) || (!c->b_entry && !x[c->b]))) continue; /* not an integer there */
    v->c.v[kept++] = *c;
  }
  v->c.n = kept;
  if (scan_expr_is_false(reach) || !v->c.n) return;
  const sx **fs = scan_util_alloc(v->c.n * sizeof *fs);
  bool *proved = scan_util_alloc(v->c.n * sizeof *proved);
  for (size_t i = 0; i < v->c.n; i++) fs[i] = holds(v, &v->c.v[i], x); /* at entry x is the entry values */
  scan_check_implied(reach, fs, (int)v->c.n, proved);
  kept = 0;
  for (size_t i = 0; i < v->c.n; i++)
    if (proved[i]) v->c.v[kept++] = v->c.v[i];
  v->c.n = kept;
}

static void add(scan_inv *v, int a, bool ae, int b, bool be) {
  if (a == b && ae == be) return;
  cand c = {a, b, ae, be};
  VEC_PUSH(v->c, c);
}

scan_inv *scan_invariant_new(const scan_inv_var *vars, int n, const sx *entry_reach) {
  scan_inv *v = scan_util_alloc(sizeof *v);
  v->vars = vars;
  v->n = n;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      if (vars[a].x->w != vars[b].x->w || vars[a].sgn != vars[b].sgn) continue;
      if (vars[a].counter && vars[b].counter) continue; /* the counter's own facts say it */
      if (a == b) {
        add(v, a, true, a, false); /* e(a) <= x(a): it only grows */
        add(v, a, false, a, true); /* x(a) <= e(a): it only shrinks */
      } else if (vars[a].counter || vars[b].counter || vars[a].entry != vars[b].entry) {
        /* x(a) <= x(b), where e(a) <= e(b); two variables that start
           equal and neither the counter are mostly tallies of different
           things (n0++ here, n1++ there), never ordered */
        add(v, a, false, b, false);
      }
    }
  filter(v, entry_reach, NULL);
  return v;
}

int scan_invariant_count(const scan_inv *v) { return v ? (int)v->c.n : 0; }

const sx *scan_invariant_assumed(const scan_inv *v) {
  const sx **x = scan_util_alloc(((size_t)v->n + 1) * sizeof *x);
  for (int i = 0; i < v->n; i++) x[i] = v->vars[i].x;
  const sx *f = scan_expr_true();
  for (size_t i = 0; i < v->c.n; i++) f = scan_expr_and(f, holds(v, &v->c.v[i], x));
  return f;
}

bool scan_invariant_step(scan_inv *v, const sx *back, const sx *const *next) {
  size_t before = v->c.n;
  filter(v, back, next);
  return v->c.n == before;
}

/* f as an invariant fact of x where x is an opaque variable: a question
   pulls in the facts of every variable it mentions, and a fact of the
   counter that mentions an opaque value would make every question about the
   counter one that can only end as an unknown (HeCBench's asmooth lost a
   finding so). An invariant fact is asked only where the question without
   it is not proved (scan_check.c): added to every question, they made some
   that were proved run out of --rlimit (HeCBench's epistasis). */
static void attach(const sx *x, const sx *f) {
  if (x->op == SX_VAR && scan_expr_var_get((int)x->k)->kind == VK_OPAQUE) scan_expr_var_inv_fact((int)x->k, f);
}

void scan_invariant_attach(const scan_inv *v, const sx *const *vals) {
  for (size_t i = 0; i < v->c.n; i++) {
    const cand *c = &v->c.v[i];
    if ((!c->a_entry && !vals[c->a]) || (!c->b_entry && !vals[c->b])) continue;
    const sx *f = holds(v, c, vals);
    if (!c->a_entry) attach(vals[c->a], f);
    if (!c->b_entry) attach(vals[c->b], f);
  }
}
