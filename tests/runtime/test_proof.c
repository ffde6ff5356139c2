/* Tests of the launch-proof evaluator (src/runtime/rt_proof.c). Blobs are
 * built node by node here, serialised the way the instrumenter writes them,
 * parsed and evaluated against a fake launch whose parameters and
 * allocations live in this file. Every launch a fact must fail for has a
 * near twin that it must hold for, so that no check passes by the evaluator
 * saying no to everything. The last parts flip the bytes of a valid blob,
 * and generate random blobs whose proofs are checked, thread by thread,
 * against the machine's arithmetic: a fact the evaluator says holds must
 * hold in every thread of the launch that passes its guards. */
#include "../../src/runtime/rt_proof.h"

#include <gsan/abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

__extension__ typedef __int128 i128;

/* ---- building blobs ---- */

#define MAXN 256
#define MAXC 32
#define MAXF 32

typedef struct bl {
  gsan_fact_node node[MAXN];
  gsan_fact_cond cond[MAXC];
  gsan_fact fact[MAXF];
  unsigned nn, nc, nf, nparams;
  uint32_t magic, version;
  unsigned char buf[sizeof(gsan_facts_header) + sizeof(gsan_fact_node) * MAXN + sizeof(gsan_fact_cond) * MAXC +
                    sizeof(gsan_fact) * MAXF];
  size_t len;
} bl;

static void bl_init(bl *b, unsigned nparams) {
  memset(b, 0, sizeof *b);
  b->nparams = nparams;
  b->magic = GSAN_FACTS_MAGIC;
  b->version = GSAN_ABI_VERSION;
}

static unsigned node(bl *b, int op, unsigned bits, unsigned sgn, unsigned a, unsigned c, int64_t imm) {
  if (b->nn >= MAXN) {
    fprintf(stderr, "test_proof: too many nodes\n");
    exit(2);
  }
  gsan_fact_node *x = &b->node[b->nn];
  memset(x, 0, sizeof *x);
  x->op = (uint8_t)op;
  x->bits = (uint8_t)bits;
  x->sgn = (uint8_t)sgn;
  x->a = (uint16_t)a;
  x->b = (uint16_t)c;
  x->imm = imm;
  return b->nn++;
}

static unsigned imm(bl *b, unsigned bits, int64_t v) { return node(b, GSAN_FN_IMM, bits, 0, 0, 0, v); }
/* bits/8 bytes at byte off of parameter index */
static unsigned par(bl *b, unsigned bits, unsigned sgn, unsigned index, int64_t off) {
  return node(b, GSAN_FN_PARAM, bits, sgn, index, 0, off);
}
static unsigned srw(bl *b, unsigned bits, int code) { return node(b, GSAN_FN_SREG, bits, 0, 0, 0, code); }
static unsigned sr(bl *b, int code) { return srw(b, 32, code); }
static unsigned sym(bl *b, unsigned bits, unsigned id) { return node(b, GSAN_FN_SYM, bits, 0, 0, 0, id); }
static unsigned add(bl *b, unsigned bits, unsigned x, unsigned y) { return node(b, GSAN_FN_ADD, bits, 0, x, y, 0); }
static unsigned sub(bl *b, unsigned bits, unsigned x, unsigned y) { return node(b, GSAN_FN_SUB, bits, 0, x, y, 0); }
static unsigned mul(bl *b, unsigned bits, unsigned x, unsigned y) { return node(b, GSAN_FN_MUL, bits, 0, x, y, 0); }
static unsigned mulw(bl *b, unsigned bits, unsigned sgn, unsigned x, unsigned y) {
  return node(b, GSAN_FN_MULWIDE, bits, sgn, x, y, 0);
}
static unsigned shl(bl *b, unsigned bits, unsigned x, int64_t k) { return node(b, GSAN_FN_SHL, bits, 0, x, 0, k); }
static unsigned shr(bl *b, unsigned bits, unsigned sgn, unsigned x, int64_t k) {
  return node(b, GSAN_FN_SHR, bits, sgn, x, 0, k);
}
static unsigned divi(bl *b, unsigned bits, unsigned sgn, unsigned x, int64_t d) {
  return node(b, GSAN_FN_DIV, bits, sgn, x, 0, d);
}
static unsigned remi(bl *b, unsigned bits, unsigned sgn, unsigned x, int64_t d) {
  return node(b, GSAN_FN_REM, bits, sgn, x, 0, d);
}
static unsigned andi(bl *b, unsigned bits, unsigned x, int64_t m) { return node(b, GSAN_FN_AND, bits, 0, x, 0, m); }
static unsigned ori(bl *b, unsigned bits, unsigned x, int64_t m) { return node(b, GSAN_FN_OR, bits, 0, x, 0, m); }
static unsigned mn(bl *b, unsigned bits, unsigned sgn, unsigned x, unsigned y) {
  return node(b, GSAN_FN_MIN, bits, sgn, x, y, 0);
}
static unsigned mx(bl *b, unsigned bits, unsigned sgn, unsigned x, unsigned y) {
  return node(b, GSAN_FN_MAX, bits, sgn, x, y, 0);
}
static unsigned cvt(bl *b, unsigned bits, unsigned sgn, unsigned x) { return node(b, GSAN_FN_CVT, bits, sgn, x, 0, 0); }

static unsigned cond(bl *b, unsigned x, int cmp, unsigned y, unsigned bits, unsigned sgn) {
  if (b->nc >= MAXC) {
    fprintf(stderr, "test_proof: too many conditions\n");
    exit(2);
  }
  gsan_fact_cond *c = &b->cond[b->nc];
  memset(c, 0, sizeof *c);
  c->a = (uint16_t)x;
  c->b = (uint16_t)y;
  c->cmp = (uint8_t)cmp;
  c->sgn = (uint8_t)sgn;
  c->bits = (uint8_t)bits;
  return b->nc++;
}

static unsigned fact(bl *b, unsigned addr, int root, unsigned word, int32_t lo, int32_t hi, uint64_t size,
                     unsigned cond0, unsigned nconds) {
  if (b->nf >= MAXF) {
    fprintf(stderr, "test_proof: too many facts\n");
    exit(2);
  }
  gsan_fact *x = &b->fact[b->nf];
  memset(x, 0, sizeof *x);
  x->addr = (uint16_t)addr;
  x->root = (uint8_t)root;
  x->nconds = (uint8_t)nconds;
  x->cond0 = (uint16_t)cond0;
  x->word = (uint16_t)word;
  x->lo = lo;
  x->hi = hi;
  x->size = size;
  return b->nf++;
}

static void ser(bl *b) {
  gsan_facts_header h = {b->magic, b->version, (uint16_t)b->nn, (uint16_t)b->nc, (uint16_t)b->nf,
                         (uint16_t)b->nparams};
  unsigned char *p = b->buf;
  memcpy(p, &h, sizeof h);
  p += sizeof h;
  memcpy(p, b->node, b->nn * sizeof *b->node);
  p += b->nn * sizeof *b->node;
  memcpy(p, b->cond, b->nc * sizeof *b->cond);
  p += b->nc * sizeof *b->cond;
  memcpy(p, b->fact, b->nf * sizeof *b->fact);
  p += b->nf * sizeof *b->fact;
  b->len = (size_t)(p - b->buf);
}

/* ---- the fake launch ---- */

#define ARENA_LO 0x700000000000ull /* pointers here have an allocation, or none */
#define ARENA_HI 0x710000000000ull
#define A0 (ARENA_LO + 0x100000ull)
#define A1 (ARENA_LO + 0x200000ull)
#define NPAR 16

typedef struct alloc {
  uint64_t base, size;
  int live;
} alloc;

typedef struct fake {
  unsigned char pbuf[8 * NPAR]; /* parameter i at byte 8 i: word i */
  unsigned psize[NPAR], np;
  alloc al[8];
  unsigned na;
  int any; /* every pointer has the bounds of al[0] (the random part) */
} fake;

static int f_param(void *ctx, unsigned index, uint64_t off, unsigned bytes, uint64_t *out) {
  fake *f = ctx;
  if (index >= f->np || bytes > 8 || off > f->psize[index] || off + bytes > f->psize[index]) return 0;
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; i++) v |= (uint64_t)f->pbuf[8 * index + off + i] << (8 * i);
  *out = v;
  return 1;
}

static int f_word(void *ctx, unsigned w, uint64_t *out) {
  fake *f = ctx;
  if (w >= f->np) return 0;
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; i++) v |= (uint64_t)f->pbuf[8 * w + i] << (8 * i);
  *out = v;
  return 1;
}

static int f_bounds(void *ctx, uint64_t p, uint64_t *base, uint64_t *size) {
  fake *f = ctx;
  if (f->any) {
    *base = f->al[0].base;
    *size = f->al[0].size;
    return 1;
  }
  for (unsigned i = 0; i < f->na; i++) {
    const alloc *a = &f->al[i];
    if (p >= a->base && (p - a->base < a->size || p == a->base)) {
      if (!a->live) return 0;
      *base = a->base;
      *size = a->size;
      return 1;
    }
  }
  if (p >= ARENA_LO && p < ARENA_HI) return 0; /* never allocated */
  *base = 0;
  *size = GSAN_UNCHECKED_SIZE;
  return 1;
}

static void fake_init(fake *f) { memset(f, 0, sizeof *f); }

/* parameter i: size bytes of v, little endian */
static void setp(fake *f, unsigned i, unsigned size, uint64_t v) {
  for (unsigned k = 0; k < 8; k++) f->pbuf[8 * i + k] = k < size ? (unsigned char)(v >> (8 * k)) : 0;
  f->psize[i] = size;
  if (i >= f->np) f->np = i + 1;
}

static void alloc_at(fake *f, uint64_t base, uint64_t size) {
  f->al[f->na].base = base;
  f->al[f->na].size = size;
  f->al[f->na].live = 1;
  f->na++;
}

static rt_proof_launch launch3(fake *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz) {
  rt_proof_launch l = {{gx, gy, gz}, {bx, by, bz}, 0, f, f_param, f_word, f_bounds};
  return l;
}
static rt_proof_launch launch(fake *f, unsigned gx, unsigned gy, unsigned bx, unsigned by) {
  return launch3(f, gx, gy, 1, bx, by, 1);
}

/* 1 or 0 from rt_facts_hold; -1 when the blob does not parse */
static int run(bl *b, const rt_proof_launch *l) {
  const char *why = "unset";
  ser(b);
  rt_facts *f = rt_facts_parse(b->buf, b->len, b->nparams, &why);
  if (!f) {
    fprintf(stderr, "test_proof: parse: %s\n", why ? why : "(no reason)");
    return -1;
  }
  int r = rt_facts_hold(f, l);
  rt_facts_free(f);
  return r;
}

/* a fact that must hold and its twin that must not */
#define HOLDS(expr, ...) CHECK((expr) == 1, __VA_ARGS__)
#define FAILS(expr, ...) CHECK((expr) == 0, __VA_ARGS__)

/* ---- a one-dimensional kernel: p[f(x)], x = ctaid.x * ntid.x + tid.x ---- */

static unsigned gx_tid(bl *b, unsigned *tid) {
  unsigned c = sr(b, GSAN_SR_CTAID_X), n = sr(b, GSAN_SR_NTID_X), t = sr(b, GSAN_SR_TID_X);
  if (tid) *tid = t;
  return add(b, 32, mul(b, 32, c, n), t);
}
static unsigned gx_index(bl *b) { return gx_tid(b, NULL); }
static unsigned gy_index(bl *b) {
  unsigned c = sr(b, GSAN_SR_CTAID_Y), n = sr(b, GSAN_SR_NTID_Y), t = sr(b, GSAN_SR_TID_Y);
  return add(b, 32, mul(b, 32, c, n), t);
}
/* p + 4 * sext(i): the float at 32-bit index i of pointer node p */
static unsigned elem(bl *b, unsigned p, unsigned i) { return add(b, 64, p, shl(b, 64, cvt(b, 64, 1, i), 2)); }

/* ---- jacobi: out[y * nx + x] ---- */

enum { J_GUARD_X = 1, J_GUARD_Y = 2, J_GUARD = 3, J_WIDE = 4, J_MIRROR = 8, J_UNSIGNED = 16, J_BADMIRROR = 32 };

/* params: out (word 0), int nx, int ny */
static void jacobi(bl *b, int how) {
  bl_init(b, 3);
  unsigned out = par(b, 64, 0, 0, 0), nx = par(b, 32, 1, 1, 0), ny = par(b, 32, 1, 2, 0);
  unsigned x = gx_index(b), y = gy_index(b);
  unsigned idx = add(b, 32, mul(b, 32, y, nx), x);
  unsigned off = how & J_WIDE ? mulw(b, 64, 1, idx, imm(b, 32, 4)) : shl(b, 64, cvt(b, 64, 1, idx), 2);
  unsigned addr = add(b, 64, out, off);
  unsigned c0 = b->nc, sg = how & J_UNSIGNED ? 0 : 1;
  if (how & J_GUARD_X) {
    if (how & J_MIRROR) cond(b, nx, GSAN_FC_GT, x, 32, sg);         /* nx > x */
    else if (how & J_BADMIRROR) cond(b, nx, GSAN_FC_LT, x, 32, sg); /* nx < x: the wrong way round */
    else cond(b, x, GSAN_FC_LT, nx, 32, sg);
  }
  if (how & J_GUARD_Y) cond(b, y, GSAN_FC_LT, ny, 32, sg);
  fact(b, addr, GSAN_FR_WORD, 0, 0, 4, 0, c0, b->nc - c0);
}

static void jacobi_fake(fake *f, int nx, int ny, uint64_t bytes) {
  fake_init(f);
  setp(f, 0, 8, A0);
  setp(f, 1, 4, (uint32_t)nx);
  setp(f, 2, 4, (uint32_t)ny);
  alloc_at(f, A0, bytes);
}

static void test_jacobi(void) {
  bl b;
  fake f;
  rt_proof_launch l = launch(&f, 7, 6, 16, 16); /* 112 x 96 threads over 100 x 90 */
  for (int wide = 0; wide <= J_WIDE; wide += J_WIDE) {
    const char *how = wide ? "mul.wide.s32 by 4" : "cvt.s64.s32 and shl 2";
    jacobi_fake(&f, 100, 90, 100 * 90 * 4);
    jacobi(&b, J_GUARD | wide);
    HOLDS(run(&b, &l), "jacobi (%s): out[y*nx+x] under x < nx && y < ny", how);
    jacobi(&b, wide);
    FAILS(run(&b, &l), "jacobi (%s): without the guards the grid overshoots nx and ny", how);
    jacobi_fake(&f, 112, 96, 112 * 96 * 4);
    HOLDS(run(&b, &l), "jacobi (%s): without the guards, a grid that covers nx x ny exactly", how);
    jacobi_fake(&f, 100, 90, 100 * 90 * 4 - 4);
    jacobi(&b, J_GUARD | wide);
    FAILS(run(&b, &l), "jacobi (%s): the allocation one float too small", how);
    jacobi_fake(&f, 100, 90, 100 * 90 * 4);
    jacobi(&b, J_GUARD_X | wide);
    FAILS(run(&b, &l), "jacobi (%s): x guarded, y not: y overshoots", how);
    jacobi(&b, J_GUARD_Y | wide);
    FAILS(run(&b, &l), "jacobi (%s): y guarded, x not: x overshoots", how);
  }
  jacobi_fake(&f, 100, 90, 100 * 90 * 4);
  jacobi(&b, J_GUARD | J_MIRROR);
  HOLDS(run(&b, &l), "jacobi: the guard written nx > x narrows x (the mirrored comparison)");
  jacobi(&b, J_GUARD | J_BADMIRROR);
  FAILS(run(&b, &l), "jacobi: nx < x does not bound x from above");
  jacobi(&b, J_GUARD | J_UNSIGNED);
  HOLDS(run(&b, &l), "jacobi: the guards compared unsigned (x and y are not negative)");
  /* the same guards, nx and ny negative: no thread passes x < nx */
  jacobi_fake(&f, -5, 90, 16);
  jacobi(&b, J_GUARD);
  HOLDS(run(&b, &l), "jacobi: signed x < nx with nx = -5 lets no thread through");
  jacobi(&b, J_GUARD | J_UNSIGNED);
  FAILS(run(&b, &l), "jacobi: unsigned x < nx with nx = -5 (0xfffffffb) lets every thread through");
}

/* the five-point stencil's reads: in[idx -+ 1] through the access's
 * immediate offset, in[idx -+ nx] through a 32-bit add, under
 * 0 < x < nx - 1, 0 < y < ny - 1 but guard `drop` (0..3; -1: none) */
static void stencil(bl *b, int drop) {
  bl_init(b, 3);
  unsigned in = par(b, 64, 0, 0, 0), nx = par(b, 32, 1, 1, 0), ny = par(b, 32, 1, 2, 0);
  unsigned x = gx_index(b), y = gy_index(b), one = imm(b, 32, 1), zero = imm(b, 32, 0);
  unsigned idx = add(b, 32, mul(b, 32, y, nx), x);
  unsigned north = sub(b, 32, idx, nx), south = add(b, 32, idx, nx);
  unsigned c = elem(b, in, idx), n = elem(b, in, north), s = elem(b, in, south);
  unsigned c0 = b->nc;
  if (drop != 0) cond(b, x, GSAN_FC_GT, zero, 32, 1);
  if (drop != 1) cond(b, x, GSAN_FC_LT, sub(b, 32, nx, one), 32, 1);
  if (drop != 2) cond(b, y, GSAN_FC_GT, zero, 32, 1);
  if (drop != 3) cond(b, y, GSAN_FC_LT, sub(b, 32, ny, one), 32, 1);
  unsigned nc = b->nc - c0;
  fact(b, c, GSAN_FR_WORD, 0, -4, 0, 0, c0, nc); /* west */
  fact(b, c, GSAN_FR_WORD, 0, 4, 8, 0, c0, nc);  /* east */
  fact(b, n, GSAN_FR_WORD, 0, 0, 4, 0, c0, nc);
  fact(b, s, GSAN_FR_WORD, 0, 0, 4, 0, c0, nc);
  fact(b, c, GSAN_FR_WORD, 0, 0, 4, 0, c0, nc);
}

static void test_stencil(void) {
  bl b;
  fake f;
  rt_proof_launch l = launch(&f, 7, 6, 16, 16);
  jacobi_fake(&f, 100, 90, 100 * 90 * 4);
  stencil(&b, -1);
  HOLDS(run(&b, &l), "stencil: in[idx-1], in[idx+1], in[idx-nx], in[idx+nx] inside 0 < x < nx-1, 0 < y < ny-1");
  stencil(&b, 2);
  FAILS(run(&b, &l), "stencil: without y > 0, in[idx-nx] reaches in[-nx]");
  stencil(&b, 3);
  FAILS(run(&b, &l), "stencil: without y < ny-1, in[idx+nx] reaches row ny + 5");
  stencil(&b, 1);
  FAILS(run(&b, &l), "stencil: without x < nx-1, in[idx+nx] reaches in[88*nx + 111 + nx] = in[9011]");
  stencil(&b, 0);
  HOLDS(run(&b, &l), "stencil: without x > 0, in[idx-1] at x = 0 is the previous row's last (y > 0 still)");
  /* the last read ends at in[(ny-2)*nx + nx-2 + nx] + 4 bytes: ((ny-1)*nx + nx-1) * 4 */
  stencil(&b, -1);
  jacobi_fake(&f, 100, 90, (uint64_t)(89 * 100 + 99) * 4);
  HOLDS(run(&b, &l), "stencil: an allocation ending where the last south read ends");
  jacobi_fake(&f, 100, 90, (uint64_t)(89 * 100 + 99) * 4 - 1);
  FAILS(run(&b, &l), "stencil: one byte before that");
}

/* a guard that no thread passes: out[x] for tid.x == k */
static void test_vacuous(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, 400); /* 100 floats; x reaches 255 */
  rt_proof_launch l = launch(&f, 2, 1, 128, 1);
  for (int k = 0; k < 3; k++) {
    static const int64_t eq[3] = {255, 127, 128};
    static const int cmp[3] = {GSAN_FC_EQ, GSAN_FC_EQ, GSAN_FC_GE};
    bl_init(&b, 1);
    unsigned t, p = par(&b, 64, 0, 0, 0), x = gx_tid(&b, &t);
    unsigned addr = elem(&b, p, x);
    cond(&b, t, cmp[k], imm(&b, 32, eq[k]), 32, 0);
    fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, 1);
    if (k == 0) HOLDS(run(&b, &l), "tid.x == 255 with 128 threads a block: no thread gets there");
    if (k == 1) FAILS(run(&b, &l), "tid.x == 127 with 128 threads a block: x = 255 does");
    if (k == 2) HOLDS(run(&b, &l), "tid.x >= 128 with 128 threads a block: no thread gets there");
    b.fact[0].nconds = 0;
    FAILS(run(&b, &l), "out[x] unguarded, x up to 255 over 100 floats");
  }
  /* an empty range makes everything after it empty: a min, a cvt and a
   * wide multiply of it, and a vacuous fact on a freed pointer still fails
   * (its bounds cannot be had) */
  bl_init(&b, 1);
  unsigned p = par(&b, 64, 0, 0, 0), t = sr(&b, GSAN_SR_TID_X);
  unsigned v = mn(&b, 32, 1, t, imm(&b, 32, 1000000));
  unsigned addr = add(&b, 64, p, mulw(&b, 64, 0, v, imm(&b, 32, 4)));
  cond(&b, t, GSAN_FC_GT, imm(&b, 32, 500), 32, 0);
  fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, 1);
  HOLDS(run(&b, &l), "tid.x > 500: min and mul.wide of nothing are nothing");
  f.al[0].live = 0;
  FAILS(run(&b, &l), "the same on a freed allocation: the root must still be live");
}

/* ---- hotspot's clamps ---- */

enum { H_MIN, H_MIN_NX, H_WEST, H_WEST_NOMAX, H_EAST, H_EAST_NOMIN, H_RAW_WEST, H_RAW_EAST };

/* params: p, int nx; no guards */
static void hotspot(bl *b, int which) {
  bl_init(b, 2);
  unsigned p = par(b, 64, 0, 0, 0), nx = par(b, 32, 1, 1, 0), one = imm(b, 32, 1), zero = imm(b, 32, 0);
  unsigned x = gx_index(b), last = sub(b, 32, nx, one);
  unsigned c = mn(b, 32, 1, x, last), i = c;
  switch (which) {
  case H_MIN: i = c; break;
  case H_MIN_NX: i = mn(b, 32, 1, x, nx); break;
  case H_WEST: i = mx(b, 32, 1, sub(b, 32, c, one), zero); break;
  case H_WEST_NOMAX: i = sub(b, 32, c, one); break;
  case H_EAST: i = mn(b, 32, 1, add(b, 32, c, one), last); break;
  case H_EAST_NOMIN: i = add(b, 32, c, one); break;
  case H_RAW_WEST: i = mx(b, 32, 1, sub(b, 32, x, one), zero); break;
  case H_RAW_EAST: i = mn(b, 32, 1, add(b, 32, x, one), last); break;
  }
  fact(b, elem(b, p, i), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
}

static void test_hotspot(void) {
  bl b;
  fake f;
  rt_proof_launch l = launch(&f, 7, 1, 16, 1); /* x up to 111 over 100 */
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 4, 100);
  alloc_at(&f, A0, 400);
  hotspot(&b, H_MIN);
  HOLDS(run(&b, &l), "min(x, nx-1)");
  hotspot(&b, H_MIN_NX);
  FAILS(run(&b, &l), "min(x, nx): one past the end");
  hotspot(&b, H_WEST);
  HOLDS(run(&b, &l), "max(min(x, nx-1) - 1, 0)");
  hotspot(&b, H_WEST_NOMAX);
  FAILS(run(&b, &l), "min(x, nx-1) - 1: -1 at x = 0");
  hotspot(&b, H_EAST);
  HOLDS(run(&b, &l), "min(min(x, nx-1) + 1, nx-1)");
  hotspot(&b, H_EAST_NOMIN);
  FAILS(run(&b, &l), "min(x, nx-1) + 1: nx at the last column");
  hotspot(&b, H_RAW_EAST);
  HOLDS(run(&b, &l), "min(x+1, nx-1) on the unclamped x");
  hotspot(&b, H_RAW_WEST);
  FAILS(run(&b, &l), "max(x-1, 0) on x up to 111: not bounded above by nx");
  setp(&f, 1, 4, 112);
  f.al[0].size = 448;
  HOLDS(run(&b, &l), "max(x-1, 0) where the grid covers nx exactly");
}

/* ---- what a test of c + k says of c (push_down) ---- */

/* layernorm's x[row * cols + (lane | 32 * i)] read as base + 4 * lane + 128 * i,
 * lane = tid.x & 31, under (lane | how) < cols: the guard is on lane | 32
 * (how OR), lane + 32 (how ADD) or 32 - lane... (how SUB, from 40: 40 - lane > 8),
 * the address on lane itself */
enum { PD_OR, PD_ADD, PD_SUB };
static void lane_plus(bl *b, int how, int32_t lo) {
  bl_init(b, 2);
  unsigned p = par(b, 64, 0, 0, 0), cols = par(b, 32, 1, 1, 0), lane = andi(b, 32, sr(b, GSAN_SR_TID_X), 31);
  unsigned c = how == PD_OR ? ori(b, 32, lane, 32) : how == PD_ADD ? add(b, 32, lane, imm(b, 32, 32))
                                                    : sub(b, 32, imm(b, 32, 40), lane);
  unsigned a = add(b, 64, p, shl(b, 64, cvt(b, 64, 0, lane), 2));
  if (how == PD_SUB) cond(b, c, GSAN_FC_GT, imm(b, 32, 8), 32, 1); /* 40 - lane > 8: lane < 32 */
  else cond(b, c, GSAN_FC_LT, cols, 32, 1);
  fact(b, a, GSAN_FR_WORD, 0, lo, lo + 4, 0, 0, 1);
}

static void test_push_down(void) {
  bl b;
  fake f;
  rt_proof_launch l = launch(&f, 1, 1, 64, 1);
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 4, 40); /* cols: lanes 0..7 pass lane + 32 < 40 */
  alloc_at(&f, A0, 160);
  lane_plus(&b, PD_OR, 128);
  HOLDS(run(&b, &l), "(lane | 32) < 40 keeps base + 4 * lane + 128 inside 160 bytes");
  lane_plus(&b, PD_ADD, 128);
  HOLDS(run(&b, &l), "lane + 32 < 40 likewise");
  f.al[0].size = 156;
  lane_plus(&b, PD_OR, 128);
  FAILS(run(&b, &l), "(lane | 32) < 40: lane 7 reads bytes 156..160 of 156");
  lane_plus(&b, PD_ADD, 128);
  FAILS(run(&b, &l), "lane + 32 < 40 likewise");
  f.al[0].size = 160;
  setp(&f, 1, 4, 41);
  lane_plus(&b, PD_OR, 128);
  FAILS(run(&b, &l), "(lane | 32) < 41 lets lane 8 read bytes 160..164");
  /* 40 - lane > 8: lane < 32, all of them: base + 4 * lane + 4 inside 128 bytes */
  f.al[0].size = 128;
  lane_plus(&b, PD_SUB, 0);
  HOLDS(run(&b, &l), "40 - lane > 8 is every lane: 128 bytes hold them");
  lane_plus(&b, PD_SUB, 4);
  FAILS(run(&b, &l), "40 - lane > 8 and 4 bytes on: lane 31 reads 128..132");
}

/* ---- wrapping ---- */

/* p[sext or zext(ctaid.x * mulc + tid.x)], all 32-bit */
static void wrap_mul(bl *b, int64_t mulc, unsigned sgn) {
  bl_init(b, 1);
  unsigned p = par(b, 64, 0, 0, 0), c = sr(b, GSAN_SR_CTAID_X), t = sr(b, GSAN_SR_TID_X);
  unsigned i = add(b, 32, mul(b, 32, c, imm(b, 32, mulc)), t);
  fact(b, add(b, 64, p, shl(b, 64, cvt(b, 64, sgn, i), 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
}

/* p[ext(n + tid.x) - ext(n)], n an int parameter, the add 32-bit, ext by
 * sgn: tid.x when the add does not wrap */
static void wrap_add(bl *b, unsigned sgn) {
  bl_init(b, 2);
  unsigned p = par(b, 64, 0, 0, 0), n = par(b, 32, sgn, 1, 0), t = sr(b, GSAN_SR_TID_X);
  unsigned j = sub(b, 64, cvt(b, 64, sgn, add(b, 32, n, t)), cvt(b, 64, sgn, n));
  fact(b, add(b, 64, p, shl(b, 64, j, 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
}

static void test_wrap(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, 1ull << 34); /* (16 << 28) floats */
  rt_proof_launch big = launch(&f, 16, 1, 128, 1), small = launch(&f, 8, 1, 128, 1);
  wrap_mul(&b, 0x10000000, 1);
  FAILS(run(&b, &big), "ctaid.x * 2^28 + tid.x with 16 blocks passes 2^31: sign-extended, it wraps negative");
  HOLDS(run(&b, &small), "ctaid.x * 2^28 + tid.x with 8 blocks stays below 2^31");
  wrap_mul(&b, 0x10000000, 0);
  HOLDS(run(&b, &big), "the same with 16 blocks zero-extended: below 2^32, no wrap");
  /* an add that wraps: p[ext(n + tid.x) - ext(n)] is p[tid.x] until n + tid.x wraps */
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, 1024);
  rt_proof_launch b128 = launch(&f, 4, 1, 128, 1), b256 = launch(&f, 4, 1, 256, 1);
  setp(&f, 1, 4, 0x7fffff80u); /* INT_MAX - 127 */
  wrap_add(&b, 1);
  HOLDS(run(&b, &b128), "signed: INT_MAX - 127 + tid.x, 128 threads: no wrap, p[tid.x]");
  FAILS(run(&b, &b256), "signed: INT_MAX - 127 + tid.x, 256 threads: wraps to INT_MIN, p[tid.x - 2^32]");
  setp(&f, 1, 4, 0xffffff80u); /* -128, or UINT_MAX - 127 */
  HOLDS(run(&b, &b256), "signed: -128 + tid.x, 256 threads: no wrap");
  wrap_add(&b, 0);
  HOLDS(run(&b, &b128), "unsigned: UINT_MAX - 127 + tid.x, 128 threads: no wrap");
  FAILS(run(&b, &b256), "unsigned: UINT_MAX - 127 + tid.x, 256 threads: wraps to 0, p[tid.x - 2^32]");
  /* 64 bits: an allocation at the top of the address space */
  fake_init(&f);
  setp(&f, 0, 8, 0ull - 512);
  setp(&f, 1, 4, 0);
  alloc_at(&f, 0ull - 512, 512);
  wrap_add(&b, 1);
  HOLDS(run(&b, &b128), "p = 2^64 - 512, p[tid.x] with 128 threads: the last float ends at 2^64");
  setp(&f, 0, 8, 0ull - 508);
  FAILS(run(&b, &b128), "p = 2^64 - 508, p[tid.x] with 128 threads: the last float wraps to address 0");
}

/* ---- shared variables ---- */

enum { S_PLAIN, S_TWICE, S_MUL, S_SHL, S_CANCEL, S_CANCEL_OTHER, S_OTHER, S_NEG, S_WORD_CANCEL, S_WORD_SYM, S_CVT,
       S_NOSYM };

/* &s[tid.x + 1], s a 34-float shared array (variable 3) */
static void shared(bl *b, int how) {
  bl_init(b, 1);
  unsigned p = par(b, 64, 0, 0, 0), s = sym(b, 32, 3), t = sr(b, GSAN_SR_TID_X);
  unsigned o = shl(b, 32, t, 2), four = imm(b, 32, 4), addr, root = GSAN_FR_VAR, word = 3;
  switch (how) {
  case S_PLAIN: addr = add(b, 32, add(b, 32, s, o), four); break;
  case S_TWICE: addr = add(b, 32, add(b, 32, s, add(b, 32, s, o)), four); break;
  case S_MUL: addr = add(b, 32, add(b, 32, mul(b, 32, s, imm(b, 32, 1)), o), four); break;
  case S_SHL: addr = add(b, 32, add(b, 32, shl(b, 32, s, 0), o), four); break;
  case S_CANCEL: /* s + ((s + o) - s) + 4 */
    addr = add(b, 32, add(b, 32, s, sub(b, 32, add(b, 32, s, o), s)), four);
    break;
  case S_CANCEL_OTHER: /* s + ((s + o) - s') + 4: another variable's address does not cancel */
    addr = add(b, 32, add(b, 32, s, sub(b, 32, add(b, 32, s, o), sym(b, 32, 4))), four);
    break;
  case S_OTHER: addr = add(b, 32, add(b, 32, sym(b, 32, 4), o), four); break;
  case S_NEG: addr = sub(b, 32, add(b, 32, s, o), four); break; /* &s[tid.x - 1] */
  case S_NOSYM: addr = add(b, 32, o, four); break;                 /* 4 tid.x + 4: no variable's address */
  case S_WORD_CANCEL: /* p + cvt((s + o) - s): an offset got from the variable's address */
    addr = add(b, 64, p, cvt(b, 64, 0, add(b, 32, sub(b, 32, add(b, 32, s, o), s), four)));
    root = GSAN_FR_WORD, word = 0;
    break;
  case S_WORD_SYM: addr = add(b, 64, p, cvt(b, 64, 0, add(b, 32, add(b, 32, s, o), four))); root = GSAN_FR_WORD, word = 0; break;
  default: /* S_CVT: the address widened: carried only through add and sub */
    addr = add(b, 64, cvt(b, 64, 0, add(b, 32, s, o)), imm(b, 64, 4));
    break;
  }
  fact(b, addr, root, word, 0, 4, 34 * 4, 0, 0);
}

static void test_shared(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, 34 * 4);
  rt_proof_launch l32 = launch(&f, 5, 1, 32, 1), l33 = launch(&f, 5, 1, 33, 1), l34 = launch(&f, 5, 1, 34, 1);
  shared(&b, S_PLAIN);
  HOLDS(run(&b, &l32), "s[tid.x + 1] of 34 floats, 32 threads");
  HOLDS(run(&b, &l33), "s[tid.x + 1] of 34 floats, 33 threads: s[33], the last one");
  FAILS(run(&b, &l34), "s[tid.x + 1] of 34 floats, 34 threads: s[34]");
  shared(&b, S_TWICE);
  FAILS(run(&b, &l32), "s + s + 4 tid.x: the variable's address twice is not an offset into it");
  shared(&b, S_MUL);
  FAILS(run(&b, &l32), "s * 1: a multiplied address is unknown");
  shared(&b, S_SHL);
  FAILS(run(&b, &l32), "s << 0: a shifted address is unknown");
  shared(&b, S_CVT);
  FAILS(run(&b, &l32), "cvt of s + 4 tid.x: a converted address is unknown");
  shared(&b, S_CANCEL);
  HOLDS(run(&b, &l32), "s + ((s + 4 tid.x) - s) + 4: s - s cancels");
  FAILS(run(&b, &l34), "the same with 34 threads");
  shared(&b, S_CANCEL_OTHER);
  FAILS(run(&b, &l32), "s + ((s + 4 tid.x) - t) + 4: t is another variable");
  shared(&b, S_OTHER);
  FAILS(run(&b, &l32), "t + 4 tid.x + 4 in a fact about s");
  shared(&b, S_NEG);
  FAILS(run(&b, &l32), "s[tid.x - 1]: s[-1] at tid.x = 0");
  shared(&b, S_NOSYM);
  FAILS(run(&b, &l32), "4 tid.x + 4 in a fact about s: an address that is no offset into s");
  b.fact[0].root = GSAN_FR_DYNAMIC;
  l32.dynamic_smem = 1 << 20;
  FAILS(run(&b, &l32), "4 tid.x + 4 in a fact about the dynamic shared memory");
  shared(&b, S_PLAIN);
  b.fact[0].root = GSAN_FR_DYNAMIC;
  HOLDS(run(&b, &l32), "s + 4 tid.x + 4 with s the dynamic root (variable 3)");
  shared(&b, S_WORD_CANCEL);
  HOLDS(run(&b, &l32), "p + ((s + 4 tid.x) - s) + 4 checked against p's allocation");
  FAILS(run(&b, &l34), "the same with 34 threads");
  shared(&b, S_WORD_SYM);
  FAILS(run(&b, &l32), "p + cvt(s + 4 tid.x): a variable's address inside a pointer's");
}

/* ---- dynamic shared memory ---- */

static void dynamic(bl *b, int guard, unsigned id, unsigned bits) {
  bl_init(b, 0);
  unsigned s = sym(b, bits, 7), t = srw(b, bits, GSAN_SR_TID_X);
  unsigned addr = add(b, bits, s, shl(b, bits, t, 2));
  if (guard) cond(b, t, GSAN_FC_LT, divi(b, bits, 0, srw(b, bits, GSAN_SR_DYNAMIC_SMEM), 4), bits, 0);
  fact(b, addr, GSAN_FR_DYNAMIC, id, 0, 4, 0, 0, b->nc);
}

static void test_dynamic(void) {
  bl b;
  fake f;
  fake_init(&f);
  rt_proof_launch l = launch(&f, 3, 1, 64, 1);
  for (unsigned bits = 32; bits <= 64; bits += 32) {
    dynamic(&b, 0, 7, bits);
    l.dynamic_smem = 256;
    HOLDS(run(&b, &l), "%u-bit: extern s[]: s[tid.x], 64 threads, 256 dynamic bytes", bits);
    l.dynamic_smem = 252;
    FAILS(run(&b, &l), "%u-bit: s[tid.x], 64 threads, 252 dynamic bytes", bits);
    l.dynamic_smem = 256;
    dynamic(&b, 0, 8, bits);
    FAILS(run(&b, &l), "%u-bit: the dynamic root's variable is not the address's", bits);
    l.dynamic_smem = 128;
    dynamic(&b, 1, 7, bits);
    HOLDS(run(&b, &l), "%u-bit: s[tid.x] under tid.x < dynamic_smem / 4, 128 bytes", bits);
    dynamic(&b, 0, 7, bits);
    FAILS(run(&b, &l), "%u-bit: s[tid.x] unguarded, 128 bytes", bits);
    l.dynamic_smem = 0;
    dynamic(&b, 1, 7, bits);
    HOLDS(run(&b, &l), "%u-bit: no dynamic bytes: tid.x < 0 lets no thread through", bits);
  }
}

/* ---- the pointer's bounds ---- */

/* p[tid.x] (lo, hi: the access's bytes); p is parameter `word` */
static void ptr_fact(bl *b, unsigned from, unsigned word, int32_t lo, int32_t hi) {
  bl_init(b, 2);
  unsigned p0 = par(b, 64, 0, 0, 0), p1 = par(b, 64, 0, 1, 0);
  fact(b, elem(b, from ? p1 : p0, sr(b, GSAN_SR_TID_X)), GSAN_FR_WORD, word, lo, hi, 0, 0, 0);
}

static void test_bounds(void) {
  bl b;
  fake f;
  rt_proof_launch l8 = launch(&f, 2, 1, 8, 1), l4 = launch(&f, 2, 1, 4, 1), l5 = launch(&f, 2, 1, 5, 1);
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 8, A1);
  alloc_at(&f, A0, 32);
  alloc_at(&f, A1, 16);
  ptr_fact(&b, 0, 0, 0, 4);
  HOLDS(run(&b, &l8), "p[tid.x], 8 threads, 32 bytes");
  f.al[0].live = 0;
  FAILS(run(&b, &l8), "the same allocation freed (bounds: 0)");
  f.al[0].live = 1;
  setp(&f, 0, 8, ARENA_LO + 0x900000);
  FAILS(run(&b, &l8), "a pointer into the arena that no allocation has");
  setp(&f, 0, 8, 0x10000);
  HOLDS(run(&b, &l8), "a pointer outside the arena: the unchecked bounds");
  setp(&f, 0, 8, GSAN_UNCHECKED_SIZE - 32);
  HOLDS(run(&b, &l8), "the unchecked bounds' last 32 bytes");
  setp(&f, 0, 8, GSAN_UNCHECKED_SIZE - 28);
  FAILS(run(&b, &l8), "4 bytes past the unchecked bounds");
  /* a pointer into the middle of its allocation */
  setp(&f, 0, 8, A0 + 16);
  ptr_fact(&b, 0, 0, 0, 4);
  HOLDS(run(&b, &l4), "p = base + 16: p[tid.x], 4 threads, 32 bytes");
  FAILS(run(&b, &l5), "p = base + 16: p[tid.x], 5 threads");
  ptr_fact(&b, 0, 0, -16, -12);
  HOLDS(run(&b, &l8), "p = base + 16: p[tid.x - 4] (the access's offset -16), 8 threads");
  ptr_fact(&b, 0, 0, -20, -16);
  FAILS(run(&b, &l8), "p = base + 16: p[tid.x - 5]: one float before the allocation");
  /* the fact's word names the root: another pointer's bounds do not do */
  setp(&f, 0, 8, A0);
  ptr_fact(&b, 1, 1, 0, 4);
  HOLDS(run(&b, &l4), "q[tid.x] checked against q's 16 bytes, 4 threads");
  ptr_fact(&b, 1, 0, 0, 4);
  FAILS(run(&b, &l4), "q[tid.x] checked against p's allocation");
  ptr_fact(&b, 0, 5, 0, 4);
  FAILS(run(&b, &l4), "a fact whose word the launch has not (word callback: 0)");
  /* a launch without callbacks proves no pointer fact */
  ptr_fact(&b, 0, 0, 0, 4);
  rt_proof_launch bare = l4;
  bare.bounds = NULL;
  FAILS(run(&b, &bare), "no bounds callback");
  bare = l4;
  bare.word = NULL;
  FAILS(run(&b, &bare), "no word callback");
  bare = l4;
  bare.param = NULL;
  FAILS(run(&b, &bare), "no param callback");
  HOLDS(run(&b, &l4), "every callback");
  /* a dimension of 0 fixes no thread index */
  rt_proof_launch zero = launch(&f, 2, 1, 0, 1);
  FAILS(run(&b, &zero), "a block of 0 threads: tid.x unknown");
  zero = launch(&f, 0, 1, 4, 1);
  HOLDS(run(&b, &zero), "a grid of 0 blocks (ctaid unused)");
}

/* ---- parameters ---- */

enum { P_SEXT, P_ZEXT, P_ADD32_ZEXT, P_MIN_S, P_MIN_U, P_OFF4, P_OFF8, P_WIDE4, P_I16_S, P_I16_U, P_I8_S };

/* p[f(n)] with p 8 floats (32 bytes) */
static void param_fact(bl *b, int how) {
  bl_init(b, 3);
  unsigned p = par(b, 64, 0, 0, 0), ten = imm(b, 64, 10), i;
  switch (how) {
  case P_SEXT: i = add(b, 64, cvt(b, 64, 1, par(b, 32, 1, 1, 0)), ten); break; /* (long)n + 10 */
  case P_ZEXT: i = add(b, 64, cvt(b, 64, 0, par(b, 32, 0, 1, 0)), ten); break; /* (unsigned long)(unsigned)n + 10 */
  case P_ADD32_ZEXT: i = cvt(b, 64, 0, add(b, 32, par(b, 32, 0, 1, 0), imm(b, 32, 10))); break; /* (unsigned)(n + 10) */
  case P_MIN_S: i = cvt(b, 64, 1, add(b, 32, mn(b, 32, 1, par(b, 32, 1, 1, 0), imm(b, 32, 5)), imm(b, 32, 10))); break;
  case P_MIN_U: i = cvt(b, 64, 1, add(b, 32, mn(b, 32, 0, par(b, 32, 0, 1, 0), imm(b, 32, 5)), imm(b, 32, 10))); break;
  case P_OFF4: i = cvt(b, 64, 1, par(b, 32, 1, 2, 4)); break; /* the high half of the 8-byte parameter */
  case P_OFF8: i = cvt(b, 64, 1, par(b, 32, 1, 2, 8)); break; /* past it */
  case P_WIDE4: i = par(b, 64, 1, 1, 0); break;                /* 8 bytes of a 4-byte parameter */
  case P_I16_S: i = add(b, 64, cvt(b, 64, 1, par(b, 16, 1, 1, 0)), ten); break;
  case P_I16_U: i = add(b, 64, cvt(b, 64, 0, par(b, 16, 0, 1, 0)), ten); break;
  default: i = add(b, 64, cvt(b, 64, 1, par(b, 8, 1, 1, 2)), ten); break; /* byte 2 of n */
  }
  fact(b, add(b, 64, p, shl(b, 64, i, 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
}

static void test_params(void) {
  bl b;
  fake f;
  rt_proof_launch l = launch(&f, 1, 1, 1, 1);
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 4, (uint32_t)-3);
  setp(&f, 2, 8, 0x000000030000dead);
  alloc_at(&f, A0, 32);
  param_fact(&b, P_SEXT);
  HOLDS(run(&b, &l), "n = -3, signed: p[n + 10] = p[7]");
  param_fact(&b, P_ZEXT);
  FAILS(run(&b, &l), "n = -3 read unsigned: p[0xfffffffd + 10]");
  param_fact(&b, P_ADD32_ZEXT);
  HOLDS(run(&b, &l), "n = -3 read unsigned, +10 in 32 bits, zero-extended: p[7] (the add is modular)");
  param_fact(&b, P_MIN_S);
  HOLDS(run(&b, &l), "min.s32(n = -3, 5) + 10 = 7");
  param_fact(&b, P_MIN_U);
  FAILS(run(&b, &l), "min.u32(0xfffffffd, 5) + 10 = 15");
  param_fact(&b, P_OFF4);
  HOLDS(run(&b, &l), "bytes 4..7 of an 8-byte parameter: 3");
  param_fact(&b, P_OFF8);
  FAILS(run(&b, &l), "bytes 8..11 of an 8-byte parameter (param callback: 0)");
  param_fact(&b, P_WIDE4);
  FAILS(run(&b, &l), "8 bytes of a 4-byte parameter (param callback: 0)");
  setp(&f, 1, 4, 0xfff9);
  param_fact(&b, P_I16_S);
  HOLDS(run(&b, &l), "a 16-bit parameter 0xfff9 signed: -7 + 10");
  param_fact(&b, P_I16_U);
  FAILS(run(&b, &l), "a 16-bit parameter 0xfff9 unsigned: 65529 + 10");
  setp(&f, 1, 4, 0x00fd0000);
  param_fact(&b, P_I8_S);
  HOLDS(run(&b, &l), "byte 2 of a parameter, 0xfd signed: -3 + 10");
  setp(&f, 1, 4, 0x00080000);
  FAILS(run(&b, &l), "byte 2 of a parameter, 8: 8 + 10");
  /* a 64-bit signed parameter that is negative */
  bl_init(&b, 2);
  unsigned p = par(&b, 64, 0, 0, 0), n = par(&b, 64, 1, 1, 0);
  fact(&b, add(&b, 64, p, shl(&b, 64, add(&b, 64, n, imm(&b, 64, 4)), 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
  setp(&f, 1, 8, (uint64_t)-4);
  HOLDS(run(&b, &l), "a 64-bit parameter -4: p[-4 + 4]");
  setp(&f, 1, 8, (uint64_t)-5);
  FAILS(run(&b, &l), "a 64-bit parameter -5: p[-1]");
  /* mul.lo is modular: n * n for n = 2^64 - 1 read unsigned is 1 */
  bl_init(&b, 2);
  p = par(&b, 64, 0, 0, 0), n = par(&b, 64, 0, 1, 0);
  fact(&b, add(&b, 64, p, shl(&b, 64, mul(&b, 64, n, n), 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
  setp(&f, 1, 8, ~0ull);
  HOLDS(run(&b, &l), "mul.lo.u64 (2^64 - 1)^2 = 1: p[1] in 8 floats");
  setp(&f, 1, 8, ~0ull - 2);
  FAILS(run(&b, &l), "mul.lo.u64 (2^64 - 3)^2 = 9: p[9] in 8 floats");
}

/* ---- and, div, rem, shr, laneid, truncation ---- */

/* p[i] with i made by mk from tid.x */
typedef unsigned (*mkfn)(bl *b, unsigned t);
static unsigned mk_and31(bl *b, unsigned t) { return andi(b, 32, t, 31); }
static unsigned mk_and40(bl *b, unsigned t) { return andi(b, 32, t, 40); }
static unsigned mk_raw(bl *b, unsigned t) { (void)b; return t; }
static unsigned mk_div8(bl *b, unsigned t) { return divi(b, 32, 0, t, 8); }
static unsigned mk_rem32(bl *b, unsigned t) { return remi(b, 32, 0, t, 32); }
static unsigned mk_shr3(bl *b, unsigned t) { return shr(b, 32, 0, t, 3); }
static unsigned mk_shr2(bl *b, unsigned t) { return shr(b, 32, 0, t, 2); }
static unsigned mk_lane(bl *b, unsigned t) { (void)t; return sr(b, GSAN_SR_LANEID); }
/* (tid.x + 40) % 64 - 40 */
static unsigned mk_remnarrow(bl *b, unsigned t) {
  return sub(b, 32, remi(b, 32, 0, add(b, 32, t, imm(b, 32, 40)), 64), imm(b, 32, 40));
}
/* ((tid.x - 128) >> 4) + 8, arithmetic or logical */
static unsigned mk_sshr(bl *b, unsigned t) {
  return add(b, 32, shr(b, 32, 1, sub(b, 32, t, imm(b, 32, 128)), 4), imm(b, 32, 8));
}
static unsigned mk_ushr(bl *b, unsigned t) {
  return add(b, 32, shr(b, 32, 0, sub(b, 32, t, imm(b, 32, 128)), 4), imm(b, 32, 8));
}
/* ((tid.x - 16) >> 4) + 1 and ((tid.x - 17) >> 4) + 1, arithmetic: rounding down */
static unsigned mk_floor16(bl *b, unsigned t) {
  return add(b, 32, shr(b, 32, 1, sub(b, 32, t, imm(b, 32, 16)), 4), imm(b, 32, 1));
}
static unsigned mk_floor17(bl *b, unsigned t) {
  return add(b, 32, shr(b, 32, 1, sub(b, 32, t, imm(b, 32, 17)), 4), imm(b, 32, 1));
}
/* (tid.x - 16) / 16 + 1, signed: rounding toward zero */
static unsigned mk_sdiv(bl *b, unsigned t) {
  return add(b, 32, divi(b, 32, 1, sub(b, 32, t, imm(b, 32, 16)), 16), imm(b, 32, 1));
}
/* rem.s32(tid.x -+ 16, 16): the remainders of negatives are negative */
static unsigned mk_srem_neg(bl *b, unsigned t) { return remi(b, 32, 1, sub(b, 32, t, imm(b, 32, 16)), 16); }
static unsigned mk_srem_pos(bl *b, unsigned t) { return remi(b, 32, 1, add(b, 32, t, imm(b, 32, 16)), 16); }
/* min.u32(tid.x, 60) and max.s32(tid.x - 4, 0) */
static unsigned mk_umin(bl *b, unsigned t) { return mn(b, 32, 0, t, imm(b, 32, 60)); }
static unsigned mk_smax(bl *b, unsigned t) { return mx(b, 32, 1, sub(b, 32, t, imm(b, 32, 4)), imm(b, 32, 0)); }

static int op_case(mkfn mk, unsigned block, uint64_t bytes) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, bytes);
  rt_proof_launch l = launch(&f, 3, 1, block, 1);
  bl_init(&b, 1);
  unsigned p = par(&b, 64, 0, 0, 0), t = sr(&b, GSAN_SR_TID_X);
  fact(&b, elem(&b, p, mk(&b, t)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
  return run(&b, &l);
}

static void test_ops(void) {
  HOLDS(op_case(mk_and31, 256, 128), "tid.x & 31, 256 threads, 32 floats");
  FAILS(op_case(mk_and31, 256, 124), "tid.x & 31, 256 threads, 31 floats");
  FAILS(op_case(mk_raw, 256, 128), "tid.x unmasked, 256 threads, 32 floats");
  HOLDS(op_case(mk_and31, 20, 80), "tid.x & 31 with 20 threads: exact, 20 floats");
  FAILS(op_case(mk_and31, 20, 76), "tid.x & 31 with 20 threads, 19 floats");
  HOLDS(op_case(mk_and40, 256, 41 * 4), "tid.x & 40: at most 40");
  FAILS(op_case(mk_and40, 256, 40 * 4), "tid.x & 40 in 40 floats (40 & 40 = 40)");
  HOLDS(op_case(mk_div8, 256, 128), "tid.x / 8, 256 threads: 0..31");
  FAILS(op_case(mk_div8, 256, 124), "tid.x / 8 in 31 floats");
  HOLDS(op_case(mk_rem32, 256, 128), "tid.x %% 32, 256 threads: 0..31");
  FAILS(op_case(mk_rem32, 256, 124), "tid.x %% 32 in 31 floats");
  HOLDS(op_case(mk_remnarrow, 16, 64), "(tid.x + 40) %% 64 - 40 with 16 threads: 0..15, no wrap of the remainder");
  FAILS(op_case(mk_remnarrow, 32, 128), "(tid.x + 40) %% 64 - 40 with 32 threads: 40..63 then 0..7, -40..-33");
  HOLDS(op_case(mk_remnarrow, 24, 96), "(tid.x + 40) %% 64 - 40 with 24 threads: 40..63, the last before the wrap");
  FAILS(op_case(mk_remnarrow, 65, 1024), "(tid.x + 40) %% 64 - 40 with 65 threads: the span is the divisor, 40 twice");
  HOLDS(op_case(mk_shr3, 256, 128), "tid.x >> 3: 0..31");
  FAILS(op_case(mk_shr2, 256, 128), "tid.x >> 2: 0..63 in 32 floats");
  HOLDS(op_case(mk_lane, 1024, 128), "laneid: 0..31");
  FAILS(op_case(mk_lane, 1024, 124), "laneid in 31 floats");
  HOLDS(op_case(mk_sshr, 256, 64), "((tid.x - 128) >>s 4) + 8: -8..7 + 8, 16 floats");
  FAILS(op_case(mk_sshr, 256, 60), "((tid.x - 128) >>s 4) + 8 in 15 floats");
  FAILS(op_case(mk_ushr, 256, 64), "((tid.x - 128) >>u 4) + 8: the negative ones are huge unsigned");
  HOLDS(op_case(mk_floor16, 16, 4), "((tid.x - 16) >>s 4) + 1 with 16 threads: -1 + 1 (shr rounds down)");
  FAILS(op_case(mk_floor17, 16, 4), "((tid.x - 17) >>s 4) + 1 with 16 threads: -2 + 1 at tid.x = 0");
  HOLDS(op_case(mk_sdiv, 16, 8), "((tid.x - 16) /s 16) + 1 with 16 threads: 0..1 (div rounds toward zero)");
  FAILS(op_case(mk_sdiv, 16, 4), "the same in 1 float: tid.x = 1 gives (-15 / 16) + 1 = 1");
  HOLDS(op_case(mk_srem_pos, 32, 64), "rem.s32(tid.x + 16, 16), 32 threads: 0..15");
  FAILS(op_case(mk_srem_pos, 32, 60), "rem.s32(tid.x + 16, 16) in 15 floats");
  FAILS(op_case(mk_srem_neg, 32, 64), "rem.s32(tid.x - 16, 16), 32 threads: -15..0 for tid.x < 16");
  HOLDS(op_case(mk_smax, 64, 240), "max.s32(tid.x - 4, 0), 64 threads: 0..59");
  FAILS(op_case(mk_smax, 64, 236), "the same in 59 floats");
  HOLDS(op_case(mk_umin, 64, 244), "min.u32(tid.x, 60), 64 threads: 0..60");
  FAILS(op_case(mk_umin, 64, 240), "min.u32(tid.x, 60) in 60 floats");
}

/* truncating cvt is modular: (u32)v for v = 2^32 + 5, zero-extended */
static void test_truncate(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 8, 0x100000005ull);
  alloc_at(&f, A0, 24);
  rt_proof_launch l = launch(&f, 1, 1, 1, 1);
  for (int trunc = 1; trunc >= 0; trunc--) {
    bl_init(&b, 2);
    unsigned p = par(&b, 64, 0, 0, 0), v = par(&b, 64, 0, 1, 0);
    unsigned i = trunc ? cvt(&b, 64, 0, cvt(&b, 32, 0, v)) : cvt(&b, 64, 0, v);
    fact(&b, add(&b, 64, p, shl(&b, 64, i, 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
    if (trunc) HOLDS(run(&b, &l), "cvt.u64.u32(cvt.u32.u64(2^32 + 5)) = 5");
    else FAILS(run(&b, &l), "cvt.u64.u64(2^32 + 5) without the truncation");
  }
  /* a truncation to 8 bits then sign-extended: 0x1fd -> 0xfd -> -3 */
  setp(&f, 1, 8, 0x1fd);
  for (int sgn = 1; sgn >= 0; sgn--) {
    bl_init(&b, 2);
    unsigned p = par(&b, 64, 0, 0, 0), v = par(&b, 64, 0, 1, 0);
    unsigned i = add(&b, 64, cvt(&b, 64, (unsigned)sgn, cvt(&b, 8, 0, v)), imm(&b, 64, 3));
    fact(&b, add(&b, 64, p, shl(&b, 64, i, 2)), GSAN_FR_WORD, 0, 0, 4, 0, 0, 0);
    if (sgn) HOLDS(run(&b, &l), "cvt.s64.s8(0x1fd) + 3 = 0");
    else FAILS(run(&b, &l), "cvt.u64.u8(0x1fd) + 3 = 256");
  }
}

/* ---- how conditions are applied ---- */

static void test_conds(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  setp(&f, 1, 4, 100);
  alloc_at(&f, A0, 400);
  rt_proof_launch l = launch(&f, 7, 1, 16, 1);
  /* the guard's bound is a node after the guarded one: x <= nx - 1 */
  for (int k = 0; k < 2; k++) {
    bl_init(&b, 2);
    unsigned p = par(&b, 64, 0, 0, 0), nx = par(&b, 32, 1, 1, 0), x = gx_index(&b);
    unsigned addr = elem(&b, p, x);
    unsigned last = k ? nx : sub(&b, 32, nx, imm(&b, 32, 1));
    cond(&b, x, GSAN_FC_LE, last, 32, 1);
    fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, 1);
    if (!k) HOLDS(run(&b, &l), "x <= nx - 1, nx - 1 computed after the address");
    else FAILS(run(&b, &l), "x <= nx");
  }
  /* the guard 0 < x, the immediate first: x narrowed by the mirrored
   * comparison x > 0, then p[x - 1] */
  for (int k = 0; k < 2; k++) {
    bl_init(&b, 2);
    unsigned p = par(&b, 64, 0, 0, 0), x = gx_index(&b), zero = imm(&b, 32, 0);
    unsigned addr = elem(&b, p, sub(&b, 32, x, imm(&b, 32, 1)));
    cond(&b, zero, k ? GSAN_FC_LE : GSAN_FC_LT, x, 32, 1);
    cond(&b, x, GSAN_FC_LE, imm(&b, 32, 100), 32, 1);
    fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, 2);
    if (!k) HOLDS(run(&b, &l), "0 < x <= 100: p[x - 1] in 100 floats");
    else FAILS(run(&b, &l), "0 <= x <= 100: p[x - 1] reaches p[-1]");
  }
  /* an index that may be negative: guarded both ways, signed */
  for (int k = 0; k < 3; k++) {
    bl_init(&b, 2);
    unsigned p = par(&b, 64, 0, 0, 0), t = sr(&b, GSAN_SR_TID_X), i = sub(&b, 32, t, imm(&b, 32, 4));
    unsigned addr = elem(&b, p, i);
    if (k != 1) cond(&b, i, GSAN_FC_GE, imm(&b, 32, 0), 32, 1);
    cond(&b, i, GSAN_FC_LT, imm(&b, 32, 100), 32, k == 2 ? 0 : 1);
    fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, b.nc);
    rt_proof_launch wide = launch(&f, 1, 1, 256, 1);
    if (k == 0) HOLDS(run(&b, &wide), "0 <= tid.x - 4 < 100 (signed)");
    if (k == 1) FAILS(run(&b, &wide), "tid.x - 4 < 100 alone: -4 at tid.x = 0");
    if (k == 2) HOLDS(run(&b, &wide), "tid.x - 4 >= 0 (signed) and < 100 (unsigned)");
  }
  /* each guard set evaluated for its own facts */
  bl_init(&b, 2);
  unsigned t, p = par(&b, 64, 0, 0, 0), nx = par(&b, 32, 1, 1, 0), x = gx_tid(&b, &t);
  unsigned addr = elem(&b, p, x);
  cond(&b, x, GSAN_FC_LT, nx, 32, 1);                  /* 0 */
  cond(&b, x, GSAN_FC_LT, imm(&b, 32, 50), 32, 1);     /* 1 */
  cond(&b, t, GSAN_FC_LT, imm(&b, 32, 8), 32, 1);      /* 2: not enough */
  fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 0, 1);
  fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 1, 1);
  HOLDS(run(&b, &l), "x < nx for one fact, x < 50 for another");
  fact(&b, addr, GSAN_FR_WORD, 0, 0, 4, 0, 2, 1);
  FAILS(run(&b, &l), "and a third under tid.x < 8 only");
  b.fact[2].cond0 = 0;
  b.fact[2].nconds = 3;
  HOLDS(run(&b, &l), "the third under all three");
  b.fact[1].nconds = 0;
  FAILS(run(&b, &l), "the second unguarded between guarded ones");
  b.fact[1] = b.fact[0];
  b.fact[0].cond0 = 2;
  b.fact[0].nconds = 1;
  FAILS(run(&b, &l), "the first under tid.x < 8 only, the others sound");
  b.fact[0].cond0 = 1;
  HOLDS(run(&b, &l), "the first under x < 50, the second x < nx, the third all three");
}

/* A condition read at fewer bits than its nodes: per docs "a cmp b holds,
 * both read as bits-bit integers", so off = tid.x + 2^32 (64-bit) passes
 * (u32)off < 5 for tid.x < 5, and p + off is 4 GiB past p's 8 bytes. */
static void test_cond_width(void) {
  bl b;
  fake f;
  fake_init(&f);
  setp(&f, 0, 8, A0);
  alloc_at(&f, A0, 8);
  rt_proof_launch l = launch(&f, 1, 1, 8, 1);
  for (int k = 0; k < 3; k++) {
    bl_init(&b, 1);
    unsigned p = par(&b, 64, 0, 0, 0), t32 = sr(&b, GSAN_SR_TID_X), t = cvt(&b, 64, 0, t32);
    unsigned off = k == 2 ? t : add(&b, 64, t, imm(&b, 64, 1ll << 32));
    if (k == 2) cond(&b, t32, GSAN_FC_LT, imm(&b, 32, 5), 32, 0); /* the twin: widths agree */
    else cond(&b, off, GSAN_FC_LT, imm(&b, 64, 5), k == 1 ? 64 : 32, 0);
    fact(&b, add(&b, 64, p, off), GSAN_FR_WORD, 0, 0, 1, 0, 0, 1);
    int r = run(&b, &l);
    if (k == 0)
      CHECK(r != 1, "(u32)(tid.x + 2^32) < 5 does not keep p + tid.x + 2^32 inside 8 bytes (got %d: the 64-bit "
                    "node was narrowed in 32-bit representatives; rejecting the blob would do too)", r);
    if (k == 1) HOLDS(r, "(u64)(tid.x + 2^32) < 5: no thread");
    if (k == 2) HOLDS(r, "tid.x <u32 5 keeps p + tid.x inside 8 bytes");
  }
}

/* ---- the parser ---- */

static rt_facts *parse(bl *b, unsigned nparams, const char **why) {
  ser(b);
  *why = NULL;
  return rt_facts_parse(b->buf, b->len, nparams, why);
}

/* b must be rejected (with a reason), and good, its twin, accepted */
static void reject(bl *bad, bl *good, const char *what) {
  const char *why = NULL;
  rt_facts *f = parse(bad, bad->nparams, &why);
  CHECK(!f && why && *why, "rejects %s", what);
  rt_facts_free(f);
  f = parse(good, good->nparams, &why);
  CHECK(f && !why, "accepts the twin of %s (%s)", what, why ? why : "");
  rt_facts_free(f);
}

static unsigned find_op(const bl *b, int op) {
  for (unsigned i = 0; i < b->nn; i++)
    if (b->node[i].op == op) return i;
  fprintf(stderr, "test_proof: no node of op %d\n", op);
  exit(2);
}

static void test_parse(void) {
  bl good, bad;
  const char *why;
  stencil(&good, -1);
  rt_facts *f = parse(&good, 3, &why);
  CHECK(f && !why && rt_facts_count(f) == 5, "the stencil parses: 5 facts");
  rt_facts_free(f);

  bad = good;
  bad.magic ^= 1;
  reject(&bad, &good, "a bad magic");
  bad = good;
  bad.version = GSAN_ABI_VERSION + 1;
  reject(&bad, &good, "another ABI version");
  bad = good;
  bad.version = GSAN_ABI_VERSION - 1;
  reject(&bad, &good, "an older ABI version");

  /* nparams: the header's and the kernel's */
  f = parse(&good, 4, &why);
  CHECK(!f && why, "rejects a blob for a kernel of 3 parameters given 4");
  rt_facts_free(f);
  f = parse(&good, 2, &why);
  CHECK(!f && why, "rejects a blob for a kernel of 3 parameters given 2");
  rt_facts_free(f);

  /* sizes */
  ser(&good);
  for (size_t n = 0; n < good.len; n++) {
    why = NULL;
    f = rt_facts_parse(good.buf, n, 3, &why);
    if (f || !why) {
      CHECK(0, "accepts the stencil cut to %zu bytes", n);
      rt_facts_free(f);
      break;
    }
  }
  CHECK(1, "rejects every prefix of the stencil");
  {
    unsigned char big[sizeof good.buf + 16];
    memcpy(big, good.buf, good.len);
    memset(big + good.len, 0, 16);
    f = rt_facts_parse(big, good.len + 1, 3, &why);
    CHECK(!f && why, "rejects a byte more than its counts say");
    rt_facts_free(f);
    f = rt_facts_parse(big, good.len + sizeof(gsan_fact), 3, &why);
    CHECK(!f && why, "rejects a fact's bytes more than its counts say");
    rt_facts_free(f);
    f = rt_facts_parse(big, good.len, 3, &why);
    CHECK(f && !why, "accepts the same bytes at their size");
    rt_facts_free(f);
  }
  f = rt_facts_parse(NULL, 0, 0, &why);
  CHECK(!f && why, "rejects no blob");

  /* nodes */
  unsigned addop = find_op(&good, GSAN_FN_ADD), pr = 2; /* node 2: ny, parameter 2 */
  CHECK(good.node[pr].op == GSAN_FN_PARAM && good.node[pr].a == 2, "node 2 reads parameter 2");
  bad = good;
  bad.node[addop].a = (uint16_t)addop;
  {
    bl ok = good;
    ok.node[addop].a = (uint16_t)(addop - 1);
    reject(&bad, &ok, "an operand a that is the node itself");
    bad = good;
    bad.node[addop].b = (uint16_t)(addop + 1);
    reject(&bad, &ok, "an operand b that is a later node");
    bad = good;
    bad.node[addop].a = 0xffff;
    reject(&bad, &ok, "an operand a past every node");
  }
  unsigned shlop = find_op(&good, GSAN_FN_SHL);
  bad = good;
  bad.node[shlop].a = (uint16_t)shlop;
  {
    bl ok = good;
    ok.node[shlop].a = (uint16_t)(shlop - 1);
    reject(&bad, &ok, "a unary operand that is the node itself");
  }
  for (int op = 0; op < 20; op += 18) { /* 0 and 18 */
    bad = good;
    bad.node[addop].op = (uint8_t)op;
    reject(&bad, &good, op ? "op 18 (past OR)" : "op 0");
  }
  bad = good;
  bad.node[pr].a = 3;
  reject(&bad, &good, "a parameter index equal to nparams");
  bad = good;
  bad.node[pr].imm = 4097;
  {
    bl ok = good;
    ok.node[pr].imm = 4096;
    reject(&bad, &ok, "a parameter offset past 4096");
    bad.node[pr].imm = -1;
    reject(&bad, &ok, "a negative parameter offset");
  }
  bad = good;
  bad.node[shlop].imm = 64;
  {
    bl ok = good;
    ok.node[shlop].imm = 63;
    reject(&bad, &ok, "shl.b64 by 64");
    bad.node[shlop].imm = -1;
    reject(&bad, &ok, "shl by -1");
  }
  {
    bl b32, b32ok;
    bl_init(&b32, 0);
    unsigned t = sr(&b32, GSAN_SR_TID_X);
    shr(&b32, 32, 1, t, 32);
    b32ok = b32;
    b32ok.node[1].imm = 31;
    reject(&b32, &b32ok, "shr.s32 by 32");
    b32.node[1].op = GSAN_FN_DIV;
    b32.node[1].imm = 0;
    b32ok.node[1].op = GSAN_FN_DIV;
    b32ok.node[1].imm = 1;
    reject(&b32, &b32ok, "div by 0");
    b32.node[1].imm = -4;
    reject(&b32, &b32ok, "div by -4");
    b32.node[1].op = GSAN_FN_REM;
    b32.node[1].imm = 0;
    b32ok.node[1].op = GSAN_FN_REM;
    reject(&b32, &b32ok, "rem by 0");
    b32.node[1].op = GSAN_FN_AND;
    b32.node[1].imm = -1;
    b32ok.node[1].op = GSAN_FN_AND;
    b32ok.node[1].imm = 0;
    reject(&b32, &b32ok, "and with a negative mask");
    b32.node[0].imm = GSAN_SR_COUNT;
    b32.node[1].imm = 0;
    b32ok.node[0].imm = GSAN_SR_COUNT - 1;
    reject(&b32, &b32ok, "special register GSAN_SR_COUNT");
    b32.node[0].imm = -1;
    reject(&b32, &b32ok, "special register -1");
    b32 = b32ok;
    b32.node[0].bits = 12;
    reject(&b32, &b32ok, "a node 12 bits wide");
    b32 = b32ok;
    b32.node[1].sgn = 2;
    reject(&b32, &b32ok, "a node's sign 2");
    b32 = b32ok;
    b32.node[0].op = GSAN_FN_SYM;
    b32.node[0].imm = 0x10000;
    b32ok.node[0].op = GSAN_FN_SYM;
    b32ok.node[0].imm = 0xffff;
    reject(&b32, &b32ok, "variable 0x10000");
    b32 = b32ok;
    b32.node[1] = (gsan_fact_node){GSAN_FN_MULWIDE, 8, 0, 0, 0, 0, 0};
    b32ok.node[1] = (gsan_fact_node){GSAN_FN_MULWIDE, 64, 0, 0, 0, 0, 0};
    reject(&b32, &b32ok, "mul.wide of 4-bit halves");
    /* operands of another width than the operation reads */
    b32 = b32ok;
    b32.node[1] = (gsan_fact_node){GSAN_FN_MULWIDE, 32, 0, 0, 0, 0, 0};
    reject(&b32, &b32ok, "mul.wide.u16 of a 32-bit node");
    b32.node[1] = (gsan_fact_node){GSAN_FN_ADD, 64, 0, 0, 0, 0, 0};
    b32ok.node[1] = (gsan_fact_node){GSAN_FN_ADD, 32, 0, 0, 0, 0, 0};
    reject(&b32, &b32ok, "a 64-bit add of 32-bit nodes");
  }
  /* conditions */
  bad = good;
  bad.cond[0].cmp = GSAN_FC_EQ + 1;
  {
    bl ok = good;
    ok.cond[0].cmp = GSAN_FC_EQ;
    reject(&bad, &ok, "a comparison past EQ");
  }
  bad = good;
  bad.cond[1].a = (uint16_t)good.nn;
  {
    bl ok = good;
    ok.cond[1].a = (uint16_t)(good.nn - 1);
    reject(&bad, &ok, "a condition's node a past the nodes");
    bad = good;
    bad.cond[1].b = (uint16_t)good.nn;
    reject(&bad, &ok, "a condition's node b past the nodes");
  }
  bad = good;
  bad.cond[2].bits = 0;
  reject(&bad, &good, "a condition 0 bits wide");
  bad = good;
  bad.cond[2].sgn = 3;
  reject(&bad, &good, "a condition's sign 3");
  /* facts */
  {
    bl ok = good;
    ok.fact[4].cond0 = 0;
    ok.fact[4].nconds = (uint8_t)good.nc;
    bad = ok;
    bad.fact[4].nconds = (uint8_t)(good.nc + 1);
    reject(&bad, &ok, "a fact's conditions past nconds");
    bad = ok;
    bad.fact[4].cond0 = 1;
    reject(&bad, &ok, "a fact's conditions from 1 past nconds");
    bad = ok;
    bad.fact[4].cond0 = 0xffff;
    bad.fact[4].nconds = 2;
    reject(&bad, &ok, "a fact's conditions from 0xffff");
  }
  bad = good;
  bad.fact[0].addr = (uint16_t)good.nn;
  reject(&bad, &good, "a fact's address past the nodes");
  bad = good;
  bad.fact[0].lo = 5;
  bad.fact[0].hi = 4;
  {
    bl ok = good;
    ok.fact[0].lo = 4;
    ok.fact[0].hi = 4;
    reject(&bad, &ok, "a fact with lo > hi");
  }
  bad = good;
  bad.fact[0].root = 0;
  reject(&bad, &good, "root 0");
  bad.fact[0].root = GSAN_FR_DYNAMIC + 1;
  reject(&bad, &good, "root 4");
  bad = good;
  bad.fact[0].word = GSAN_LAUNCH_MAX_BYTES / 8;
  {
    bl ok = good;
    ok.fact[0].word = GSAN_LAUNCH_MAX_BYTES / 8 - 1;
    reject(&bad, &ok, "a pointer word past the launch's bytes");
  }
  /* counts past the ABI's */
  {
    size_t n = GSAN_FACTS_MAX_NODES + 1;
    size_t len = sizeof(gsan_facts_header) + n * sizeof(gsan_fact_node);
    unsigned char *buf = calloc(1, len);
    gsan_facts_header h = {GSAN_FACTS_MAGIC, GSAN_ABI_VERSION, (uint16_t)n, 0, 0, 0};
    gsan_fact_node imm0 = {GSAN_FN_IMM, 32, 0, 0, 0, 0, 7};
    memcpy(buf, &h, sizeof h);
    for (size_t i = 0; i < n; i++) memcpy(buf + sizeof h + i * sizeof imm0, &imm0, sizeof imm0);
    f = rt_facts_parse(buf, len, 0, &why);
    CHECK(!f && why, "rejects %zu nodes", n);
    rt_facts_free(f);
    h.nnodes = (uint16_t)(n - 1);
    memcpy(buf, &h, sizeof h);
    f = rt_facts_parse(buf, len - sizeof imm0, 0, &why);
    CHECK(f && !why && rt_facts_count(f) == 0, "accepts %zu nodes", n - 1);
    fake fk;
    fake_init(&fk);
    rt_proof_launch l = launch(&fk, 1, 1, 1, 1);
    CHECK(rt_facts_hold(f, &l) == 1, "4096 nodes and no fact: nothing to disprove");
    rt_facts_free(f);
    free(buf);
  }
  /* the empty blob and NULLs */
  {
    bl e;
    fake fk;
    fake_init(&fk);
    rt_proof_launch l = launch(&fk, 1, 1, 1, 1);
    bl_init(&e, 0);
    f = parse(&e, 0, &why);
    CHECK(f && rt_facts_count(f) == 0 && rt_facts_hold(f, &l) == 1, "a blob of no facts holds");
    CHECK(rt_facts_hold(f, NULL) == 0, "no launch: nothing holds");
    rt_facts_free(f);
    CHECK(rt_facts_hold(NULL, &l) == 0 && rt_facts_count(NULL) == 0, "no facts: nothing holds");
    rt_facts_free(NULL);
  }
}

/* ---- every byte of a valid blob flipped ---- */

static void test_flips(void) {
  bl b;
  fake f;
  stencil(&b, -1);
  ser(&b);
  jacobi_fake(&f, 100, 90, 100 * 90 * 4);
  setp(&f, 3, 8, A1); /* a word that a flipped fact may name */
  rt_proof_launch ls[3] = {launch(&f, 7, 6, 16, 16), launch3(&f, 2, 3, 2, 33, 2, 1), launch(&f, 0xffffffffu, 1, 1024, 1)};
  ls[1].dynamic_smem = 1000;
  static const unsigned char masks[] = {0x01, 0x02, 0x04, 0x10, 0x40, 0x80, 0xff};
  unsigned mutants = 0, rejected = 0, held = 0, failed = 0, bad = 0;
  unsigned char buf[sizeof b.buf];
  for (size_t i = 0; i < b.len; i++)
    for (size_t m = 0; m < sizeof masks; m++) {
      memcpy(buf, b.buf, b.len);
      buf[i] ^= masks[m];
      mutants++;
      const char *why = NULL;
      rt_facts *ff = rt_facts_parse(buf, b.len, 3, &why);
      if (!ff) {
        rejected++;
        if (!why) bad++;
        continue;
      }
      for (int k = 0; k < 3; k++) {
        int r = rt_facts_hold(ff, &ls[k]);
        if (r == 1) held++;
        else if (r == 0) failed++;
        else bad++;
      }
      rt_facts_free(ff);
    }
  CHECK(bad == 0, "%u flipped blobs parsed without a reason or evaluated to neither 0 nor 1", bad);
  CHECK(rejected > 0 && held > 0 && failed > 0, "the flips reach the parser's rejections, and facts that hold and fail");
  printf("flips: %u mutants, %u rejected, %u evaluations held, %u failed\n", mutants, rejected, held, failed);
}

/* ---- random blobs against the machine's arithmetic ---- */

typedef struct rng {
  uint64_t s;
} rng;
static uint64_t rnd(rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static unsigned pick(rng *r, unsigned n) { return (unsigned)(rnd(r) % n); }

static uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static int64_t sext(uint64_t v, unsigned bits) {
  v &= mask(bits);
  if (bits < 64 && (v >> (bits - 1) & 1)) v |= ~mask(bits);
  return (int64_t)v;
}

typedef struct thr {
  unsigned tid[3], ctaid[3], lane;
} thr;

/* every node's value in thread t (masked to its bits); syms: the variables'
 * addresses; 0 when a parameter cannot be read */
static int concrete(const bl *b, const rt_proof_launch *l, const thr *t, const uint64_t *syms, uint64_t *v) {
  for (unsigned i = 0; i < b->nn; i++) {
    const gsan_fact_node *x = &b->node[i];
    unsigned w = x->bits, h = w / 2;
    uint64_t a = v[x->a], c = v[x->b], r = 0, m = mask(w);
    switch (x->op) {
    case GSAN_FN_IMM: r = (uint64_t)x->imm; break;
    case GSAN_FN_PARAM:
      if (!l->param(l->ctx, x->a, (uint64_t)x->imm, w / 8, &r)) return 0;
      break;
    case GSAN_FN_SREG:
      switch (x->imm) {
      case GSAN_SR_TID_X: case GSAN_SR_TID_Y: case GSAN_SR_TID_Z: r = t->tid[x->imm - GSAN_SR_TID_X]; break;
      case GSAN_SR_NTID_X: case GSAN_SR_NTID_Y: case GSAN_SR_NTID_Z: r = l->block[x->imm - GSAN_SR_NTID_X]; break;
      case GSAN_SR_CTAID_X: case GSAN_SR_CTAID_Y: case GSAN_SR_CTAID_Z: r = t->ctaid[x->imm - GSAN_SR_CTAID_X]; break;
      case GSAN_SR_NCTAID_X: case GSAN_SR_NCTAID_Y: case GSAN_SR_NCTAID_Z: r = l->grid[x->imm - GSAN_SR_NCTAID_X]; break;
      case GSAN_SR_LANEID: r = t->lane; break;
      default: r = l->dynamic_smem; break;
      }
      break;
    case GSAN_FN_SYM: r = syms[x->imm & 15]; break;
    case GSAN_FN_ADD: r = a + c; break;
    case GSAN_FN_SUB: r = a - c; break;
    case GSAN_FN_MUL: r = a * c; break;
    case GSAN_FN_MULWIDE:
      r = x->sgn ? (uint64_t)(sext(a, h) * sext(c, h)) : (a & mask(h)) * (c & mask(h));
      break;
    case GSAN_FN_SHL: r = a << x->imm; break;
    case GSAN_FN_SHR: r = x->sgn ? (uint64_t)(sext(a, w) >> x->imm) : (a & m) >> x->imm; break;
    case GSAN_FN_DIV: r = x->sgn ? (uint64_t)(sext(a, w) / x->imm) : (a & m) / (uint64_t)x->imm; break;
    case GSAN_FN_REM: r = x->sgn ? (uint64_t)(sext(a, w) % x->imm) : (a & m) % (uint64_t)x->imm; break;
    case GSAN_FN_AND: r = a & (uint64_t)x->imm; break;
    case GSAN_FN_OR: r = a | (uint64_t)x->imm; break;
    case GSAN_FN_MIN: case GSAN_FN_MAX: {
      int less = x->sgn ? sext(a, w) < sext(c, w) : (a & m) < (c & m);
      r = (x->op == GSAN_FN_MIN) == less ? a : c;
      break;
    }
    case GSAN_FN_CVT: {
      unsigned fw = b->node[x->a].bits;
      r = w <= fw ? a : x->sgn ? (uint64_t)sext(a, fw) : a & mask(fw);
      break;
    }
    default: return 0;
    }
    v[i] = r & m;
  }
  return 1;
}

static int cond_true(const bl *b, const gsan_fact_cond *c, const uint64_t *v) {
  uint64_t a = v[c->a], d = v[c->b];
  int lt, eq;
  (void)b;
  if (c->sgn) {
    int64_t x = sext(a, c->bits), y = sext(d, c->bits);
    lt = x < y, eq = x == y;
  } else {
    uint64_t x = a & mask(c->bits), y = d & mask(c->bits);
    lt = x < y, eq = x == y;
  }
  switch (c->cmp) {
  case GSAN_FC_LT: return lt;
  case GSAN_FC_LE: return lt || eq;
  case GSAN_FC_GT: return !lt && !eq;
  case GSAN_FC_GE: return !lt;
  default: return eq;
  }
}

/* a random node of `bits` bits */
static unsigned leaf(bl *b, rng *r, unsigned w) {
  static const int64_t small[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, 1000,
                                  -1, -2, -4, -5, -100, 0x7fffffff, -0x7fffffff - 1, 0x7ffffff0, 0x10000000,
                                  0xffffffffll, 0x100000000ll, INT64_MAX, INT64_MIN};
  switch (pick(r, 8)) {
  case 0: case 1: case 2: case 3: { /* a special register */
    static const int regs[] = {GSAN_SR_TID_X, GSAN_SR_TID_X, GSAN_SR_TID_X, GSAN_SR_TID_Y, GSAN_SR_TID_Z,
                               GSAN_SR_NTID_X, GSAN_SR_NTID_Y, GSAN_SR_NTID_Z, GSAN_SR_CTAID_X, GSAN_SR_CTAID_X,
                               GSAN_SR_CTAID_Y, GSAN_SR_CTAID_Z, GSAN_SR_NCTAID_X, GSAN_SR_NCTAID_Y,
                               GSAN_SR_NCTAID_Z, GSAN_SR_LANEID, GSAN_SR_DYNAMIC_SMEM};
    int code = regs[pick(r, sizeof regs / sizeof *regs)];
    if (w == 32 || pick(r, 3) == 0) return srw(b, w, code);
    return cvt(b, w, pick(r, 2), sr(b, code));
  }
  case 4: case 5: { /* an immediate */
    int64_t v = small[pick(r, sizeof small / sizeof *small)];
    if (pick(r, 8) == 0) v = (int64_t)rnd(r);
    return imm(b, w, v);
  }
  default: /* a parameter: 1..3 int, 4 long, 5 short */
    if (w == 64) return pick(r, 2) ? par(b, 64, pick(r, 2), 4, 0) : cvt(b, 64, pick(r, 2), par(b, 32, pick(r, 2), 1 + pick(r, 3), 0));
    if (w == 32) return pick(r, 4) ? par(b, 32, pick(r, 2), 1 + pick(r, 3), 0) : par(b, 32, pick(r, 2), 4, 4 * pick(r, 2));
    if (w == 16) return pick(r, 2) ? par(b, 16, pick(r, 2), 5, 0) : par(b, 16, pick(r, 2), 1 + pick(r, 3), 2 * pick(r, 2));
    return par(b, 8, pick(r, 2), 1 + pick(r, 3), pick(r, 4));
  }
}

static unsigned gen(bl *b, rng *r, unsigned w, int d) {
  static const unsigned widths[] = {8, 16, 32, 32, 64, 64};
  if (d <= 0 || b->nn > MAXN - 40 || pick(r, 5) == 0) return leaf(b, r, w);
  unsigned s = pick(r, 2);
  switch (pick(r, 16)) {
  case 15: { /* lane | 32 and its kind: a multiple of a power of two, or anything */
    int64_t m = pick(r, 2) ? (int64_t)(1 + pick(r, 8)) << pick(r, 10) : (int64_t)pick(r, 300);
    return ori(b, w, gen(b, r, w, d - 1), m);
  }
  case 0: case 1: return add(b, w, gen(b, r, w, d - 1), gen(b, r, w, d - 1));
  case 2: return sub(b, w, gen(b, r, w, d - 1), gen(b, r, w, d - 1));
  case 3: return mul(b, w, gen(b, r, w, d - 1), gen(b, r, w, d - 1));
  case 4:
    if (w < 16) return leaf(b, r, w);
    return mulw(b, w, s, gen(b, r, w / 2, d - 1), gen(b, r, w / 2, d - 1));
  case 5: return shl(b, w, gen(b, r, w, d - 1), pick(r, 4) ? pick(r, 4) : pick(r, w));
  case 6: return shr(b, w, s, gen(b, r, w, d - 1), pick(r, 4) ? pick(r, 6) : pick(r, w));
  case 7: return divi(b, w, s, gen(b, r, w, d - 1), pick(r, 2) ? 1 + pick(r, 40) : (int64_t)1 << pick(r, w - 1));
  case 8: return remi(b, w, s, gen(b, r, w, d - 1), pick(r, 2) ? 1 + pick(r, 40) : (int64_t)1 << pick(r, w - 1));
  case 9: {
    int64_t m = pick(r, 3) ? ((int64_t)1 << pick(r, 12)) - 1 : pick(r, 2) ? (int64_t)pick(r, 100) : (int64_t)(rnd(r) >> 1);
    return andi(b, w, gen(b, r, w, d - 1), m);
  }
  case 10: return mn(b, w, s, gen(b, r, w, d - 1), gen(b, r, w, d - 1));
  case 11: return mx(b, w, s, gen(b, r, w, d - 1), gen(b, r, w, d - 1));
  case 12: case 13: return cvt(b, w, s, gen(b, r, widths[pick(r, 6)], d - 1));
  default: return leaf(b, r, w);
  }
}

/* a random address for a root: the fact's node */
static unsigned gen_addr(bl *b, rng *r, int root, unsigned *bits) {
  int d = 1 + (int)pick(r, 4);
  if (root == GSAN_FR_WORD) {
    unsigned p = par(b, 64, 0, 0, 0), off;
    *bits = 64;
    switch (pick(r, 4)) {
    case 0: off = shl(b, 64, cvt(b, 64, pick(r, 2), gen(b, r, 32, d)), pick(r, 4)); break;
    case 1: off = mulw(b, 64, pick(r, 2), gen(b, r, 32, d), imm(b, 32, (int64_t)1 << pick(r, 4))); break;
    case 2: off = shl(b, 64, cvt(b, 64, pick(r, 2), mn(b, 32, pick(r, 2), gen(b, r, 32, d), gen(b, r, 32, d))), 2); break;
    default: off = gen(b, r, 64, d); break;
    }
    switch (pick(r, 4)) {
    case 0: return add(b, 64, off, p);
    case 1: return sub(b, 64, p, off);
    default: return add(b, 64, p, off);
    }
  }
  unsigned w = pick(r, 3) ? 32 : 64, id = root == GSAN_FR_VAR ? 2 : 5;
  unsigned s = sym(b, w, pick(r, 16) ? id : 9), off = gen(b, r, w, d);
  *bits = w;
  switch (pick(r, 7)) {
  case 0: return add(b, w, off, s);
  case 1: return sub(b, w, s, off);
  case 2: return add(b, w, s, sub(b, w, add(b, w, s, off), s));            /* s - s cancels */
  case 3: return add(b, w, add(b, w, s, off), imm(b, w, (int64_t)pick(r, 16) - 8));
  case 4: return sub(b, w, add(b, w, s, off), sub(b, w, s, s));           /* s - s = 0 */
  default: return add(b, w, s, off);
  }
}

/* the fact in thread t: bytes [A + lo, A + hi) inside its root */
static int inside_thread(const bl *b, const gsan_fact *x, const uint64_t *v, const fake *f, uint64_t smem,
                         const uint64_t *syms) {
  unsigned w = b->node[x->addr].bits;
  uint64_t a = v[x->addr];
  i128 len = (i128)x->hi - x->lo;
  if (x->root == GSAN_FR_WORD) {
    uint64_t start = a + (uint64_t)(int64_t)x->lo;
    return start >= f->al[0].base && (i128)start + len <= (i128)f->al[0].base + f->al[0].size;
  }
  uint64_t off = (a + (uint64_t)(int64_t)x->lo - syms[x->word & 15]) & mask(w);
  return (i128)off + len <= (i128)(x->root == GSAN_FR_DYNAMIC ? smem : x->size);
}

/* for each thread of the launch that passes the fact's guards, fn */
typedef struct walk {
  i128 lo, hi; /* the accesses' first and last bytes (start, start + len) over the threads */
  int any, all_inside, unreadable;
} walk;

static void each_thread(const bl *b, const rt_proof_launch *l, const fake *f, const uint64_t *syms, walk *wk) {
  uint64_t v[MAXN] = {0};
  const gsan_fact *x = &b->fact[0];
  unsigned w = b->node[x->addr].bits;
  memset(wk, 0, sizeof *wk);
  wk->all_inside = 1;
  thr t;
  for (t.ctaid[2] = 0; t.ctaid[2] < l->grid[2]; t.ctaid[2]++)
    for (t.ctaid[1] = 0; t.ctaid[1] < l->grid[1]; t.ctaid[1]++)
      for (t.ctaid[0] = 0; t.ctaid[0] < l->grid[0]; t.ctaid[0]++)
        for (t.tid[2] = 0; t.tid[2] < l->block[2]; t.tid[2]++)
          for (t.tid[1] = 0; t.tid[1] < l->block[1]; t.tid[1]++)
            for (t.tid[0] = 0; t.tid[0] < l->block[0]; t.tid[0]++) {
              t.lane = (t.tid[0] + l->block[0] * (t.tid[1] + l->block[1] * t.tid[2])) % 32;
              if (!concrete(b, l, &t, syms, v)) {
                wk->unreadable = 1;
                return;
              }
              int pass = 1;
              for (unsigned k = x->cond0; k < x->cond0 + x->nconds; k++) pass &= cond_true(b, &b->cond[k], v);
              if (!pass) continue;
              uint64_t start = x->root == GSAN_FR_WORD
                                   ? v[x->addr] + (uint64_t)(int64_t)x->lo
                                   : (v[x->addr] + (uint64_t)(int64_t)x->lo - syms[x->word & 15]) & mask(w);
              i128 s = start, e = (i128)start + x->hi - x->lo;
              if (!wk->any || s < wk->lo) wk->lo = s;
              if (!wk->any || e > wk->hi) wk->hi = e;
              wk->any = 1;
              wk->all_inside &= inside_thread(b, x, v, f, l->dynamic_smem, syms);
            }
}

static void dump(const bl *b, const rt_proof_launch *l, const fake *f) {
  fprintf(stderr, "  launch grid %u %u %u block %u %u %u dynamic %llu; params", l->grid[0], l->grid[1], l->grid[2],
          l->block[0], l->block[1], l->block[2], (unsigned long long)l->dynamic_smem);
  for (unsigned i = 0; i < f->np; i++) {
    uint64_t v = 0;
    f_word((void *)f, i, &v);
    fprintf(stderr, " %#llx", (unsigned long long)v);
  }
  fprintf(stderr, "; alloc [%#llx, +%#llx)\n", (unsigned long long)f->al[0].base, (unsigned long long)f->al[0].size);
  for (unsigned i = 0; i < b->nn; i++) {
    const gsan_fact_node *x = &b->node[i];
    fprintf(stderr, "  n%u: op %u bits %u sgn %u a %u b %u imm %lld\n", i, x->op, x->bits, x->sgn, x->a, x->b,
            (long long)x->imm);
  }
  for (unsigned i = 0; i < b->nc; i++) {
    const gsan_fact_cond *c = &b->cond[i];
    fprintf(stderr, "  c%u: n%u cmp %u n%u bits %u sgn %u\n", i, c->a, c->cmp, c->b, c->bits, c->sgn);
  }
  const gsan_fact *x = &b->fact[0];
  fprintf(stderr, "  fact: n%u root %u word %u [%d, %d) size %llu conds %u+%u\n", x->addr, x->root, x->word, x->lo,
          x->hi, (unsigned long long)x->size, x->cond0, x->nconds);
}

static void test_random(unsigned iters, uint64_t seed) {
  rng r = {seed};
  unsigned proven = 0, truth = 0, unsound = 0, unreadable = 0, rejected = 0;
  static const int64_t ints[] = {0, 1, 2, 3, 5, 7, 16, 31, 32, 33, 100, 127, 128, 255, 256, 1000, -1, -2, -5, -100,
                                 0x7fffffff, -0x7fffffff - 1, 0x7ffffff0, 0x10000000};
  static const uint64_t syms32[] = {0x100, 0xffffff00ull, 0x7ffffff8ull, 0};
  static const uint64_t syms64[] = {0x100, 0xffffffffffffff00ull, 0x7ffffffffffffff8ull, 0x80000000ull};
  for (unsigned it = 0; it < iters; it++) {
    bl b;
    fake f;
    fake_init(&f);
    f.any = 1;
    bl_init(&b, 6);
    int root = pick(&r, 5) < 3 ? GSAN_FR_WORD : pick(&r, 3) ? GSAN_FR_VAR : GSAN_FR_DYNAMIC;
    unsigned bits;
    unsigned addr = gen_addr(&b, &r, root, &bits);
    unsigned nconds = pick(&r, 4);
    for (unsigned k = 0; k < nconds; k++) {
      unsigned a = pick(&r, b.nn), w = b.node[a].bits, o;
      unsigned tries = 0;
      do o = pick(&r, b.nn);
      while (b.node[o].bits != w && ++tries < 20);
      if (b.node[o].bits != w || pick(&r, 2)) o = imm(&b, w, (int64_t)pick(&r, 40) - 4);
      /* a test of a node's value plus a constant (c < n of c = lane + 32, lane | 32):
       * what it says of the node itself is pushed down to it */
      switch (pick(&r, 6)) {
      case 0: a = add(&b, w, a, imm(&b, w, (int64_t)pick(&r, 64) - 8)); break;
      case 1: a = sub(&b, w, a, imm(&b, w, (int64_t)pick(&r, 64) - 8)); break;
      case 2: a = ori(&b, w, a, (int64_t)1 << pick(&r, 8)); break;
      case 3: a = sub(&b, w, imm(&b, w, (int64_t)pick(&r, 200)), a); break;
      default: break;
      }
      if (pick(&r, 2)) cond(&b, a, (int)pick(&r, 5), o, w, pick(&r, 2));
      else cond(&b, o, (int)pick(&r, 5), a, w, pick(&r, 2));
    }
    int32_t lo = (int32_t)pick(&r, 17) - 8, hi = lo + (int32_t)(pick(&r, 5) ? 1u << pick(&r, 4) : 0);
    unsigned word = root == GSAN_FR_WORD ? 0 : root == GSAN_FR_VAR ? 2 : 5;
    fact(&b, addr, root, word, lo, hi, 0, 0, nconds);
    setp(&f, 0, 8, ARENA_LO + 0x10000 + 16 * pick(&r, 4096));
    for (unsigned i = 1; i <= 3; i++) setp(&f, i, 4, (uint32_t)ints[pick(&r, sizeof ints / sizeof *ints)]);
    setp(&f, 4, 8, pick(&r, 4) ? (uint64_t)ints[pick(&r, sizeof ints / sizeof *ints)] : rnd(&r));
    setp(&f, 5, 2, (uint16_t)ints[pick(&r, sizeof ints / sizeof *ints)]);
    rt_proof_launch l = launch3(&f, 1 + pick(&r, 3), 1 + pick(&r, 2), 1 + pick(&r, 2), 1 + pick(&r, 4),
                                1 + pick(&r, 3), 1 + pick(&r, 2));
    if (pick(&r, 10) == 0) l.block[0] = 33 + pick(&r, 8); /* two warps */
    l.dynamic_smem = 4 * pick(&r, 64);
    uint64_t syms[16] = {0};
    const uint64_t *sv = bits == 32 ? syms32 : syms64;
    /* size the root around where the accesses fall, just in or just out */
    walk wk;
    syms[2] = syms[5] = syms[9] = sv[0];
    each_thread(&b, &l, &f, syms, &wk);
    if (wk.unreadable) {
      unreadable++;
      continue;
    }
    static const int e1s[] = {0, 0, 0, 1, -4, -64}, e2s[] = {0, 0, 0, -1, 4, 64};
    i128 e1 = wk.any ? e1s[pick(&r, 6)] : 0, e2 = e2s[pick(&r, 6)];
    i128 top = (i128)1 << 64;
    if (root == GSAN_FR_WORD) {
      i128 base = wk.any ? wk.lo + e1 : (i128)f.al[0].base, size = wk.any ? wk.hi - base + e2 : 64;
      if (base < 0) base = 0;
      if (base >= top) base = top - 1;
      if (size < 0) size = 0;
      if (size >= top) size = top - 1;
      f.al[0].base = (uint64_t)base;
      f.al[0].size = (uint64_t)size;
      f.al[0].live = 1;
      f.na = 1;
    } else {
      i128 size = wk.any ? wk.hi + e2 : 64;
      if (size < 0) size = 0;
      if (size >= top) size = top - 1;
      if (root == GSAN_FR_VAR) b.fact[0].size = (uint64_t)size;
      else l.dynamic_smem = (uint64_t)size; /* a node may read it: the truth is taken after */
    }
    int holds = run(&b, &l);
    if (holds < 0) {
      rejected++;
      continue;
    }
    /* the truth, for several addresses of the variables */
    int all = 1;
    for (unsigned k = 0; k < 4 && all; k++) {
      syms[2] = syms[5] = syms[9] = sv[k];
      syms[9] ^= 0x40;
      each_thread(&b, &l, &f, syms, &wk);
      all &= !wk.unreadable && wk.all_inside;
    }
    proven += holds == 1;
    truth += all;
    if (holds == 1 && !all) {
      if (unsound++ < 5) {
        fprintf(stderr, "test_proof: random blob %u proven but a thread falls outside:\n", it);
        dump(&b, &l, &f);
      }
    }
  }
  CHECK(unsound == 0, "%u random blobs proven where a thread falls outside its root", unsound);
  CHECK(rejected == 0, "%u random blobs rejected by the parser", rejected);
  CHECK(proven > iters / 20 && truth > proven, "the random blobs prove some facts (%u) and not every true one (%u)",
        proven, truth);
  printf("random: %u blobs, %u proven, %u true, %u unsound\n", iters, proven, truth, unsound);
}

int main(int argc, char **argv) {
  /* optional: the random part's blob count and seed */
  unsigned iters = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 20000;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed1234abcdull;
  test_jacobi();
  test_stencil();
  test_vacuous();
  test_hotspot();
  test_push_down();
  test_wrap();
  test_shared();
  test_dynamic();
  test_bounds();
  test_params();
  test_ops();
  test_truncate();
  test_conds();
  test_cond_width();
  test_parse();
  test_flips();
  test_random(iters, seed);
  printf("%d checks; %d failed\n", checks, failures);
  return failures != 0;
}
