/* The check records the instrumenter's passes hand on (ptx_instrument.c
 * collects them, ptx_elim.c and ptx_family.c merge them, ptx_hoist.c and
 * ptx_proof.c take some out of the function's path, ptx_emit.c writes
 * them): one per access or group of accesses checked together. */
#ifndef GSAN_PTX_CHECK_H
#define GSAN_PTX_CHECK_H

#include "ptx_ir.h"

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

/* Stride chains (ptx_elim.c, checked by ptx_emit.c): links followed back
 * from a member, which bounds its number of steps, and the bits of the
 * largest step tested: the span between the two ends stays far from
 * wrapping (64-bit: 64 * 2^40; 32-bit: 64 * 2^24 < 2^31, against a shared
 * or local window smaller than 2^31). */
enum { PTX_CHAIN_LINKS = 64, PTX_CHAIN_STEP_BITS_64 = 40, PTX_CHAIN_STEP_BITS_32 = 24 };

#endif
