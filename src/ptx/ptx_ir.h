/* What the passes know about a function: decoded instructions, registers,
 * CFG, dominators, reaching definitions, root pointers, and the checks the
 * instrumenter will insert. */
#ifndef GSAN_PTX_IR_H
#define GSAN_PTX_IR_H

#include "ptx.h"

/* ---- instruction decoding (ptx_insn.c) ---- */
typedef struct ptx_access {
  int kind;        /* enum gsan_access_kind */
  int space;       /* enum gsan_space */
  int width;       /* bytes; 0 = given by operand width_opnd */
  int addr_opnd;   /* operand holding [address] */
  int width_opnd;  /* operand holding the byte count, -1 if constant */
  int dst_opnd;    /* loaded registers (recover mode zeroes them), -1 if none */
} ptx_access;

enum { INSN_NO_ACCESS = 0, INSN_UNSUPPORTED = -1 };
/* Decodes the memory accesses of one instruction into out[0..1]; returns their
 * count, 0 for none, INSN_UNSUPPORTED when it touches memory in a way gsan
 * cannot check (why is set to a short reason). */
int ptx_insn_accesses(const ptx_stmt *s, ptx_access out[2], const char **why);
/* opcode base ("ld" of "ld.global.f32") compare, and qualifier lookup */
int ptx_op_is(const ptx_stmt *s, const char *base);
int ptx_op_has(const ptx_stmt *s, const char *qual);
/* "global", "shared", ... for enum gsan_space */
const char *ptx_space_name(int space);
/* 1 if operand 0 of this instruction is written */
int ptx_insn_writes_first(const ptx_stmt *s);

/* ---- registers ---- */
typedef struct ptx_regs {
  ptx_arena *a;
  int n, cap;
  const char **name;
  uint8_t *bits;       /* 1 (pred), 16, 32, 64, 128 */
  int *hash;           /* open addressing, -1 empty */
  int hcap;
} ptx_regs;

int ptx_reg_lookup(const ptx_regs *r, const char *s, size_t len); /* -1 if unknown */

/* ---- the analysed function (ptx_cfg.c, ptx_dataflow.c) ---- */
typedef struct ptx_block {
  int first, last;      /* statement indices, inclusive */
  int *succ, nsucc;
  int *pred, npred;
  int rpo;              /* reverse postorder number, -1 unreachable */
  int idom;             /* immediate dominator block, -1 for entry/unreachable */
  int depth;            /* dominator tree depth */
  int dom_in, dom_out;  /* entry and exit times of a walk of the dominator tree: a dominates b
                         * when b's interval lies inside a's */
} ptx_block;

typedef struct ptx_def { int stmt, reg; } ptx_def;

typedef struct ptx_fn {
  ptx_module *m;
  ptx_func *f;
  ptx_arena *a;
  int nst;
  ptx_stmt **st;
  int *blk;             /* statement -> block */
  int nblk;
  ptx_block *b;
  int *order;           /* blocks in reverse postorder */
  int norder;
  ptx_regs regs;
  ptx_vec syms;         /* function-scope ptx_symbol* (depots, locals) */
  /* definitions */
  int ndef;
  ptx_def *def;
  int *stmt_def0;       /* first def index of each statement (ndef if none) */
  int *reg_ndefs;       /* defs per register */
  int **reg_defs;       /* def indices per register */
  /* reaching definitions for registers with several defs: bitsets per block */
  int nmulti;           /* number of defs of multi-def registers */
  int *multi_idx;       /* def -> bit index or -1 */
  uint64_t *rd_in;      /* nblk x words */
  int words;
  int ok;               /* 0 if the CFG could not be built (analysis-free fallback) */
  const char *why;
} ptx_fn;

/* Builds registers, definitions, CFG, dominators and reaching definitions;
 * fn->ok is 0 (with fn->why) when the CFG cannot be built. */
int ptx_fn_build(ptx_fn *fn, ptx_module *m, ptx_func *f);
/* ptx_dataflow.c: reaching definitions for multi-definition registers */
int ptx_fn_reaching_init(ptx_fn *fn);
void ptx_fn_free(ptx_fn *fn);
int ptx_dominates(const ptx_fn *fn, int blk_a, int blk_b);
int ptx_stmt_dominates(const ptx_fn *fn, int sa, int sb);
/* The definitions of reg that reach statement s (before it executes).
 * Returns count; writes up to max def indices. */
int ptx_reaching(const ptx_fn *fn, int s, int reg, int *out, int max);
/* per register, 1 where a call returns into it: calls are no definitions
 * to the dataflow above, so such a register's reaching definitions are
 * not all its values (malloc'd, fn->regs.n entries) */
uint8_t *ptx_call_writes(const ptx_fn *fn);
/* the statement of the block before statement `before` that last writes
 * reg, -1 if none */
int ptx_last_write(const ptx_fn *fn, int reg, int before);
/* register id of a register token, -1 otherwise */
int ptx_tok_reg(const ptx_fn *fn, const ptx_tok *t);
/* the variable an identifier token names: the function's own, else the
 * module's; NULL otherwise */
ptx_symbol *ptx_tok_symbol(const ptx_fn *fn, const ptx_tok *t);

/* ---- root pointers (ptx_roots.c) ---- */
enum ptx_root_kind {
  ROOT_NONE = 0,     /* no single root: look the address itself up */
  ROOT_SYMBOL,       /* a variable with a static or dynamic-shared size */
  ROOT_ARENA,        /* a pointer value (parameter, loaded, call result): arena lookup */
  ROOT_FRAME         /* use-after-scope check: the running function's frame (ptx_scope.c) */
};

typedef struct ptx_root {
  int kind;
  int def;             /* ROOT_ARENA: definition index whose value is the root */
  ptx_symbol *sym;     /* ROOT_SYMBOL */
} ptx_root;

typedef struct ptx_rootwalk ptx_rootwalk;
/* frame_arrays: an address the function forms as its local depot plus a
 * constant gets that array's own bounds (ptx_symbol.frame_of) */
ptx_rootwalk *ptx_roots_new(ptx_fn *fn, int frame_arrays);
void ptx_roots_free(ptx_rootwalk *w);
/* The root of the value register reg holds when statement s executes. */
ptx_root ptx_find_root(ptx_rootwalk *w, int s, int reg);

/* ---- loops and induction variables (ptx_loops.c) ---- */
/* A value inside a loop as an expression over loop-invariant registers and
 * the loop's induction variables, affine in the iteration number k: a
 * product never has the iteration in both factors. 64-bit arithmetic; a
 * 32-bit register appears only under PX_EXT. */
enum ptx_xop { PX_IMM, PX_INV, PX_IV, PX_EXT, PX_ADD, PX_SUB, PX_MUL, PX_SHL };
typedef struct ptx_expr {
  int op;
  int reg;          /* PX_INV: the register; PX_IV: index in ptx_loop.ivs */
  int post;         /* PX_IV: the value after this iteration's step */
  int sext;         /* PX_EXT: sign (1) or zero (0) extension */
  int64_t imm;      /* PX_IMM: the value; PX_SHL: the shift */
  int has_iv;
  struct ptx_expr *a, *b;
  const char *txt;  /* the emitter's operand for an iteration-free value */
} ptx_expr;

/* a register that steps by a loop-invariant amount once per iteration */
typedef struct ptx_iv {
  int reg, bits;    /* bits 32: the step is an immediate (step->op == PX_IMM) */
  ptx_expr *step;   /* iteration-free */
} ptx_iv;

/* The latch's test, normalised: the loop goes round again while
 * V cmp N, where V is induction variable iv (after its step if post), plus
 * or minus c, and N is an immediate or a loop-invariant register. */
enum ptx_cmp { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NE, CMP_EQ };
typedef struct ptx_trip {
  int iv;           /* index in ivs; -1: no trip count */
  int post;
  int cmp, is_signed, bits;
  const ptx_tok *n;
  int at;           /* the statement where V is formed */
  const ptx_tok *c; /* V = iv + c (- c if c_neg), an invariant register or literal; NULL: V = iv */
  int c_neg;
} ptx_trip;

typedef struct ptx_loop {
  int header, latch;     /* blocks */
  int first, last;       /* the loop is exactly statements first..last (the header may sit inside) */
  int pre_at, pre_dom;   /* the pre-check goes before statement pre_at; what it reads must dominate pre_dom */
  int cta_uniform;       /* barriers inside: all threads of the CTA take the same copy */
  uint8_t *in;           /* per block: inside the loop */
  uint8_t *no_range;     /* per statement first..last: bit `holds` set once ptx_guard.c found that setp says no range */
  int nivs;
  ptx_iv *ivs;
  ptx_trip trip;
} ptx_loop;

/* The innermost loops whose statements can be copied (one latch, an entry
 * edge that can carry the pre-check, contiguous, no calls, no declarations
 * or scopes inside; barriers only as __syncthreads() before any exit, which
 * makes the choice of copy the CTA's). Returns their count. */
int ptx_loops_find(ptx_fn *fn, ptx_loop **out);
/* The value of register reg when statement s (inside l) executes, or NULL. */
ptx_expr *ptx_loop_value(ptx_fn *fn, const ptx_loop *l, int s, int reg);
/* A 32-bit e widened to 64 bits: by zero (an address in the shared or
 * local window) or by sign (sext). */
ptx_expr *ptx_loop_widen(ptx_fn *fn, const ptx_loop *l, ptx_expr *e, int sext);
/* How much e grows from one iteration to the next (iteration-free), or NULL. */
ptx_expr *ptx_loop_slope(ptx_fn *fn, const ptx_loop *l, ptx_expr *e);
void ptx_loop_dump(FILE *f, const ptx_fn *fn, const ptx_loop *l);
/* shared with ptx_guard.c: operand k of s as its one token (NULL when it
 * is more) or as an integer literal (also a negative one); the comparison
 * of a setp (sgn: 1 signed, 0 unsigned); a comparison with its operands
 * swapped (a < b is b > a), and its negation */
const ptx_tok *ptx_opnd_tok(const ptx_stmt *s, int k);
int ptx_opnd_int(const ptx_stmt *s, int k, int64_t *v);
int ptx_setp_cmp(const ptx_stmt *s, int *cmp, int *sgn);
int ptx_cmp_mirror(int cmp);
int ptx_cmp_negate(int cmp);
/* definitions of reg inside l: their count, the last one in *d */
int ptx_loop_defs_inside(const ptx_fn *fn, const ptx_loop *l, int reg, int *d);

/* ---- guards of accesses inside loops (ptx_guard.c) ---- */
/* A bound of a guard's range: the register reg, sign-extended (NULL: 0), plus imm. */
typedef struct ptx_bound {
  const ptx_tok *reg;
  int64_t imm;
} ptx_bound;

/* The tests that every execution of a statement inside a loop has passed
 * in the same iteration, as lo <= V <= hi on one 32-bit value V taken as
 * signed and affine in the iteration number (an `if (0 <= y && y < B)`
 * around the access, or the access's own predicate); several tests of V
 * (nvcc's `or.pred` of two setps) narrow the range together. */
#define PTX_GUARD_TESTS 8
typedef struct ptx_guard {
  int ntests;
  int test[PTX_GUARD_TESTS]; /* the setps that bound V (name the guard) */
  ptx_expr *v;           /* V, sign-extended to 64 bits */
  int64_t slope;         /* V's growth per iteration: a literal, never 0 */
  int nlo, nhi;
  ptx_bound lo[PTX_GUARD_TESTS], hi[PTX_GUARD_TESTS]; /* V is at least each lo and at most each hi */
  int nnonneg;           /* unsigned tests against registers: the range holds if they are not negative */
  const ptx_tok *nonneg[PTX_GUARD_TESTS];
} ptx_guard;

/* The guard of statement s (inside l): the access's own predicate
 * (pred_reg >= 0, pred_neg), then the conditional branches into the blocks
 * that dominate s up to the header; the first test found with a usable
 * range picks V, later tests of the same V narrow it. 0: none. */
int ptx_loop_guard(ptx_fn *fn, const ptx_loop *l, int s, int pred_reg, int pred_neg, ptx_guard *g);
/* --analyze: the guard of statement s, one line */
void ptx_guard_dump(FILE *f, const ptx_fn *fn, int s, const ptx_guard *g);

/* ---- gsan ptx --analyze (ptx_dump.c) ---- */
void ptx_dump_analysis(FILE *f, ptx_module *m);

#endif
