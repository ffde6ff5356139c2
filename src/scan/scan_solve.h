/* scan_solve.h: the questions gsan-scan asks and how they are answered. A
 * query is a conjunction (the access's path condition and the facts of
 * every variable it mentions) plus a goal (the access leaves its allocation
 * or its partition; a use happens after a free). Three deciders try in turn:
 * intervals (scan_range.c), Z3 over real numbers when no operation can wrap
 * (scan_relax.c: an unsatisfiable relaxation proves the access safe), and Z3
 * over bit-vectors as wide as the C types (scan_z3.c: exact, gives the
 * witness). */
#ifndef GSAN_SCAN_SOLVE_H
#define GSAN_SCAN_SOLVE_H

#include "scan.h"

#include <z3.h>

typedef enum { G_OOB, G_PART, G_EXPR } goal_kind;

typedef struct {
  goal_kind k;
  const sx *off, *w, *size; /* bytes, 64-bit; G_OOB and G_PART */
  const sx *start;          /* G_PART: the start of the partition the pointer is in */
  const sx **after;         /* G_PART: starts of the other partitions of that array */
  int nafter;
  const sx *expr;           /* G_EXPR */
} scan_goal;

typedef struct {
  sx_vec conj;  /* all must hold */
  scan_goal goal;
  int_vec vars; /* every variable the conjuncts and the goal mention */
} scan_query;

typedef enum { Q_UNSAT, Q_SAT, Q_UNKNOWN } qres;

/* the query for goal under path condition reach: the path's conjuncts that
   share variables with the goal, and the facts of every variable reached */
void scan_check_query_build(scan_query *q, scan_goal goal, const sx *reach);

/* the three deciders. values[v] receives variable v's value (indexed by
   variable id, room for scan_expr_var_count()) when Q_SAT */
typedef struct range_ctx range_ctx;
bool scan_range_safe(range_ctx *r, const scan_query *q);
qres scan_relax_check(range_ctx *r, const scan_query *q, uint64_t rlimit);
qres scan_z3_check(const scan_query *q, uint64_t rlimit, uint64_t *values);
/* a fresh Z3 context for one question, and its end */
Z3_context scan_z3_begin(void);
void scan_z3_end(void);
/* a fresh solver (reference held) for logic, with a resource limit (and
   --timeout as a wall-clock one) */
Z3_solver scan_z3_solver(const char *logic, uint64_t rlimit);
/* the run's budget (--budget): true once too little is left for a question
   (then scan_z3_check and scan_relax_check answer Q_UNKNOWN at once); units used so far */
bool scan_z3_budget_spent(void);
uint64_t scan_z3_spent(void);
/* on: what follows is a loop invariant's test, counted against its own
   half of --budget (and the budget it sees is that one) */
void scan_z3_side(bool on);
uint64_t scan_z3_side_spent(void);
void scan_z3_release(Z3_solver s);

/* decide(q) through a cache of answers keyed by the question's structure
   (scan_cache.c); values as decide gives them */
qres scan_cache_decide(scan_query *q, uint64_t *values, qres (*decide)(scan_query *, uint64_t *));
unsigned scan_cache_hits(void);
/* scan_reset's share of each decider's tables */
void scan_cache_reset(void);
void scan_range_reset(void);
void scan_relax_reset(void);
void scan_z3_reset(void);

/* an expression's value under an assignment (semantics as the solver's) */
uint64_t scan_expr_eval(const sx *e, const uint64_t *values);

/* intervals of terms under the query's conjuncts (scan_range.c) */
typedef struct {
  __int128 lo, hi; /* the value read signed (s) or unsigned (u) */
} ival;
range_ctx *scan_range_new(const scan_query *q);
ival scan_range_s(range_ctx *r, const sx *e);
ival scan_range_u(range_ctx *r, const sx *e);

#endif
