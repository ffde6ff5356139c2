/* Value ranges (ptx_valrange.h): interval arithmetic over the definitions
 * that reach a register, at instrumentation time, for every thread and
 * every launch at once (the launch proofs of ptx_proof.c decide what the
 * launch decides; this decides what the code alone does).
 *
 * A value is an interval [lo, hi] of mathematical integers, or an address:
 * a variable plus such an interval, or unknown. A register of b bits holds
 * some v of its interval modulo 2^b: add, sub, mul and shl keep that true
 * without looking at b, and an operation that reads the bits (cvt, shr,
 * and, rem, div, min, max, the test at the end) first reads the interval
 * as the b-bit unsigned or signed values it stands for, which is the
 * interval itself when it lies in that type's range and the whole type
 * otherwise. What bounds an index here: and with a literal (a mask),
 * rem and div by a literal, min and max, loads and conversions of 8- and
 * 16-bit values, the thread index, literals, and the variable an address
 * starts from (mov or cvta of it). Every definition that reaches a use is
 * joined; a predicated one is joined with the value before it; a register
 * a call returns into, a loop-carried value (a cycle) and any other
 * instruction are unknown. Results are memoised per definition.
 *
 * An access is inside its variable when its register is that variable
 * plus [lo, hi] with lo + imm >= 0 and hi + imm + width <= its size:
 * such a check is not written (ptx_instrument.c). Nvcc's local arrays at
 * constant offsets from %SPL, tables indexed through a mask, and ring
 * buffers indexed modulo their length are the common cases. */
#include "ptx_valrange.h"

#include <stdlib.h>
#include <string.h>

enum { V_UNKNOWN = 0, V_INT, V_ADDR };
enum { NOT_TRIED = 0, BUILDING, DONE };
enum { MAX_DEPTH = 48, MAX_REACHING = 8 };
/* intervals stay far from int64's ends, so that sums and products of two
 * of them do not overflow before they are tested */
#define LIMIT ((int64_t)1 << 62)

typedef struct val {
  int kind;
  const ptx_symbol *sym; /* V_ADDR */
  int64_t lo, hi;
} val;

struct ptx_valrange {
  ptx_fn *fn;
  uint8_t *call_writes; /* per register: a call returns into it */
  uint8_t *state;       /* per definition */
  val *memo;            /* per definition */
};

static const val unknown = {V_UNKNOWN, NULL, 0, 0};

static val interval(int64_t lo, int64_t hi) {
  if (lo < -LIMIT || hi > LIMIT || lo > hi) return unknown;
  return (val){V_INT, NULL, lo, hi};
}

/* a 128-bit result back into an interval, unknown when out of reach */
static val interval128(__int128 lo, __int128 hi) {
  if (lo < -(__int128)LIMIT || hi > (__int128)LIMIT) return unknown;
  return interval((int64_t)lo, (int64_t)hi);
}

/* the b-bit unsigned (sgn 0) or signed values x stands for */
static val as_type(val x, int bits, int sgn) {
  int64_t tlo, thi;
  if (bits >= 64) {
    if (sgn) tlo = -LIMIT, thi = LIMIT; /* beyond: unknown anyway */
    else tlo = 0, thi = LIMIT;
  } else {
    tlo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    thi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  }
  if (x.kind == V_INT && x.lo >= tlo && x.hi <= thi) return x;
  if (bits >= 64) return unknown;
  return interval(tlo, thi);
}

static val join(val a, val b) {
  if (a.kind != b.kind || a.kind == V_UNKNOWN || a.sym != b.sym) return unknown;
  a.lo = a.lo < b.lo ? a.lo : b.lo;
  a.hi = a.hi > b.hi ? a.hi : b.hi;
  return a;
}

/* the integer types of the opcode's qualifiers, in order (cvt has two) */
static int int_types(const ptx_stmt *s, int bits[2], int sgn[2]) {
  const ptx_tok *t = &s->toks[s->op];
  const char *p = t->text, *end = t->text + t->len;
  int n = 0;
  while (n < 2 && (p = memchr(p, '.', (size_t)(end - p))) != NULL) {
    p++;
    const char *q = p;
    while (q < end && *q != '.') q++;
    size_t len = (size_t)(q - p);
    if (len >= 2 && len <= 3 && (p[0] == 'u' || p[0] == 's' || p[0] == 'b')) {
      int b = atoi(p + 1);
      if ((b == 8 || b == 16 || b == 32 || b == 64) && (len == 2) == (b == 8)) {
        bits[n] = b;
        sgn[n] = p[0] == 's';
        n++;
      }
    }
    p = q;
  }
  return n;
}

static val value_at(ptx_valrange *v, int reg, int use, int depth);

static int tok_is(const ptx_tok *t, const char *s) { return t->len == strlen(s) && !memcmp(t->text, s, t->len); }

/* operand k of statement si: a literal (read as a value of bits bits, sgn
 * signed), a register, a variable's address or a special register */
static val operand(ptx_valrange *v, int si, int k, int bits, int sgn, int depth) {
  const ptx_stmt *s = v->fn->st[si];
  if (k >= s->nopnd) return unknown;
  int64_t x;
  if (ptx_opnd_int(s, k, &x)) {
    if (bits < 64) {
      uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)x & m;
      x = sgn && (u >> (bits - 1)) ? (int64_t)(u | ~m) : (int64_t)u;
    }
    return interval(x, x);
  }
  const ptx_tok *t = ptx_opnd_tok(s, k);
  if (!t) return unknown;
  int r = ptx_tok_reg(v->fn, t);
  if (r >= 0) return value_at(v, r, si, depth + 1);
  const ptx_symbol *sym = ptx_tok_symbol(v->fn, t);
  if (sym) return (val){V_ADDR, sym, 0, 0};
  if (tok_is(t, "%tid.x") || tok_is(t, "%tid.y")) return interval(0, 1023);
  if (tok_is(t, "%tid.z")) return interval(0, 63);
  if (tok_is(t, "%ntid.x") || tok_is(t, "%ntid.y")) return interval(1, 1024);
  if (tok_is(t, "%ntid.z")) return interval(1, 64);
  if (tok_is(t, "%laneid")) return interval(0, 31);
  return unknown;
}

static val add(val a, val b, int neg) {
  if (a.kind == V_UNKNOWN || b.kind != V_INT) return unknown;
  val r = neg ? interval128((__int128)a.lo - b.hi, (__int128)a.hi - b.lo)
              : interval128((__int128)a.lo + b.lo, (__int128)a.hi + b.hi);
  if (r.kind == V_INT && a.kind == V_ADDR) r.kind = V_ADDR, r.sym = a.sym;
  return r;
}

static val mul(val a, val b) {
  if (a.kind != V_INT || b.kind != V_INT) return unknown;
  __int128 c[4] = {(__int128)a.lo * b.lo, (__int128)a.lo * b.hi, (__int128)a.hi * b.lo, (__int128)a.hi * b.hi};
  __int128 lo = c[0], hi = c[0];
  for (int i = 1; i < 4; i++) {
    if (c[i] < lo) lo = c[i];
    if (c[i] > hi) hi = c[i];
  }
  return interval128(lo, hi);
}

/* x >> k (k < 63), rounding down, of values known in their type */
static val shr(val x, int k) { return x.kind == V_INT ? interval(x.lo >> k, x.hi >> k) : unknown; }

/* The value the instruction at si writes into its one destination
 * register (of bits bits). */
static val eval_insn(ptx_valrange *v, int si, int bits, int depth) {
  const ptx_stmt *s = v->fn->st[si];
  int tb[2] = {0, 0}, ts[2] = {0, 0};
  int nt = int_types(s, tb, ts);
  if (!nt) return unknown; /* floating point, predicates, packed types */
  int b = tb[nt - 1], sg = ts[nt - 1];
  if (b != bits && !ptx_op_is(s, "ld") && !ptx_op_is(s, "cvt") && !ptx_op_has(s, ".wide")) return unknown;
  if (ptx_op_is(s, "mov") && s->nopnd == 2) return operand(v, si, 1, b, sg, depth);
  if (ptx_op_is(s, "cvta") && s->nopnd == 2 && (b == 64 || b == 32)) {
    val x = operand(v, si, 1, b, 0, depth);
    return x.kind == V_ADDR ? x : unknown; /* a window's address to its generic one, or back */
  }
  if (ptx_op_is(s, "ld")) {
    /* a load of a narrow integer: its type's range, whatever it reads */
    if (nt != 1 || b >= 32 || s->nopnd != 2) return unknown;
    return as_type(unknown, b, sg);
  }
  if (ptx_op_is(s, "cvt")) {
    /* cvt.dst.src: the source read as its type, then as the destination's */
    if (nt != 2 || s->nopnd != 2 || ptx_op_has(s, ".sat")) return unknown;
    val x = as_type(operand(v, si, 1, tb[1], ts[1], depth), tb[1], ts[1]);
    return tb[0] < tb[1] ? as_type(x, tb[0], ts[0]) : x;
  }
  if ((ptx_op_is(s, "add") || ptx_op_is(s, "sub")) && s->nopnd == 3 && !ptx_op_has(s, ".sat") && !ptx_op_has(s, ".cc")) {
    val x = operand(v, si, 1, b, sg, depth), y = operand(v, si, 2, b, sg, depth);
    if (ptx_op_is(s, "sub")) return add(x, y, 1);
    return x.kind == V_ADDR ? add(x, y, 0) : add(y, x, 0);
  }
  if ((ptx_op_is(s, "mul") || ptx_op_is(s, "mad")) && (ptx_op_has(s, ".lo") || ptx_op_has(s, ".wide"))) {
    int wide = ptx_op_has(s, ".wide"), ob = wide ? b : bits;
    if (s->nopnd != (ptx_op_is(s, "mad") ? 4 : 3)) return unknown;
    val x = operand(v, si, 1, ob, sg, depth), y = operand(v, si, 2, ob, sg, depth);
    if (wide) x = as_type(x, b, sg), y = as_type(y, b, sg); /* the 32-bit operands, read as such */
    val p = mul(x, y);
    if (ptx_op_is(s, "mad")) p = add(operand(v, si, 3, bits, sg, depth), p, 0);
    return p;
  }
  if (ptx_op_is(s, "shl") && s->nopnd == 3) {
    int64_t k;
    if (!ptx_opnd_int(s, 2, &k) || k < 0 || k > 40) return unknown;
    return mul(operand(v, si, 1, b, 0, depth), interval((int64_t)1 << k, (int64_t)1 << k));
  }
  if (ptx_op_is(s, "shr") && s->nopnd == 3) {
    int64_t k;
    if (!ptx_opnd_int(s, 2, &k) || k < 0 || k >= b) return unknown;
    return shr(as_type(operand(v, si, 1, b, sg, depth), b, sg), (int)k);
  }
  if (ptx_op_is(s, "and") && s->nopnd == 3 && b >= 16) {
    /* unsigned, at most the smaller operand known not negative */
    val x = as_type(operand(v, si, 1, b, 0, depth), b, 0), y = as_type(operand(v, si, 2, b, 0, depth), b, 0);
    if (x.kind != V_INT && y.kind != V_INT) return unknown;
    int64_t hi = x.kind != V_INT ? y.hi : y.kind != V_INT ? x.hi : x.hi < y.hi ? x.hi : y.hi;
    return interval(0, hi);
  }
  if ((ptx_op_is(s, "rem") || ptx_op_is(s, "div")) && s->nopnd == 3) {
    int64_t k;
    if (!ptx_opnd_int(s, 2, &k)) return unknown;
    val d = as_type(interval(k, k), b, sg);
    if (d.kind != V_INT || d.lo <= 0) return unknown;
    k = d.lo;
    val x = as_type(operand(v, si, 1, b, sg, depth), b, sg);
    if (x.kind != V_INT) return unknown;
    if (ptx_op_is(s, "div")) return interval(x.lo / k, x.hi / k); /* truncation: monotonic */
    /* the remainder has the dividend's sign, and less than k in size */
    int64_t lo = x.lo >= 0 ? 0 : -(k - 1), hi = x.hi <= 0 ? 0 : k - 1;
    if (x.lo >= 0 && x.hi < k) return x;
    return interval(lo, hi);
  }
  if ((ptx_op_is(s, "min") || ptx_op_is(s, "max")) && s->nopnd == 3) {
    val x = as_type(operand(v, si, 1, b, sg, depth), b, sg), y = as_type(operand(v, si, 2, b, sg, depth), b, sg);
    int mn = ptx_op_is(s, "min");
    if (x.kind != V_INT || y.kind != V_INT) {
      /* min with a known value is at most it; max at least it */
      val k = x.kind == V_INT ? x : y;
      if (k.kind != V_INT) return unknown;
      val t = as_type(unknown, b, sg);
      if (t.kind != V_INT) return unknown;
      return mn ? interval(t.lo, k.hi) : interval(k.lo, t.hi);
    }
    return mn ? interval(x.lo < y.lo ? x.lo : y.lo, x.hi < y.hi ? x.hi : y.hi)
              : interval(x.lo > y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi);
  }
  if (ptx_op_is(s, "selp") && s->nopnd == 4)
    return join(operand(v, si, 1, b, sg, depth), operand(v, si, 2, b, sg, depth));
  return unknown;
}

static val eval_def(ptx_valrange *v, int d, int depth) {
  if (v->state[d] == DONE) return v->memo[d];
  if (v->state[d] == BUILDING || depth > MAX_DEPTH) return unknown; /* a cycle, or too deep */
  ptx_fn *fn = v->fn;
  int si = fn->def[d].stmt, reg = fn->def[d].reg;
  const ptx_stmt *s = fn->st[si];
  v->state[d] = BUILDING;
  /* one register written, the whole first operand */
  val x = ptx_opnd_tok(s, 0) ? eval_insn(v, si, fn->regs.bits[reg], depth) : unknown;
  /* a predicated write may not happen: the value before it stays */
  if (x.kind != V_UNKNOWN && s->pred >= 0) x = join(x, value_at(v, reg, si, depth + 1));
  v->state[d] = DONE;
  v->memo[d] = x;
  return x;
}

/* what register reg can hold where statement use reads it: the join of
 * the definitions that reach it */
static val value_at(ptx_valrange *v, int reg, int use, int depth) {
  ptx_fn *fn = v->fn;
  if (reg < 0 || v->call_writes[reg] || depth > MAX_DEPTH) return unknown;
  int d[MAX_REACHING];
  int n = ptx_reaching(fn, use, reg, d, MAX_REACHING);
  if (n < 1 || n > MAX_REACHING) return unknown;
  val x = eval_def(v, d[0], depth);
  for (int i = 1; i < n && x.kind != V_UNKNOWN; i++) x = join(x, eval_def(v, d[i], depth));
  return x;
}

ptx_valrange *ptx_valrange_new(ptx_fn *fn) {
  ptx_valrange *v = calloc(1, sizeof *v);
  if (!v) abort();
  v->fn = fn;
  v->call_writes = ptx_call_writes(fn);
  v->state = calloc((size_t)(fn->ndef ? fn->ndef : 1), 1);
  v->memo = calloc((size_t)(fn->ndef ? fn->ndef : 1), sizeof *v->memo);
  if (!v->state || !v->memo) abort();
  return v;
}

void ptx_valrange_free(ptx_valrange *v) {
  if (!v) return;
  free(v->call_writes);
  free(v->state);
  free(v->memo);
  free(v);
}

int ptx_valrange_inside(ptx_valrange *v, int stmt, int reg, int64_t lo, int64_t hi, const ptx_symbol *sym) {
  if (!v || !sym || sym->dynamic || sym->is_extern || sym->size == 0 || sym->size > (uint64_t)LIMIT) return 0;
  val x = value_at(v, reg, stmt, 0);
  if (x.kind != V_ADDR || x.sym != sym) return 0;
  return x.lo + lo >= 0 && x.hi + hi <= (int64_t)sym->size;
}
