/* The instrumenter's interface: options, statistics, and the check records
 * shared by the passes (instrument -> eliminate -> emit). */
#ifndef GSAN_PTX_INSTR_H
#define GSAN_PTX_INSTR_H

#include "ptx_ir.h"

#include <gsan/abi.h>

/* ptx_opts.spaces with every state space checked (the default) */
#define PTX_SPACES_ALL                                                                                           \
  ((1u << GSAN_SPACE_GLOBAL) | (1u << GSAN_SPACE_SHARED) | (1u << GSAN_SPACE_LOCAL) | (1u << GSAN_SPACE_GENERIC) | \
   (1u << GSAN_SPACE_CONST))

typedef struct ptx_opts {
  unsigned spaces;      /* bit (1 << enum gsan_space) set = checked */
  int recover;          /* failed checks skip the access instead of trapping */
  int no_elim;          /* keep every check (for measurements) */
  int no_launch_bounds; /* write no launch-bounds copies of kernels (docs/abi.md) */
  int no_launch_proofs; /* write no proven copies of kernels (docs/abi.md "Launch proofs") */
  uint64_t module_id;   /* 0 = hash of the input */
} ptx_opts;

typedef struct ptx_stats {
  long seen[6];         /* accesses per enum gsan_space */
  long checked[6];      /* accesses covered by a check, per space */
  long checks;          /* checks emitted */
  long removed_dominated;
  long removed_merged;
  long removed_chained; /* merged along a stride chain (address registers one step apart) */
  long removed_family;  /* merged into a clamped family's check (ptx_family.c) */
  long static_safe;     /* [symbol+imm] proven in bounds at compile time */
  long static_oob;      /* [symbol+imm] proven out of bounds: always fails */
  long unchecked_noroot;      /* shared/local access whose root is unknown */
  long unchecked_unsupported; /* instruction gsan cannot check */
  long unchecked_extern;      /* extern variable of unknown size */
  long not_requested;   /* in a space excluded by the options */
  long lookups_root;    /* arena lookups placed at a root's definition */
  long lookups_access;  /* arena lookups placed at the access */
  long hoisted_uses;    /* checks served by a lookup at the root */
  long loops_versioned; /* loops with a copy that runs without their hoisted checks */
  long checks_hoisted;  /* checks made once before such a loop instead of every iteration */
  long checks_guarded;  /* of them, checked over the iterations their guard lets through */
  long funcs;
  long funcs_fallback;  /* CFG not analysable: per-access lookups */
  long sites;
  long scope_funcs;     /* functions whose locals escape as generic pointers */
  long scope_checks;    /* use-after-scope checks (ptx_scope.c) */
  long launch_copies;   /* kernels with a launch-bounds copy (ptx_launch.c) */
  long proven_copies;   /* kernels with a proven copy (ptx_proof.c) */
  long proven_checks;   /* checks left out of the proven copies: facts the runtime tests at launch */
} ptx_stats;

/* A member's address in a clamped family (ptx_family.c): an expression
 * over registers that hold one value from the family's check to the
 * member; value = op(a, b) + add, in bits-wide arithmetic. */
enum ptx_fxop { FX_REG, FX_IMM, FX_ADD, FX_SUB, FX_MIN, FX_MAX, FX_CVT, FX_MULW, FX_MUL, FX_SHL };
typedef struct ptx_fx {
  int op, bits, sgn;    /* sgn: signed min/max/cvt/mul.wide */
  int reg;              /* FX_REG */
  int64_t imm;          /* FX_IMM: the value; FX_SHL: the shift */
  int64_t add;
  struct ptx_fx *a, *b;
  int gen;              /* emission memo: txt and core hold for generation gen */
  const char *txt, *core; /* the value, and op(a, b) without add */
} ptx_fx;

/* A clamped family's check: the members at the corners of the box their
 * varying constants span, and the 32-bit additions of a varying constant
 * that must not wrap (x + lo .. x + hi, signed, x = the node's op(a, b)). */
enum { PTX_FAMILY_DIMS = 3, PTX_FAMILY_MEMBERS = 64 };
typedef struct ptx_family {
  int ncorner, corner[1 << PTX_FAMILY_DIMS]; /* member indices */
  int ntest;
  struct { ptx_fx *x; int64_t lo, hi; } test[PTX_FAMILY_DIMS];
} ptx_family;

typedef struct ptx_member {
  int site;
  int64_t n;            /* address = reg + n * step_reg + imm (n = 0 without a step) */
  int64_t imm;
  int width;            /* bytes, 0 = dynamic */
  const ptx_tok *wtok;  /* dynamic width operand */
  ptx_fx *x;            /* a clamped family's member: its address register's value */
} ptx_member;

typedef struct ptx_check {
  int stmt;             /* emitted before this statement */
  int addr_reg;         /* -1: the address is a symbol (addr_sym) */
  ptx_symbol *addr_sym;
  int bits;             /* 32 or 64: width of the address arithmetic */
  int space;            /* enum gsan_space of the access */
  ptx_root root;
  int root_slot;        /* ROOT_ARENA: index of the function's root lookup */
  int pred_reg, pred_neg;
  const ptx_tok *pred_tok;
  int64_t lo, hi;       /* checked range relative to the address register */
  int step_reg;         /* -1; a stride chain (ptx_elim.c): the register its members step by */
  int64_t nlo, nhi;     /* ... and the fewest and most steps a member is from addr_reg */
  ptx_family *fam;      /* a clamped family (ptx_family.c); members' addresses are mem[k].x + imm */
  int removed;          /* covered by another check */
  int hoisted;          /* checked before its loop: left out of the loop's fast copy */
  struct ptx_expr *hx;  /* hoisted: the address register's value in the loop (NULL: invariant) */
  struct ptx_expr *hslope; /* and how much it grows per iteration */
  ptx_guard *hguard;    /* hoisted under a guard: only the iterations it lets through are checked (NULL: all) */
  int always_fail;      /* statically out of bounds */
  ptx_access acc;       /* of the first member (recover mode) */
  int nmem;
  ptx_member *mem;
} ptx_check;

int ptx_instrument(ptx_module *m, const ptx_opts *o, ptx_stats *st, ptx_diag *d);
void ptx_stats_print(FILE *f, const ptx_stats *st);

/* Stride chains (ptx_elim.c, checked by ptx_emit.c): links followed back
 * from a member, which bounds its number of steps, and the bits of the
 * largest step tested: the span between the two ends stays far from
 * wrapping (64-bit: 64 * 2^40; 32-bit: 64 * 2^24 < 2^31, against a shared
 * or local window smaller than 2^31). */
enum { PTX_CHAIN_LINKS = 64, PTX_CHAIN_STEP_BITS_64 = 40, PTX_CHAIN_STEP_BITS_32 = 24 };

/* ptx_elim.c: drop and merge checks in place; then, once the loops'
 * pre-checks are planned, merge the remaining checks along stride chains */
void ptx_eliminate(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);
void ptx_merge_chains(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);
/* ... and last, clamped families: checks of one block whose addresses are
 * one expression with different constants added inside (ptx_family.c) */
void ptx_merge_families(ptx_fn *fn, ptx_check *c, int n, ptx_stats *st);

/* ptx_family.c: the address register reg holds at statement use, as an
 * expression over registers that hold the same value at statement at (one
 * block); NULL if there is none. memo: one entry per statement of the
 * block, zeroed, kept for calls with the same at. */
ptx_fx *ptx_family_expr(ptx_fn *fn, ptx_fx **memo, int reg, int use, int at);
int ptx_family_same_shape(const ptx_fx *a, const ptx_fx *b);
/* The corners and no-wrap tests that bound the n member addresses x
 * between them, or NULL when that cannot be shown. */
ptx_family *ptx_family_plan(ptx_arena *a, ptx_fx **x, int n);

/* ptx_sites.c: the module's site table */
typedef struct ptx_sites ptx_sites;
ptx_sites *ptx_sites_new(void);
void ptx_sites_free(ptx_sites *s);
typedef struct ptx_site_desc {
  const char *func, *file;  /* file may be NULL */
  int line, col, ptx_line;
  const char *call_file;    /* inlined code: where it was inlined (NULL if not inlined) */
  int call_line;
  int kind, space, width;   /* enum gsan_access_kind, enum gsan_space, bytes */
  const ptx_symbol *root;   /* the variable that bounds the check, NULL for the arena */
  int scope;                /* a use-after-scope check (GSAN_ROOT_SCOPE) */
} ptx_site_desc;
int ptx_sites_add(ptx_sites *s, const ptx_site_desc *d);
int ptx_sites_count(const ptx_sites *s);
/* appends the .global blob holding the table to the module's text */
char *ptx_sites_decl(ptx_arena *a, const ptx_sites *s, uint64_t module_id);

/* ptx_support.c: the module-level declarations instrumented code calls */
const char *ptx_support_text(void);

#endif
