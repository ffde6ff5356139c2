/* Launch proofs (ABI 5, docs/abi.md "Launch proofs"): the checks of a
 * kernel that the host can decide at launch. An access whose address is
 * computed from the kernel's parameters, its thread and block indices and
 * the launch's dimensions alone (through add, sub, neg, not, mul, mad, shl,
 * shr, div, rem, and/or with a literal, min, max and cvt) is the same
 * function of the launch in every thread, and so are the tests that guard
 * it (the branches into the blocks that dominate it, its own predicate).
 * Such a check becomes a fact: an expression DAG the runtime evaluates in
 * interval arithmetic over all the launch's threads (rt_proof.c). The
 * kernel's proven copy leaves these checks out; the runtime launches it
 * only when every fact holds.
 *
 * A register qualifies where one definition alone reaches its use and
 * dominates it, unpredicated, and that definition's operands qualify in
 * turn: it then holds one value per thread there, also inside loops.
 * Nothing here decides that an access is in bounds; it only writes down
 * what the runtime needs to decide it. */
#include "ptx_proof.h"

#include "ptx_buf.h"
#include "ptx_launch.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64, MAX_CONDS_PER_FACT = 32, BUILDING = -2, FAILED = -1, NO_OPND = -1000 };
/* node hash: twice the most nodes a blob holds, so a probe always ends */
#define HASH_SLOTS (2 * GSAN_FACTS_MAX_NODES)

struct ptx_proof {
  ptx_fstate *fs;
  gsan_fact_node *node;
  int nnode, capnode;
  int hash[HASH_SLOTS];       /* node indices by content, -1 free */
  int *slot_of;               /* per node: its slot in hash */
  gsan_fact_cond *cond;
  int ncond, capcond;
  gsan_fact *fact;
  int nfact, capfact;
  int *def_node;              /* per definition: its node, FAILED, BUILDING or NOT_TRIED */
  uint8_t *call_writes;       /* per register: a call returns into it */
  const ptx_symbol **sym;     /* the variables GSAN_FN_SYM names, by index (while the function is analysed) */
  const char **symname;       /* ... and their names, kept for ptx_proof_decl */
  int nsym;
  int nparams;
  int *log, nlog, caplog;     /* definitions given a node, in order: undone when a fact is not kept */
  int *line;                  /* per fact: the PTX line of its access */
  /* the conditions of the access being planned, before they are added */
  gsan_fact_cond pending[MAX_CONDS_PER_FACT];
  int npending;
};

#define NOT_TRIED (BUILDING - 1)

static void *grow(void *p, int *cap, int n, size_t elem) {
  if (n < *cap) return p;
  *cap = *cap ? 2 * *cap : 64;
  return realloc(p, (size_t)*cap * elem);
}

static int add_node(ptx_proof *p, int op, int bits, int sgn, int a, int b, int64_t imm);

/* Is node t (x >>s (bits - 1)) >>u (bits - k), the bias nvcc adds to a
 * negative x before an arithmetic shift by k, so that it rounds toward 0? */
static int is_bias(const ptx_proof *p, int t, int x, int bits, int64_t k) {
  const gsan_fact_node *o = &p->node[t], *i = &p->node[o->a];
  return o->op == GSAN_FN_SHR && !o->sgn && o->bits == bits && o->imm == bits - k && i->op == GSAN_FN_SHR &&
         i->sgn && i->a == x && i->imm == bits - 1;
}

/* x when node t is x + bias(x, k) (either order), else -1 */
static int biased(const ptx_proof *p, int t, int bits, int64_t k) {
  const gsan_fact_node *n = &p->node[t];
  if (n->op != GSAN_FN_ADD || n->bits != bits) return -1;
  if (is_bias(p, n->b, n->a, bits, k)) return n->a;
  if (is_bias(p, n->a, n->b, bits, k)) return n->b;
  return -1;
}

/* nvcc's signed division and remainder by 2^k, written as the operation
 * itself: (x + bias) >>s k is x / 2^k, and x - ((x + bias) & -2^k) is
 * x % 2^k (both rounding toward 0). The interval arithmetic then keeps
 * that the remainder is small. -1 when op(a, b, imm) is neither. */
static int idiom(ptx_proof *p, int op, int bits, int sgn, int a, int b, int64_t imm) {
  /* a mask inside a widening, and under a shift: ext(y) & m is ext(y & m) for
   * m < 2^(width of y - 1), and (x << k) & m is (x & (m >> k)) << k when m's
   * low k bits are 0. layernorm reads u64(tid << 2) & 124 where its guard
   * tests tid & 31: written so, both are the one node (tid & 31). */
  if (op == GSAN_FN_AND && a >= 0 && imm >= 0) {
    /* a copy: the inner add_node may move p->node */
    const gsan_fact_node x = p->node[a];
    unsigned from = x.op == GSAN_FN_CVT ? p->node[x.a].bits : 0;
    if (x.op == GSAN_FN_CVT && from < (unsigned)bits && (uint64_t)imm < (1ull << (from - 1))) {
      int inner = add_node(p, GSAN_FN_AND, (int)from, 0, x.a, NO_OPND, imm);
      return add_node(p, GSAN_FN_CVT, bits, x.sgn, inner, NO_OPND, 0);
    }
    if (x.op == GSAN_FN_SHL && x.imm > 0 && x.imm < 63 && !(imm & ((1ll << x.imm) - 1))) {
      int inner = add_node(p, GSAN_FN_AND, bits, 0, x.a, NO_OPND, imm >> x.imm);
      return add_node(p, GSAN_FN_SHL, bits, 0, inner, NO_OPND, x.imm);
    }
  }
  if (op == GSAN_FN_SHR && sgn && imm > 0 && imm < bits - 1) {
    int x = biased(p, a, bits, imm);
    if (x >= 0) return add_node(p, GSAN_FN_DIV, bits, 1, x, NO_OPND, (int64_t)1 << imm);
  }
  if (op == GSAN_FN_SUB && b >= 0 && p->node[b].op == GSAN_FN_AND) {
    uint64_t mask = (uint64_t)p->node[b].imm, all = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t low = ~mask & all; /* 2^k - 1 */
    if (low && low < (all >> 1) && !((low + 1) & low) && (mask | low) == all) {
      int k = __builtin_popcountll(low);
      if (biased(p, p->node[b].a, bits, k) == a) return add_node(p, GSAN_FN_REM, bits, 1, a, NO_OPND, (int64_t)low + 1);
    }
  }
  return -1;
}

static int add_node(ptx_proof *p, int op, int bits, int sgn, int a, int b, int64_t imm) {
  if ((a < 0 && a != NO_OPND) || (b < 0 && b != NO_OPND) || p->nnode >= GSAN_FACTS_MAX_NODES) return FAILED;
  int same = idiom(p, op, bits, sgn, a, b, imm);
  if (same >= 0) return same;
  gsan_fact_node x = {(uint8_t)op, (uint8_t)bits, (uint8_t)sgn, 0, (uint16_t)(a < 0 ? 0 : a), (uint16_t)(b < 0 ? 0 : b),
                      imm};
  /* one node per value: the same operation on the same operands (a
   * literal, a value two registers compute) is the same node, so that a
   * test of either narrows both */
  uint64_t h = ((uint64_t)x.op << 56 ^ (uint64_t)x.bits << 48 ^ (uint64_t)x.sgn << 40 ^ (uint64_t)x.a << 20 ^ x.b) *
                   0x9E3779B97F4A7C15ull ^
               (uint64_t)x.imm * 0xC2B2AE3D27D4EB4Full;
  unsigned slot = (unsigned)(h >> 40) & (HASH_SLOTS - 1);
  for (unsigned k = 0; k < HASH_SLOTS && p->hash[slot] >= 0; k++, slot = (slot + 1) & (HASH_SLOTS - 1))
    if (!memcmp(&p->node[p->hash[slot]], &x, sizeof x)) return p->hash[slot];
  int cap = p->capnode;
  p->node = grow(p->node, &p->capnode, p->nnode, sizeof *p->node);
  if (cap != p->capnode) p->slot_of = realloc(p->slot_of, (size_t)p->capnode * sizeof *p->slot_of);
  p->node[p->nnode] = x;
  p->slot_of[p->nnode] = (int)slot;
  p->hash[slot] = p->nnode;
  return p->nnode++;
}

/* a literal as the instruction reads it: bits wide, sign- or zero-extended */
static int imm_node(ptx_proof *p, int64_t v, int bits, int sgn) {
  if (bits == 32) v = sgn ? (int64_t)(int32_t)v : (int64_t)(uint32_t)v;
  return add_node(p, GSAN_FN_IMM, bits, sgn, NO_OPND, NO_OPND, v);
}

static const struct { const char *name; int code; } sregs[] = {
    {"%tid.x", GSAN_SR_TID_X},       {"%tid.y", GSAN_SR_TID_Y},       {"%tid.z", GSAN_SR_TID_Z},
    {"%ntid.x", GSAN_SR_NTID_X},     {"%ntid.y", GSAN_SR_NTID_Y},     {"%ntid.z", GSAN_SR_NTID_Z},
    {"%ctaid.x", GSAN_SR_CTAID_X},   {"%ctaid.y", GSAN_SR_CTAID_Y},   {"%ctaid.z", GSAN_SR_CTAID_Z},
    {"%nctaid.x", GSAN_SR_NCTAID_X}, {"%nctaid.y", GSAN_SR_NCTAID_Y}, {"%nctaid.z", GSAN_SR_NCTAID_Z},
    {"%laneid", GSAN_SR_LANEID},     {"%dynamic_smem_size", GSAN_SR_DYNAMIC_SMEM}};

static int sym_index(ptx_proof *p, const ptx_symbol *s) {
  for (int i = 0; i < p->nsym; i++)
    if (p->sym[i] == s) return i;
  if (p->nsym > 0xffff) return -1;
  p->sym = realloc(p->sym, (size_t)(p->nsym + 1) * sizeof *p->sym);
  p->symname = realloc(p->symname, (size_t)(p->nsym + 1) * sizeof *p->symname);
  p->sym[p->nsym] = s;
  p->symname[p->nsym] = ptx_strndup(p->fs->m->arena, s->name, strlen(s->name));
  return p->nsym++;
}

static int value_at(ptx_proof *p, int reg, int use, int depth);

/* operand k of statement si, read as a bits-bit integer (sgn: how a
 * literal extends) */
static int operand(ptx_proof *p, int si, int k, int bits, int sgn, int depth) {
  ptx_fn *fn = &p->fs->fn;
  const ptx_stmt *s = fn->st[si];
  int64_t v;
  if (ptx_opnd_int(s, k, &v)) return imm_node(p, v, bits, sgn);
  const ptx_tok *t = ptx_opnd_tok(s, k);
  if (!t) return FAILED;
  int r = ptx_tok_reg(fn, t);
  if (r >= 0) return fn->regs.bits[r] == bits ? value_at(p, r, si, depth) : FAILED;
  if (bits != 32) return FAILED;
  for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
    if (ptx_tok_is(t, sregs[i].name)) return add_node(p, GSAN_FN_SREG, 32, 0, NO_OPND, NO_OPND, sregs[i].code);
  return FAILED;
}

/* the width of a 32- or 64-bit integer type qualifier's name (s32, u64,
 * b32, ...), 0 for any other */
static int int_type_bits(const char *t, size_t n) {
  if (n != 3 || (t[0] != 's' && t[0] != 'u' && t[0] != 'b')) return 0;
  return !strncmp(t + 1, "32", 2) ? 32 : !strncmp(t + 1, "64", 2) ? 64 : 0;
}

static int type_bits(const ptx_stmt *s) {
  if (ptx_op_has(s, ".s64") || ptx_op_has(s, ".u64") || ptx_op_has(s, ".b64")) return 64;
  if (ptx_op_has(s, ".s32") || ptx_op_has(s, ".u32") || ptx_op_has(s, ".b32")) return 32;
  return 0;
}

/* ld.param of the kernel's own parameter: its index and the byte offset */
static int param_node(ptx_proof *p, const ptx_stmt *s, int bits) {
  int index;
  int64_t off;
  if (ptx_op_has(s, ".v2") || ptx_op_has(s, ".v4") || s->nopnd != 2 || bits != type_bits(s) ||
      ptx_launch_param_at(p->fs->launch.params, s, bits / 8, &index, &off) < 0)
    return FAILED;
  return add_node(p, GSAN_FN_PARAM, bits, ptx_op_has(s, ".s32") || ptx_op_has(s, ".s64"), index, NO_OPND, off);
}

/* mov of a variable's address: the variable, when gsan knows its size */
static int symbol_node(ptx_proof *p, const ptx_stmt *s, int bits) {
  ptx_fn *fn = &p->fs->fn;
  const ptx_tok *t = ptx_opnd_tok(s, 1);
  if (!t || t->kind != TK_IDENT) return FAILED;
  const ptx_symbol *sym = ptx_tok_symbol(fn, t);
  if (!sym || (sym->space != GSAN_SPACE_SHARED && sym->space != GSAN_SPACE_GLOBAL) || (sym->is_extern && !sym->dynamic) ||
      (!sym->dynamic && !sym->size) || (sym->space == GSAN_SPACE_GLOBAL && bits != 64))
    return FAILED;
  int k = sym_index(p, sym);
  return k < 0 ? FAILED : add_node(p, GSAN_FN_SYM, bits, 0, NO_OPND, NO_OPND, k);
}

/* The value statement si writes into its bits-bit destination. */
static int build_def(ptx_proof *p, int si, int bits, int depth) {
  const ptx_stmt *s = p->fs->fn.st[si];
  if (s->kind != ST_INSN || s->pred >= 0 || s->nopnd < 2 || ptx_op_has(s, ".sat") || ptx_op_has(s, ".cc") ||
      ptx_op_has(s, ".relu") || ptx_op_has(s, ".f32") || ptx_op_has(s, ".f64") || ptx_op_has(s, ".f16"))
    return FAILED;
  int d = depth + 1, sgn = ptx_op_has(s, ".s32") || ptx_op_has(s, ".s64");
  if (s->nopnd == 2) {
    if (ptx_op_is(s, "mov")) {
      int x = operand(p, si, 1, bits, 0, d);
      return x != FAILED ? x : symbol_node(p, s, bits);
    }
    if (ptx_op_is(s, "cvta") && ptx_op_has(s, ".to") && ptx_op_has(s, ".global") && bits == 64)
      return operand(p, si, 1, 64, 0, d); /* global and generic addresses are the same number */
    if (ptx_op_is(s, "ld") && ptx_op_has(s, ".param")) return param_node(p, s, bits);
    /* -x = 0 - x and ~x = -1 - x, modulo 2^bits */
    if ((ptx_op_is(s, "neg") || ptx_op_is(s, "not")) && type_bits(s) == bits)
      return add_node(p, GSAN_FN_SUB, bits, sgn, imm_node(p, ptx_op_is(s, "not") ? -1 : 0, bits, 1),
                      operand(p, si, 1, bits, sgn, d), 0);
    if (ptx_op_is(s, "cvt") && !ptx_op_has(s, ".rn") && !ptx_op_has(s, ".rz") && !ptx_op_has(s, ".rm") &&
        !ptx_op_has(s, ".rp")) {
      /* cvt.dst.src: the two types are the last two qualifiers; the
       * destination's must be the register's width (a narrower one, such
       * as cvt.s8.s32 into a 32-bit register, truncates and extends again) */
      const ptx_tok *q = &s->toks[s->op];
      const char *end = q->text + q->len, *src = end, *dst;
      while (src > q->text && src[-1] != '.') src--;
      dst = src > q->text ? src - 1 : src;
      while (dst > q->text && dst[-1] != '.') dst--;
      int from = int_type_bits(src, (size_t)(end - src)), to = int_type_bits(dst, (size_t)(src - 1 - dst));
      int fsgn = from && src[0] == 's';
      if (!from || to != bits) return FAILED;
      int x = operand(p, si, 1, from, fsgn, d);
      /* cvt.s64.s32 of a 64-bit register (nvcc writes it) reads its low half */
      const ptx_tok *rt = x == FAILED ? ptx_opnd_tok(s, 1) : NULL;
      int r = rt ? ptx_tok_reg(&p->fs->fn, rt) : -1;
      if (r >= 0 && p->fs->fn.regs.bits[r] == 64 && from == 32)
        x = add_node(p, GSAN_FN_CVT, 32, 0, operand(p, si, 1, 64, 0, d), NO_OPND, 0);
      /* truncating an extended value gives the value back: the same node,
       * so that a test of either narrows both */
      if (x >= 0 && from > bits && p->node[x].op == GSAN_FN_CVT && p->node[p->node[x].a].bits == bits)
        return p->node[x].a;
      /* a truncation reads no sign: one node whatever the cvt says */
      return from == bits ? x : add_node(p, GSAN_FN_CVT, bits, from > bits ? 0 : fsgn, x, NO_OPND, 0);
    }
    return FAILED;
  }
  int wide = ptx_op_has(s, ".wide");
  if (type_bits(s) != (wide ? bits / 2 : bits)) return FAILED;
  if (s->nopnd == 3) {
    int64_t k;
    if (ptx_op_is(s, "add") || ptx_op_is(s, "sub")) {
      if (wide) return FAILED;
      return add_node(p, ptx_op_is(s, "add") ? GSAN_FN_ADD : GSAN_FN_SUB, bits, sgn, operand(p, si, 1, bits, sgn, d),
                      operand(p, si, 2, bits, sgn, d), 0);
    }
    if (ptx_op_is(s, "mul") && (wide || ptx_op_has(s, ".lo")))
      return add_node(p, wide ? GSAN_FN_MULWIDE : GSAN_FN_MUL, bits, sgn, operand(p, si, 1, wide ? 32 : bits, sgn, d),
                      operand(p, si, 2, wide ? 32 : bits, sgn, d), 0);
    if (ptx_op_is(s, "min") || ptx_op_is(s, "max"))
      return add_node(p, ptx_op_is(s, "min") ? GSAN_FN_MIN : GSAN_FN_MAX, bits, sgn, operand(p, si, 1, bits, sgn, d),
                      operand(p, si, 2, bits, sgn, d), 0);
    if (ptx_op_is(s, "shl") || ptx_op_is(s, "shr")) {
      if (!ptx_opnd_int(s, 2, &k) || k < 0 || k >= bits) return FAILED;
      return add_node(p, ptx_op_is(s, "shl") ? GSAN_FN_SHL : GSAN_FN_SHR, bits, sgn, operand(p, si, 1, bits, sgn, d), NO_OPND,
                      k);
    }
    if (ptx_op_is(s, "div") || ptx_op_is(s, "rem")) {
      if (!ptx_opnd_int(s, 2, &k)) return FAILED;
      if (bits == 32) k = sgn ? (int64_t)(int32_t)k : (int64_t)(uint32_t)k;
      if (k <= 0) return FAILED;
      return add_node(p, ptx_op_is(s, "div") ? GSAN_FN_DIV : GSAN_FN_REM, bits, sgn, operand(p, si, 1, bits, sgn, d), NO_OPND,
                      k);
    }
    if (ptx_op_is(s, "and") || ptx_op_is(s, "or")) {
      int lit = ptx_opnd_int(s, 2, &k) ? 2 : ptx_opnd_int(s, 1, &k) ? 1 : 0;
      if (!lit) return FAILED;
      if (bits == 32) k = (int64_t)(uint32_t)k;
      if (k < 0) return FAILED;
      return add_node(p, ptx_op_is(s, "and") ? GSAN_FN_AND : GSAN_FN_OR, bits, 0, operand(p, si, 3 - lit, bits, 0, d),
                      NO_OPND, k);
    }
    return FAILED;
  }
  if (s->nopnd == 4 && ptx_op_is(s, "mad") && (wide || ptx_op_has(s, ".lo"))) {
    int m = add_node(p, wide ? GSAN_FN_MULWIDE : GSAN_FN_MUL, bits, sgn, operand(p, si, 1, wide ? 32 : bits, sgn, d),
                     operand(p, si, 2, wide ? 32 : bits, sgn, d), 0);
    return add_node(p, GSAN_FN_ADD, bits, sgn, m, operand(p, si, 3, bits, sgn, d), 0);
  }
  return FAILED;
}

/* The one definition of register reg that reaches statement use, when it
 * dominates use; -1 otherwise, and for a register a call returns into
 * (calls are no definitions to the dataflow). */
static int reaching_def(const ptx_proof *p, int reg, int use) {
  const ptx_fn *fn = &p->fs->fn;
  int d[2];
  if (reg < 0 || p->call_writes[reg] || ptx_reaching(fn, use, reg, d, 2) != 1) return -1;
  int si = fn->def[d[0]].stmt;
  return si != use && ptx_stmt_dominates(fn, si, use) ? d[0] : -1;
}

/* The node of the value register reg holds where statement use reads it,
 * or FAILED. The definition that reaches use must be the only one and
 * dominate it, and its operands the same at its statement: the value is
 * then a function of the launch and the thread alone, the same each time
 * that definition runs (in a loop too). A definition that failed for want
 * of depth is tried again from a shallower start. */
static int value_at(ptx_proof *p, int reg, int use, int depth) {
  ptx_fn *fn = &p->fs->fn;
  int d = reaching_def(p, reg, use);
  if (d < 0) return FAILED;
  int si = fn->def[d].stmt, bits = fn->regs.bits[reg];
  int *memo = &p->def_node[d];
  if (*memo >= 0 || *memo == FAILED) return *memo;
  if (*memo == BUILDING || depth > MAX_DEPTH) return FAILED;
  if (bits != 32 && bits != 64) return *memo = FAILED;
  *memo = BUILDING;
  int x = build_def(p, si, bits, depth);
  *memo = x == FAILED && depth > 0 ? NOT_TRIED : x;
  if (x >= 0) {
    p->log = grow(p->log, &p->caplog, p->nlog, sizeof *p->log);
    p->log[p->nlog++] = d;
  }
  return x;
}

static void add_cond(ptx_proof *p, int a, int b, int cmp, int sgn, int bits) {
  static const int fc[] = {[CMP_LT] = GSAN_FC_LT, [CMP_LE] = GSAN_FC_LE, [CMP_GT] = GSAN_FC_GT,
                           [CMP_GE] = GSAN_FC_GE, [CMP_EQ] = GSAN_FC_EQ};
  if (a == FAILED || b == FAILED || cmp == CMP_NE || p->npending == MAX_CONDS_PER_FACT) return;
  p->pending[p->npending++] = (gsan_fact_cond){(uint16_t)a, (uint16_t)b, (uint8_t)fc[cmp], (uint8_t)sgn, (uint8_t)bits, 0};
}

/* the one definition of predicate r that reaches statement use, dominating it */
static int pred_def(const ptx_proof *p, int r, int use) { return reaching_def(p, r, use); }

/* What predicate definition d says when it holds (or fails). */
static void add_pred(ptx_proof *p, int d, int holds, int depth) {
  ptx_fn *fn = &p->fs->fn;
  int si = fn->def[d].stmt;
  const ptx_stmt *s = fn->st[si];
  if (depth > 4 || s->kind != ST_INSN || s->pred >= 0 || !ptx_opnd_tok(s, 0)) return;
  int cmp, sgn;
  if (ptx_op_is(s, "setp")) {
    int bits = type_bits(s);
    if (s->nopnd != 3 || !bits || !ptx_setp_cmp(s, &cmp, &sgn)) return;
    if (!holds) cmp = ptx_cmp_negate(cmp);
    add_cond(p, operand(p, si, 1, bits, sgn, 0), operand(p, si, 2, bits, sgn, 0), cmp, sgn, bits);
    return;
  }
  int both = (ptx_op_is(s, "and") && holds) || (ptx_op_is(s, "or") && !holds), not = ptx_op_is(s, "not");
  if (!ptx_op_has(s, ".pred") || !(both || not) || s->nopnd != (not ? 2 : 3)) return;
  for (int k = 1; k < s->nopnd; k++) {
    const ptx_tok *t = ptx_opnd_tok(s, k);
    int pd = t ? pred_def(p, ptx_tok_reg(fn, t), si) : -1;
    if (pd >= 0) add_pred(p, pd, not ? !holds : holds, depth + 1);
  }
}

/* The tests every execution of statement s has passed: its own predicate,
 * and the branches into the blocks that dominate it and are entered from
 * that branch alone. */
static void guards(ptx_proof *p, int s, int pred_reg, int pred_neg) {
  ptx_fn *fn = &p->fs->fn;
  p->npending = 0;
  int d = pred_def(p, pred_reg, s);
  if (d >= 0) add_pred(p, d, !pred_neg, 0);
  for (int x = fn->blk[s]; x >= 0; x = fn->b[x].idom) {
    /* the entry block is also entered when the kernel starts */
    if (fn->b[x].npred != 1 || fn->b[x].idom < 0) continue;
    int b = fn->b[x].pred[0];
    if (fn->b[b].nsucc != 2 || fn->b[b].succ[0] == fn->b[b].succ[1]) continue;
    const ptx_stmt *br = fn->st[fn->b[b].last];
    if (br->kind != ST_INSN || !ptx_op_is(br, "bra") || br->pred < 0) continue;
    d = pred_def(p, ptx_tok_reg(fn, &br->toks[br->pred]), fn->b[b].last);
    /* succ[0] is the branch's target: taken when the predicate (negated by @!) holds */
    int taken = fn->b[b].succ[0] == x;
    if (d >= 0) add_pred(p, d, taken ? !br->pred_neg : br->pred_neg, 0);
  }
}

/* the pending conditions as a list: the previous fact's when they are the same */
static int commit_conds(ptx_proof *p, int *cond0) {
  if (p->nfact) {
    const gsan_fact *last = &p->fact[p->nfact - 1];
    if (last->nconds == p->npending &&
        (!p->npending || !memcmp(&p->cond[last->cond0], p->pending, (size_t)p->npending * sizeof *p->pending))) {
      *cond0 = last->cond0;
      return 0;
    }
  }
  if (p->ncond + p->npending > GSAN_FACTS_MAX_CONDS) return -1;
  for (int i = 0; i < p->npending; i++) {
    p->cond = grow(p->cond, &p->capcond, p->ncond, sizeof *p->cond);
    p->cond[p->ncond++] = p->pending[i];
  }
  *cond0 = p->ncond - p->npending;
  return 0;
}

/* c as a fact, if the runtime can decide it: 1 when added */
static int plan_check(ptx_proof *p, const ptx_check *c) {
  ptx_fstate *fs = p->fs;
  ptx_fn *fn = &fs->fn;
  if (c->removed || c->addr_reg < 0 || c->always_fail || c->step_reg >= 0 || c->fam || c->hoisted || c->nmem < 1 ||
      c->lo < INT32_MIN || c->hi > INT32_MAX || c->lo >= c->hi || p->nfact >= GSAN_FACTS_MAX_FACTS)
    return 0;
  for (int k = 0; k < c->nmem; k++)
    if (c->mem[k].width <= 0) return 0; /* a width given at run time */
  gsan_fact f = {0};
  if (c->root.kind == ROOT_ARENA) {
    int w = ptx_launch_word(fs->launch.params, fn->st[fn->def[c->root.def].stmt]);
    if (w < 0 || (c->space != GSAN_SPACE_GLOBAL && c->space != GSAN_SPACE_GENERIC)) return 0;
    f.root = GSAN_FR_WORD;
    f.word = (uint16_t)w;
  } else if (c->root.kind == ROOT_SYMBOL) {
    const ptx_symbol *sym = c->root.sym;
    /* an array of the frame (--frame-arrays): its address is the depot's plus
     * a constant, which the facts' variable-relative offsets do not express */
    if (sym->frame_of) return 0;
    if (sym->space != c->space || (sym->is_extern && !sym->dynamic) || (!sym->dynamic && !sym->size)) return 0;
    int k = sym_index(p, sym);
    if (k < 0) return 0;
    f.root = sym->dynamic ? GSAN_FR_DYNAMIC : GSAN_FR_VAR;
    f.word = (uint16_t)k;
    f.size = sym->dynamic ? 0 : sym->size;
  } else {
    return 0;
  }
  int mark = p->nnode, marklog = p->nlog, cond0;
  int a = value_at(p, c->addr_reg, c->stmt, 0);
  if (a != FAILED) guards(p, c->stmt, c->pred_reg, c->pred_neg);
  if (a == FAILED || commit_conds(p, &cond0) < 0) {
    /* the nodes this check made serve no fact: gone, and the registers that named them forgotten */
    for (int k = mark; k < p->nnode; k++) p->hash[p->slot_of[k]] = -1;
    p->nnode = mark;
    for (int i = marklog; i < p->nlog; i++)
      if (p->def_node[p->log[i]] >= mark) p->def_node[p->log[i]] = NOT_TRIED;
    p->nlog = marklog;
    return 0;
  }
  f.addr = (uint16_t)a;
  f.nconds = (uint8_t)p->npending;
  f.cond0 = (uint16_t)cond0;
  f.lo = (int32_t)c->lo;
  f.hi = (int32_t)c->hi;
  int cap = p->capfact;
  p->fact = grow(p->fact, &p->capfact, p->nfact, sizeof *p->fact);
  if (cap != p->capfact) p->line = realloc(p->line, (size_t)p->capfact * sizeof *p->line);
  p->line[p->nfact] = fn->st[c->stmt]->line;
  p->fact[p->nfact++] = f;
  return 1;
}

/* Drops the nodes no fact reads (those of checks that did not become
 * facts, and what an idiom replaced): the runtime evaluates every node at
 * each launch it has not seen. Operands come before their users, so one
 * pass backwards marks, one forwards renumbers. */
static void compact(ptx_proof *p) {
  int *map = malloc((size_t)(p->nnode ? p->nnode : 1) * sizeof *map);
  for (int i = 0; i < p->nnode; i++) map[i] = 0;
  for (int f = 0; f < p->nfact; f++) map[p->fact[f].addr] = 1;
  for (int c = 0; c < p->ncond; c++) map[p->cond[c].a] = map[p->cond[c].b] = 1;
  for (int i = p->nnode - 1; i >= 0; i--) {
    const gsan_fact_node *x = &p->node[i];
    if (!map[i]) continue;
    int n = gsan_fact_operands(x->op);
    if (n >= 1) map[x->a] = 1;
    if (n == 2) map[x->b] = 1;
  }
  int n = 0;
  for (int i = 0; i < p->nnode; i++) {
    if (!map[i]) {
      map[i] = -1;
      continue;
    }
    gsan_fact_node x = p->node[i];
    int k = gsan_fact_operands(x.op);
    if (k >= 1) x.a = (uint16_t)map[x.a];
    if (k == 2) x.b = (uint16_t)map[x.b];
    p->node[n] = x;
    map[i] = n++;
  }
  for (int f = 0; f < p->nfact; f++) p->fact[f].addr = (uint16_t)map[p->fact[f].addr];
  for (int c = 0; c < p->ncond; c++) {
    p->cond[c].a = (uint16_t)map[p->cond[c].a];
    p->cond[c].b = (uint16_t)map[p->cond[c].b];
  }
  p->nnode = n;
  free(map);
}

ptx_proof *ptx_proof_plan(ptx_fstate *fs) {
  ptx_fn *fn = &fs->fn;
  if (!fn->ok || !fs->launch.params) return NULL;
  /* registers declared in a nested scope (inline asm's blocks) are merged
   * with the function's of the same name by the dataflow: a definition
   * there would pass for the outer register's */
  for (int i = 0; i < fn->nst; i++)
    if (fn->st[i]->kind == ST_DIRECTIVE && fn->st[i]->scope > 1 && ptx_tok_is(&fn->st[i]->toks[0], ".reg")) return NULL;
  ptx_proof *p = calloc(1, sizeof *p);
  p->fs = fs;
  p->nparams = ptx_launch_nparams(fs->launch.params);
  for (unsigned k = 0; k < HASH_SLOTS; k++) p->hash[k] = -1;
  p->call_writes = ptx_call_writes(fn);
  p->def_node = malloc((size_t)(fn->ndef ? fn->ndef : 1) * sizeof *p->def_node);
  for (int i = 0; i < fn->ndef; i++) p->def_node[i] = NOT_TRIED;
  for (int i = 0; i < fs->nc; i++)
    if (plan_check(p, &fs->c[i])) fs->c[i].removed = 1;
  compact(p);
  return p;
}

int ptx_proof_facts(const ptx_proof *p) { return p ? p->nfact : 0; }

void ptx_proof_free(ptx_proof *p) {
  if (!p) return;
  free(p->node);
  free(p->slot_of);
  free(p->cond);
  free(p->fact);
  free(p->def_node);
  free(p->call_writes);
  free(p->log);
  free(p->line);
  free(p->sym);
  free(p->symname);
  free(p);
}

/* ---- the facts as text, in the comment above the blob ---- */

static void describe(ptx_buf *b, const ptx_proof *p, int i, int depth) {
  const gsan_fact_node *x = &p->node[i];
  static const char *sr[] = {"%tid.x",   "%tid.y",   "%tid.z",    "%ntid.x",   "%ntid.y",   "%ntid.z",  "%ctaid.x",
                             "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%dynamic_smem_size"};
  const char *u = x->sgn ? "s" : "u";
  if (b->n > 300 || depth > 40) {
    ptx_bprintf(b, "...");
    return;
  }
  switch (x->op) {
  case GSAN_FN_IMM: ptx_bprintf(b, "%lld", (long long)x->imm); return;
  case GSAN_FN_PARAM: ptx_bprintf(b, "param%d%s%.0lld", x->a, x->imm ? "+" : "", (long long)x->imm); return;
  case GSAN_FN_SREG: ptx_bprintf(b, "%s", x->imm >= 0 && x->imm < GSAN_SR_COUNT ? sr[x->imm] : "?"); return;
  case GSAN_FN_SYM: ptx_bprintf(b, "%s", p->symname[x->imm]); return;
  case GSAN_FN_CVT: ptx_bprintf(b, "%s%d(", u, x->bits); break;
  case GSAN_FN_MIN: ptx_bprintf(b, "min.%s(", u); break;
  case GSAN_FN_MAX: ptx_bprintf(b, "max.%s(", u); break;
  case GSAN_FN_MULWIDE: ptx_bprintf(b, "wide.%s(", u); break;
  default: ptx_bprintf(b, "("); break;
  }
  describe(b, p, x->a, depth + 1);
  switch (x->op) {
  case GSAN_FN_ADD: case GSAN_FN_SUB: case GSAN_FN_MUL: case GSAN_FN_MULWIDE:
    ptx_bprintf(b, " %s ", x->op == GSAN_FN_ADD ? "+" : x->op == GSAN_FN_SUB ? "-" : "*");
    describe(b, p, x->b, depth + 1);
    break;
  case GSAN_FN_MIN: case GSAN_FN_MAX:
    ptx_bprintf(b, ", ");
    describe(b, p, x->b, depth + 1);
    break;
  case GSAN_FN_SHL: ptx_bprintf(b, " << %lld", (long long)x->imm); break;
  case GSAN_FN_SHR: ptx_bprintf(b, " >>%s %lld", u, (long long)x->imm); break;
  case GSAN_FN_DIV: ptx_bprintf(b, " /%s %lld", u, (long long)x->imm); break;
  case GSAN_FN_REM: ptx_bprintf(b, " %%%s %lld", u, (long long)x->imm); break;
  case GSAN_FN_AND: ptx_bprintf(b, " & %lld", (long long)x->imm); break;
  case GSAN_FN_OR: ptx_bprintf(b, " | %lld", (long long)x->imm); break;
  default: break;
  }
  ptx_bprintf(b, ")");
}

static void describe_fact(ptx_buf *b, const ptx_proof *p, int k) {
  static const char *cmp[] = {"<", "<=", ">", ">=", "=="};
  const gsan_fact *f = &p->fact[k];
  ptx_bprintf(b, "//   line %d: [A%+d, A%+d) inside ", p->line[k], f->lo, f->hi);
  if (f->root == GSAN_FR_WORD) ptx_bprintf(b, "the allocation of parameter word %d", f->word);
  else ptx_bprintf(b, "%s (%s)", p->symname[f->word], f->root == GSAN_FR_DYNAMIC ? "dynamic" : "static");
  ptx_bprintf(b, ", A = ");
  describe(b, p, f->addr, 0);
  for (int i = 0; i < f->nconds; i++) {
    const gsan_fact_cond *c = &p->cond[f->cond0 + i];
    ptx_bprintf(b, "%s", i ? " and " : ", when ");
    describe(b, p, c->a, 0);
    ptx_bprintf(b, " %s.%s%d ", cmp[c->cmp], c->sgn ? "s" : "u", c->bits);
    describe(b, p, c->b, 0);
  }
  ptx_bprintf(b, "\n");
}

char *ptx_proof_decl(ptx_arena *a, const ptx_proof *p, const char *kernel, const char *linkage) {
  gsan_facts_header h = {GSAN_FACTS_MAGIC, GSAN_ABI_VERSION, (uint16_t)p->nnode, (uint16_t)p->ncond,
                         (uint16_t)p->nfact, (uint16_t)p->nparams};
  size_t nb = (size_t)p->nnode * sizeof *p->node, cb = (size_t)p->ncond * sizeof *p->cond,
         fb = (size_t)p->nfact * sizeof *p->fact, total = sizeof h + nb + cb + fb;
  unsigned char *blob = malloc(total);
  memcpy(blob, &h, sizeof h);
  if (nb) memcpy(blob + sizeof h, p->node, nb);
  if (cb) memcpy(blob + sizeof h + nb, p->cond, cb);
  if (fb) memcpy(blob + sizeof h + nb + cb, p->fact, fb);
  ptx_buf b = {0};
  ptx_bprintf(&b, "\n// gsan launch facts of %s: %d checks, %d nodes, %d conditions\n", kernel, p->nfact, p->nnode,
              p->ncond);
  for (int k = 0; k < p->nfact; k++) {
    ptx_buf line = {0};
    describe_fact(&line, p, k);
    ptx_bprintf(&b, "%.*s", (int)line.n, line.p);
    free(line.p);
  }
  ptx_bprintf(&b, "%s%s.global .align 8 .b8 %s%s[%zu] = {", linkage, *linkage ? " " : "", GSAN_FACTS_PREFIX, kernel,
              total);
  for (size_t i = 0; i < total; i++) ptx_bprintf(&b, "%s%u%s", i % 32 ? "" : "\n", blob[i], i + 1 < total ? "," : "");
  ptx_bprintf(&b, "\n};\n");
  free(blob);
  char *out = ptx_strndup(a, b.p, b.n);
  free(b.p);
  return out;
}
