/* Text generation for the instrumenter (see ptx_emit.h): what is inserted
 * for a root lookup, a check and a failure stub, as PTX text. The shapes are
 * documented in docs/ptx.md and docs/abi.md. */
#include "ptx_emit.h"

#include "ptx_family.h"
#include "ptx_launch.h"
#include "ptx_scope.h"

#include <gsan/abi.h>
#include <string.h>

static const char *tokstr(ptx_fstate *fs, const ptx_tok *t) { return ptx_strndup(fs->fn.a, t->text, t->len); }

static int root_cnt_reg(ptx_fstate *fs, ptx_root_slot *r, int width) {
  for (int i = 0; i < r->nw; i++)
    if (r->widths[i] == width) return r->cnt[i];
  if (r->nw == 8) return -1;
  r->widths[r->nw] = width;
  r->cnt[r->nw] = fs->nrd++;
  return r->cnt[r->nw++];
}

static void reg_txt(char *out, size_t n, int bits, int idx) {
  snprintf(out, n, bits == 32 ? "%%gsan_r%d" : bits == 1 ? "%%gsan_p%d" : "%%gsan_rd%d", idx);
}

/* A temporary of the check's width for 64-bit index t64 / 32-bit index t32. */
static const char *T(ptx_fstate *fs, int bits, int t64, int t32) {
  return ptx_printf(fs->fn.a, bits == 32 ? "%%gsan_r%d" : "%%gsan_rd%d", bits == 32 ? t32 : t64);
}

/* the register (or immediate) holding the address register plus n steps
 * (a stride chain's step register) plus imm */
static const char *emit_addr(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int64_t n, int64_t imm, int t64, int t32) {
  const char *dst = T(fs, c->bits, t64, t32);
  const char *src;
  if (c->addr_reg >= 0) {
    src = fs->fn.regs.name[c->addr_reg];
  } else {
    ptx_bprintf(b, "\tmov.u64 \t%s, %s;\n", dst, c->addr_sym->name);
    if (c->space == GSAN_SPACE_GENERIC) ptx_bprintf(b, "\tcvta.%s.u64 \t%s, %s;\n", ptx_space_name(c->addr_sym->space), dst, dst);
    src = dst;
  }
  if (n) {
    ptx_bprintf(b, "\tmad.lo.s%d \t%s, %s, %lld, %s;\n", c->bits, dst, fs->fn.regs.name[c->step_reg], (long long)n, src);
    src = dst;
  }
  if (imm == 0) return src;
  ptx_bprintf(b, "\tadd.s%d \t%s, %s, %lld;\n", c->bits, dst, src, (long long)imm);
  return dst;
}

/* Arena lookup of the 64-bit value in `val` into base/size registers.
 * Straight-line code: a pointer outside the arena computes the entry address
 * of offset 0 and takes the unchecked bounds by select; only the table load
 * itself is predicated, since with no arena (a module whose __gsan_ctx was
 * never filled: zeros) that address is no memory at all. Predicating every
 * step cost twice the instructions: ptxas turned each guarded 64-bit step
 * into selects. The slot index fits 32 bits (region_shift - min_shift <= 32,
 * abi.md): one funnel shift, scaled into the entry's address by one wide
 * multiply-add. */
static void emit_lookup(ptx_buf *b, const char *val, const char *base, const char *size) {
  ptx_bprintf(b,
              "\tld.const.v2.u64 \t{%%gsan_rd%d, %%gsan_rd%d}, [" GSAN_CTX_SYMBOL "];\n"
              "\tsub.s64 \t%%gsan_rd%d, %s, %%gsan_rd%d;\n"
              "\tsetp.lt.u64 \t%%gsan_p%d, %%gsan_rd%d, %%gsan_rd%d;\n"
              "\tselp.b64 \t%%gsan_rd%d, %%gsan_rd%d, 0, %%gsan_p%d;\n",
              T_L0, T_L1, T_L2, val, T_L0, P_LOOKUP, T_L2, T_L1, T_L2, T_L2, P_LOOKUP);
  ptx_bprintf(b,
              /* region shift -> r0, min shift -> r1; table shift -> r2; table base -> L3 */
              "\tld.const.v2.u32 \t{%%gsan_r%d, %%gsan_r%d}, [" GSAN_CTX_SYMBOL "+%d];\n"
              "\tld.const.u32 \t%%gsan_r%d, [" GSAN_CTX_SYMBOL "+%d];\n"
              "\tld.const.u64 \t%%gsan_rd%d, [" GSAN_CTX_SYMBOL "+%d];\n"
              /* k = off >> region_shift (L4, small); class shift r3 = k + min */
              "\tshr.u64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
              "\tcvt.u32.u64 \t%%gsan_r%d, %%gsan_rd%d;\n"
              "\tadd.u32 \t%%gsan_r%d, %%gsan_r%d, %%gsan_r%d;\n"
              /* class table: L3 += k << table_shift */
              "\tshl.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
              "\tadd.s64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_rd%d;\n"
              /* offset in region: L5 = off & ((1 << region_shift) - 1) */
              "\tshl.b64 \t%%gsan_rd%d, 1, %%gsan_r%d;\n"
              "\tadd.s64 \t%%gsan_rd%d, %%gsan_rd%d, -1;\n"
              "\tand.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_rd%d;\n"
              /* slot (32 bits) = L5 >> class shift; entry = L3 + slot * 8 */
              "\tshr.u64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
              "\tcvt.u32.u64 \t%%gsan_r%d, %%gsan_rd%d;\n"
              "\tmad.wide.u32 \t%%gsan_rd%d, %%gsan_r%d, 8, %%gsan_rd%d;\n"
              "\t@%%gsan_p%d ld.global.u64 \t%%gsan_rd%d, [%%gsan_rd%d];\n"
              /* base = val & (-1 << class shift); outside the arena: 0, unchecked */
              "\tshl.b64 \t%%gsan_rd%d, -1, %%gsan_r%d;\n"
              "\tand.b64 \t%%gsan_rd%d, %s, %%gsan_rd%d;\n"
              "\tselp.b64 \t%s, %%gsan_rd%d, 0, %%gsan_p%d;\n"
              "\tselp.b64 \t%s, %%gsan_rd%d, %llu, %%gsan_p%d;\n",
              R_L0, R_L1, GSAN_CTX_REGION_SHIFT, R_L2, GSAN_CTX_TABLE_SHIFT, T_L3, GSAN_CTX_TABLE_BASE,
              T_L4, T_L2, R_L0, R_L3, T_L4, R_L3, R_L3, R_L1,
              T_L4, T_L4, R_L2, T_L3, T_L3, T_L4,
              T_L5, R_L0, T_L5, T_L5, T_L5, T_L2, T_L5,
              T_L5, T_L5, R_L3, R_L2, T_L5, T_L3, R_L2, T_L3, P_LOOKUP, T_L4, T_L3,
              T_L5, R_L3, T_L5, val, T_L5, base, T_L5, P_LOOKUP, size, T_L4,
              (unsigned long long)GSAN_UNCHECKED_SIZE, P_LOOKUP);
}

/* The bounds the runtime gave the launch-bounds copy in word w of
 * __gsan_lb: the base as it is, the size read from the slot's table entry
 * (an entry of 0: a pointer outside the arena, unchecked). */
static void emit_launch_lookup(ptx_buf *b, int w, const char *base, const char *size) {
  ptx_bprintf(b,
              "\tld.param.u64 \t%s, [" GSAN_LAUNCH_PARAM "+%d];\n"
              "\tld.param.u64 \t%%gsan_rd%d, [" GSAN_LAUNCH_PARAM "+%d];\n"
              "\tmov.u64 \t%s, %llu;\n"
              "\tsetp.ne.u64 \t%%gsan_p%d, %%gsan_rd%d, 0;\n"
              "\t@%%gsan_p%d ld.global.u64 \t%s, [%%gsan_rd%d];\n",
              base, 16 * w, T_L4, 16 * w + 8, size, (unsigned long long)GSAN_UNCHECKED_SIZE, P_LOOKUP, T_L4, P_LOOKUP,
              size, T_L4);
}

/* count of valid start offsets for width w: max(size - (w-1), 0) */
static void emit_cnt(ptx_buf *b, int bits, const char *dst, const char *size, int w) {
  if (w > 1) ptx_bprintf(b, "\tsub.s%d \t%s, %s, %d;\n", bits, dst, size, w - 1);
  else ptx_bprintf(b, "\tmov.b%d \t%s, %s;\n", bits, dst, size);
  ptx_bprintf(b, "\tmax.s%d \t%s, %s, 0;\n", bits, dst, dst);
}

/* Bounds of a check as operand texts in the check's width. Emits what is
 * needed to compute them at the check (symbol base, dynamic shared size,
 * per-access lookup). cnt is for the check's range width. */
typedef struct bounds { const char *base, *size, *cnt; } bounds;

static bounds check_bounds(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int stub) {
  bounds r;
  int bits = c->bits, w = (int)(c->hi - c->lo);
  ptx_arena *a = fs->fn.a;
  const char *tcnt = ptx_printf(a, "%%gsan_rd%d", T_CNT);
  if (c->root.kind == ROOT_ARENA) {
    ptx_root_slot *rs = &fs->roots[c->root_slot];
    r.base = ptx_printf(a, "%%gsan_rd%d", rs->base);
    r.size = ptx_printf(a, "%%gsan_rd%d", rs->size);
    r.cnt = NULL;
    if (!stub && w > 0) {
      int cr = root_cnt_reg(fs, rs, w);
      if (cr >= 0) {
        r.cnt = ptx_printf(a, "%%gsan_rd%d", cr);
      } else { /* more widths than a root keeps registers for */
        emit_cnt(b, 64, tcnt, r.size, w);
        r.cnt = tcnt;
      }
    }
    return r;
  }
  if (c->root.kind == ROOT_FRAME) {
    /* only the stub asks (ptx_scope_test makes the check): bounds that
     * __gsan_report's re-test fails for this address, an empty region at it */
    r.base = emit_addr(fs, b, c, 0, c->lo, T_S3, R_L3);
    r.size = "0";
    r.cnt = NULL;
    return r;
  }
  if (c->root.kind == ROOT_NONE) {
    /* the address itself is looked up; base and size stay in temporaries
     * that the stub, reached straight from the check, reads */
    r.base = ptx_printf(a, "%%gsan_rd%d", T_BASE);
    r.size = ptx_printf(a, "%%gsan_rd%d", T_SIZE);
    r.cnt = NULL;
    if (!stub) {
      emit_lookup(b, emit_addr(fs, b, c, 0, c->lo, T_CNT, R_L0), r.base, r.size);
      if (w > 0) {
        emit_cnt(b, 64, tcnt, r.size, w);
        r.cnt = tcnt;
      }
    }
    return r;
  }
  /* a variable */
  ptx_symbol *sym = c->root.sym;
  const char *base = T(fs, bits, stub ? T_S3 : T_BASE, stub ? R_L3 : R_L0);
  if (c->space == GSAN_SPACE_GENERIC) {
    ptx_bprintf(b, "\tmov.u64 \t%s, %s;\n\tcvta.%s.u64 \t%s, %s;\n", base, sym->name, ptx_space_name(sym->space), base, base);
  } else {
    ptx_bprintf(b, "\tmov.u%d \t%s, %s;\n", bits, base, sym->name);
  }
  r.base = base;
  if (sym->dynamic) {
    const char *size = T(fs, bits, stub ? T_S2 : T_SIZE, stub ? R_L2 : R_DYN);
    if (bits == 32) ptx_bprintf(b, "\tmov.u32 \t%s, %%dynamic_smem_size;\n", size);
    else ptx_bprintf(b, "\tmov.u32 \t%%gsan_r%d, %%dynamic_smem_size;\n\tcvt.u64.u32 \t%s, %%gsan_r%d;\n", R_DYN, size, R_DYN);
    r.size = size;
    r.cnt = NULL;
    if (!stub && w > 0) {
      const char *cnt = T(fs, bits, T_CNT, R_L1);
      emit_cnt(b, bits, cnt, size, w);
      r.cnt = cnt;
    }
  } else {
    r.size = ptx_printf(a, "%llu", (unsigned long long)sym->size);
    r.cnt = w > 0 ? ptx_printf(a, "%llu", (unsigned long long)(sym->size >= (uint64_t)w ? sym->size - (uint64_t)w + 1 : 0)) : NULL;
  }
  return r;
}

static const char *guard_txt(ptx_fstate *fs, const ptx_check *c) {
  if (c->pred_reg < 0) return "";
  return ptx_printf(fs->fn.a, ", %s%.*s", c->pred_neg ? "!" : "", (int)c->pred_tok->len, c->pred_tok->text);
}

/* dst = src widened to 64 bits, under pred ("" or "@%p ") */
static void emit_widen(ptx_buf *b, const char *pred, int bits, const char *dst, const char *src, int is_imm) {
  if (bits == 64 || is_imm) ptx_bprintf(b, "\t%smov.u64 \t%s, %s;\n", pred, dst, src);
  else ptx_bprintf(b, "\t%scvt.u64.u32 \t%s, %s;\n", pred, dst, src);
}

void ptx_emit_test_or(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const char *addr, int abits, int bad) {
  bounds bd = check_bounds(fs, b, c, 0);
  if (abits == 64 && c->bits == 32) {
    char base[32], cnt[32];
    reg_txt(base, sizeof base, 64, T_BASE);
    reg_txt(cnt, sizeof cnt, 64, T_CNT);
    emit_widen(b, "", 32, base, bd.base, 0);
    emit_widen(b, "", 32, cnt, bd.cnt, bd.cnt[0] != '%');
    bd.base = ptx_strndup(fs->fn.a, base, strlen(base));
    bd.cnt = ptx_strndup(fs->fn.a, cnt, strlen(cnt));
  }
  const char *off = T(fs, abits, T_OFF, R_L3);
  ptx_bprintf(b, "\tsub.s%d \t%s, %s, %s;\n\tsetp.ge.or.u%d \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n", abits, off, addr,
              bd.base, abits, bad, off, bd.cnt, bad);
}

const char *ptx_emit_check_addr(ptx_fstate *fs, ptx_buf *b, const ptx_check *c) {
  return emit_addr(fs, b, c, 0, c->lo, T_ADDR, R_L2);
}

void ptx_emit_text(ptx_fstate *fs, ptx_vec *out, ptx_buf *b, int scope) {
  if (!b->n) return;
  ptx_stmt *s = ptx_alloc(fs->m->arena, sizeof *s);
  s->kind = ST_RAW;
  s->pred = -1;
  s->scope = scope;
  s->raw = ptx_strndup(fs->m->arena, b->p, b->n);
  ptx_vec_push(out, s);
  b->n = 0;
}

/* P_CHECK &= the access's own guard, when it has one */
static void and_guard(ptx_fstate *fs, ptx_buf *b, const ptx_check *c) {
  if (c->pred_reg >= 0)
    ptx_bprintf(b, "\tand.pred \t%%gsan_p%d, %%gsan_p%d, %s%s;\n", P_CHECK, P_CHECK, c->pred_neg ? "!" : "",
                tokstr(fs, c->pred_tok));
}

/* A stride chain (ptx_elim.c): the members' range at the fewest and at
 * the most steps, and the step small enough that no member between wraps
 * (|step| < 2^40, or 2^24 for a 32-bit window; at most 64 steps apart).
 * A step that large fails the check without a member out of bounds: the
 * stub then finds none that fails and resumes after the check. */
static void emit_chain_check(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id, bounds bd) {
  int bits = c->bits, sb = bits == 32 ? PTX_CHAIN_STEP_BITS_32 : PTX_CHAIN_STEP_BITS_64;
  const char *off = T(fs, bits, T_OFF, R_L3);
  for (int e = 0; e < 2; e++) {
    const char *addr = emit_addr(fs, b, c, e ? c->nhi : c->nlo, c->lo, T_ADDR, R_L2);
    ptx_bprintf(b, "\tsub.s%d \t%s, %s, %s;\n", bits, off, addr, bd.base);
    if (e) ptx_bprintf(b, "\tsetp.ge.or.u%d \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n", bits, P_CHECK, off, bd.cnt, P_CHECK);
    else ptx_bprintf(b, "\tsetp.ge.u%d \t%%gsan_p%d, %s, %s;\n", bits, P_CHECK, off, bd.cnt);
  }
  ptx_bprintf(b, "\tadd.s%d \t%s, %s, %llu;\n\tsetp.ge.or.u%d \t%%gsan_p%d, %s, %llu, %%gsan_p%d;\n", bits, off,
              fs->fn.regs.name[c->step_reg], 1ull << sb, bits, P_CHECK, off, 2ull << sb, P_CHECK);
  and_guard(fs, b, c);
  ptx_bprintf(b, "\t@%%gsan_p%d bra \t$L__gsan_fail_%d;\n$L__gsan_resume_%d:\n", P_CHECK, id, id);
}

/* A clamped family (ptx_family.c): the no-wrap tests of its varying
 * 32-bit additions, then the members at the corners. A failed no-wrap test
 * with every member in bounds sends the stub back to resume here. */
static void emit_family_check(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id, bounds bd) {
  const ptx_family *f = c->fam;
  fs->family.gen++;
  const char *off = T(fs, 64, T_OFF, R_L3);
  int first = 1;
  for (int t = 0; t < f->ntest; t++) {
    const char *v = ptx_family_core(fs, b, f->test[t].x);
    for (int e = 0; e < 2; e++) {
      int64_t lim = e ? f->test[t].hi : f->test[t].lo;
      if (e ? lim <= 0 : lim >= 0) continue;
      ptx_bprintf(b, "\tsetp.%s%s.s32 \t%%gsan_p%d, %s, %lld", e ? "gt" : "lt", first ? "" : ".or", P_CHECK, v,
                  e ? (long long)INT32_MAX - lim : (long long)INT32_MIN - lim);
      ptx_bprintf(b, first ? ";\n" : ", %%gsan_p%d;\n", P_CHECK);
      first = 0;
    }
  }
  for (int k = 0; k < f->ncorner; k++) {
    const char *addr = ptx_family_value(fs, b, c->mem[f->corner[k]].x);
    ptx_bprintf(b, "\tsub.s64 \t%s, %s, %s;\n", off, addr, bd.base);
    if (c->lo) ptx_bprintf(b, "\tadd.s64 \t%s, %s, %lld;\n", off, off, (long long)c->lo);
    ptx_bprintf(b, "\tsetp.ge%s.u64 \t%%gsan_p%d, %s, %s", first ? "" : ".or", P_CHECK, off, bd.cnt);
    ptx_bprintf(b, first ? ";\n" : ", %%gsan_p%d;\n", P_CHECK);
    first = 0;
  }
  and_guard(fs, b, c);
  ptx_bprintf(b, "\t@%%gsan_p%d bra \t$L__gsan_fail_%d;\n$L__gsan_resume_%d:\n", P_CHECK, id, id);
}

void ptx_emit_check(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id) {
  int bits = c->bits;
  const ptx_stmt *s = fs->fn.st[c->stmt];
  ptx_bprintf(b, "\t// gsan: check %d, %s %s, PTX line %d\n", id, ptx_space_name(c->space),
              c->fam ? "clamped family" : c->nlo != c->nhi ? "stride chain" : c->nmem > 1 ? "merged range" : "access", s->line);
  if (c->always_fail) {
    if (c->pred_reg >= 0)
      ptx_bprintf(b, "\t@%s%.*s bra \t$L__gsan_fail_%d;\n", c->pred_neg ? "!" : "", (int)c->pred_tok->len, c->pred_tok->text, id);
    else
      ptx_bprintf(b, "\tbra.uni \t$L__gsan_fail_%d;\n", id);
    return;
  }
  if (c->root.kind == ROOT_FRAME) {
    ptx_scope_test(fs, b, c, emit_addr(fs, b, c, 0, c->lo, T_ADDR, R_L2), P_CHECK);
    ptx_bprintf(b, "\t@%%gsan_p%d bra \t$L__gsan_fail_%d;\n", P_CHECK, id);
    return;
  }
  bounds bd = check_bounds(fs, b, c, 0);
  if (c->step_reg >= 0 && c->nlo != c->nhi) {
    emit_chain_check(fs, b, c, id, bd);
    return;
  }
  if (c->fam) {
    emit_family_check(fs, b, c, id, bd);
    return;
  }
  const char *addr = emit_addr(fs, b, c, c->nlo, c->lo, T_ADDR, R_L2);
  const char *off = T(fs, bits, T_OFF, R_L3);
  ptx_bprintf(b, "\tsub.s%d \t%s, %s, %s;\n", bits, off, addr, bd.base);
  const char *g = guard_txt(fs, c);
  const char *bop = *g ? ".and" : "";
  if (c->mem[0].width > 0) {
    ptx_bprintf(b, "\tsetp.ge%s.u%d \t%%gsan_p%d, %s, %s%s;\n", bop, bits, P_CHECK, off, bd.cnt, g);
  } else {
    /* width from an operand: off > size || width > size - off, unless width is 0 */
    const ptx_tok *wt = c->mem[0].wtok;
    const char *wv = tokstr(fs, wt);
    int wr = ptx_tok_reg(&fs->fn, wt);
    if (wr >= 0 && fs->fn.regs.bits[wr] != bits) {
      const char *wx = T(fs, bits, T_CNT, R_L1);
      ptx_bprintf(b, "\tcvt.u%d.u%d \t%s, %s;\n", bits, fs->fn.regs.bits[wr], wx, wv);
      wv = wx;
    }
    const char *rem = T(fs, bits, T_S0, R_L0);
    ptx_bprintf(b,
            "\tsetp.gt.u%d \t%%gsan_p%d, %s, %s;\n"
            "\tsub.s%d \t%s, %s, %s;\n"
            "\tsetp.lt.or.u%d \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n"
            "\tsetp.ne.and.u%d \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n",
            bits, P_CHECK, off, bd.size, bits, rem, bd.size, off, bits, P_CHECK, rem, wv, P_CHECK, bits, P_CHECK, wv,
            P_CHECK);
    and_guard(fs, b, c);
  }
  ptx_bprintf(b, "\t@%%gsan_p%d bra \t$L__gsan_fail_%d;\n", P_CHECK, id);
  if (c->root.kind == ROOT_ARENA) ptx_bprintf(b, "$L__gsan_back_%d:\n", id);
}


/* member m of check c into the report's argument registers, under pred:
 * its address (already computed in addr), width and site */
static void member_args(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const ptx_member *m, const char *addr,
                        const char *pred) {
  char reg[32];
  reg_txt(reg, sizeof reg, 64, A_ADDR);
  emit_widen(b, pred, c->bits, reg, addr, 0);
  reg_txt(reg, sizeof reg, 64, A_WIDTH);
  if (m->width) {
    ptx_bprintf(b, "\t%smov.u64 \t%s, %d;\n", pred, reg, m->width);
  } else {
    int wr = ptx_tok_reg(&fs->fn, m->wtok);
    emit_widen(b, pred, wr >= 0 && fs->fn.regs.bits[wr] == 32 ? 32 : 64, reg, tokstr(fs, m->wtok), 0);
  }
  ptx_bprintf(b, "\t%smov.u32 \t%%gsan_r%d, %d;\n", pred, R_SITE, m->site);
}

/* member m's address (its register's value plus its immediate) */
static const char *member_addr(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, const ptx_member *m) {
  if (!c->fam) return emit_addr(fs, b, c, m->n, m->imm, T_S0, R_L0);
  const char *v = ptx_family_value(fs, b, m->x);
  if (!m->imm) return v;
  const char *dst = T(fs, 64, T_S0, R_L0);
  ptx_bprintf(b, "\tadd.s64 \t%s, %s, %lld;\n", dst, v, (long long)m->imm);
  return dst;
}

/* %gsan_p<P_STUB> = member m at addr leaves [base, base + size) */
static void emit_member_test(ptx_buf *b, int bits, const ptx_member *m, const char *addr, const char *abase,
                             const char *asize) {
  char off[32], rem[32];
  reg_txt(off, sizeof off, 64, T_S1);
  reg_txt(rem, sizeof rem, 64, T_S2);
  emit_widen(b, "", bits, off, addr, 0);
  ptx_bprintf(b,
              "\tsub.s64 \t%s, %s, %s;\n"
              "\tsub.s64 \t%s, %s, %s;\n"
              "\tsetp.gt.u64 \t%%gsan_p%d, %s, %s;\n"
              "\tsetp.lt.or.u64 \t%%gsan_p%d, %s, %d, %%gsan_p%d;\n",
              off, off, abase, rem, asize, off, P_STUB, off, asize, P_STUB, rem, m->width, P_STUB);
}

/* A clamped family's stub tests its members in program order and reports
 * the first that fails; none failing (a no-wrap test failed) resumes. One
 * member at a time, with a branch after each: tested all at once, as the
 * other stubs do, conv2d's 49 addresses took its launch copy to 54
 * registers (46 this way, 38 with no stub at all). */
static void emit_family_stub(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id, const char *abase,
                             const char *asize) {
  fs->family.gen++;
  for (int k = 0; k < c->nmem; k++) {
    const ptx_member *m = &c->mem[k];
    const char *addr = member_addr(fs, b, c, m);
    emit_member_test(b, 64, m, addr, abase, asize);
    ptx_bprintf(b, "\t@!%%gsan_p%d bra \t$L__gsan_ok_%d_%d;\n", P_STUB, id, k);
    member_args(fs, b, c, m, addr, "");
    ptx_bprintf(b, "\tbra.uni \t" PTX_REPORT_LABEL ";\n$L__gsan_ok_%d_%d:\n", id, k);
  }
  ptx_bprintf(b, "\tbra.uni \t$L__gsan_resume_%d;\n", id);
}

static void emit_report_call(ptx_buf *b);

/* A root outside its object: ptx_emit_root_lookup gave it the bounds
 * {0, 0}, so every check of it fails and comes here. A report must mean
 * that an access left valid memory, not that a pointer value did (a 1-based
 * view a - 1 of an array, indexed from 1): each member is looked up by its
 * own address, as an access with no root is, and the first that leaves its
 * object is reported against that object; none leaving one goes back to the
 * access. A freed or never-allocated root still fails here: the access's
 * own slot has no live object either. Other bounds go on to the stub. */
static void emit_reroot(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id, const char *abase,
                        const char *asize) {
  int plain = !c->fam && !(c->step_reg >= 0 && c->nlo != c->nhi);
  ptx_bprintf(b,
              "\tsetp.eq.u64 \t%%gsan_p%d, %s, 0;\n"
              "\tsetp.eq.and.u64 \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n"
              "\t@!%%gsan_p%d bra \t$L__gsan_rooted_%d;\n",
              P_STUB, asize, P_STUB, abase, P_STUB, P_STUB, id);
  if (c->fam) fs->family.gen++;
  for (int k = 0; k < c->nmem; k++) {
    const ptx_member *m = &c->mem[k];
    const char *addr = member_addr(fs, b, c, m);
    emit_lookup(b, addr, abase, asize);
    member_args(fs, b, c, m, addr, ""); /* the report's, if it fails */
    if (m->width) {
      emit_member_test(b, 64, m, addr, abase, asize);
    } else {
      /* a width from an operand (cp.async src-size, in A_WIDTH now):
         off > size, or size - off < width unless the width is 0 */
      char off[32], rem[32], wid[32];
      reg_txt(off, sizeof off, 64, T_S1);
      reg_txt(rem, sizeof rem, 64, T_S2);
      reg_txt(wid, sizeof wid, 64, A_WIDTH);
      emit_widen(b, "", c->bits, off, addr, 0);
      ptx_bprintf(b,
                  "\tsub.s64 \t%s, %s, %s;\n"
                  "\tsub.s64 \t%s, %s, %s;\n"
                  "\tsetp.gt.u64 \t%%gsan_p%d, %s, %s;\n"
                  "\tsetp.lt.or.u64 \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n"
                  "\tsetp.ne.and.u64 \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n",
                  off, off, abase, rem, asize, off, P_STUB, off, asize, P_STUB, rem, wid, P_STUB, P_STUB, wid,
                  P_STUB);
    }
    ptx_bprintf(b, "\t@!%%gsan_p%d bra \t$L__gsan_reok_%d_%d;\n", P_STUB, id, k);
    if (fs->o->recover) {
      emit_report_call(b);
      ptx_bprintf(b, "\tbra.uni \t$L__gsan_skip_%d;\n", id);
    } else {
      ptx_bprintf(b, "\tbra.uni \t" PTX_REPORT_LABEL ";\n");
    }
    ptx_bprintf(b, "$L__gsan_reok_%d_%d:\n", id, k);
  }
  ptx_bprintf(b, "\tbra.uni \t$L__gsan_%s_%d;\n$L__gsan_rooted_%d:\n", plain ? "back" : "resume", id, id);
}

static void emit_report_call(ptx_buf *b) {
  ptx_bprintf(b,
              "\t{\n\t.param .b64 \t__gsan_a0;\n\t.param .b32 \t__gsan_a1;\n\t.param .b64 \t__gsan_a2;\n"
              "\t.param .b64 \t__gsan_a3;\n\t.param .b64 \t__gsan_a4;\n\t.param .b64 \t__gsan_a5;\n"
              "\tst.param.b64 \t[__gsan_a0], %%gsan_rd%d;\n"
              "\tst.param.b32 \t[__gsan_a1], %%gsan_r%d;\n"
              "\tst.param.b64 \t[__gsan_a2], %%gsan_rd%d;\n"
              "\tst.param.b64 \t[__gsan_a3], %%gsan_rd%d;\n"
              "\tst.param.b64 \t[__gsan_a4], %%gsan_rd%d;\n"
              "\tst.param.b64 \t[__gsan_a5], %%gsan_rd%d;\n"
              "\tcall.uni \t" GSAN_REPORT_FUNC ", (__gsan_a0, __gsan_a1, __gsan_a2, __gsan_a3, __gsan_a4, __gsan_a5);\n"
              "\t}\n",
              A_MOD, R_SITE, A_ADDR, A_BASE, A_SIZE, A_WIDTH);
}

/* The stub gathers the report's arguments for the access its check covers.
 * Without --recover it then jumps to the function's one report block
 * (PTX_REPORT_LABEL): a call in every stub made ptxas keep registers for
 * all of them, and a kernel with 50 checks went from 32 registers to 128.
 * A merged check picks, in the stub, the first member that leaves the
 * bounds. With --recover each stub calls __gsan_report itself for every
 * member (the function re-tests each and records those that fail), then
 * resumes past the access. Everything is widened to 64 bits for the call. */
void ptx_emit_stub(ptx_fstate *fs, ptx_buf *b, const ptx_check *c, int id) {
  int bits = c->bits;
  ptx_bprintf(b, "$L__gsan_fail_%d:\n", id);
  bounds bd = check_bounds(fs, b, c, 1);
  char abase[32], asize[32];
  reg_txt(abase, sizeof abase, 64, A_BASE);
  reg_txt(asize, sizeof asize, 64, A_SIZE);
  emit_widen(b, "", bits, abase, bd.base, 0);
  emit_widen(b, "", bits, asize, bd.size, bd.size[0] != '%');
  ptx_bprintf(b, "\tmov.u64 \t%%gsan_rd%d, %llu;\n", A_MOD, (unsigned long long)fs->modid);
  int reroot = c->root.kind == ROOT_ARENA && !c->always_fail;
  if (reroot) emit_reroot(fs, b, c, id, abase, asize);
  if (!fs->o->recover && c->fam) {
    emit_family_stub(fs, b, c, id, abase, asize);
    return;
  }
  if (!fs->o->recover) {
    /* members from the last to the first: the first that fails is written
     * last (merged members all have a fixed width). A range check fails
     * only when a member does, so its last member needs no test; a stride
     * chain's may fail on its step alone (any member failing: P_CHECK) */
    int exact = c->nlo == c->nhi, k = c->nmem - 1;
    if (exact) {
      const ptx_member *last = &c->mem[k--];
      member_args(fs, b, c, last, member_addr(fs, b, c, last), "");
    } else {
      ptx_bprintf(b, "\tsetp.ne.u32 \t%%gsan_p%d, 0, 0;\n", P_CHECK);
    }
    char p[32];
    snprintf(p, sizeof p, "@%%gsan_p%d ", P_STUB);
    for (; k >= 0; k--) {
      const ptx_member *m = &c->mem[k];
      const char *addr = member_addr(fs, b, c, m);
      emit_member_test(b, bits, m, addr, abase, asize);
      member_args(fs, b, c, m, addr, p);
      if (!exact) ptx_bprintf(b, "\tor.pred \t%%gsan_p%d, %%gsan_p%d, %%gsan_p%d;\n", P_CHECK, P_CHECK, P_STUB);
    }
    if (!exact) ptx_bprintf(b, "\t@!%%gsan_p%d bra \t$L__gsan_resume_%d;\n", P_CHECK, id);
    ptx_bprintf(b, "\tbra.uni \t" PTX_REPORT_LABEL ";\n");
    return;
  }
  for (int k = 0; k < c->nmem; k++) {
    member_args(fs, b, c, &c->mem[k], emit_addr(fs, b, c, c->mem[k].n, c->mem[k].imm, T_S0, R_L0), "");
    emit_report_call(b);
  }
  if (reroot) ptx_bprintf(b, "$L__gsan_skip_%d:\n", id);
  /* recover: loads yield zero, the access is skipped */
  const ptx_stmt *s = fs->fn.st[c->stmt];
  if (c->acc.dst_opnd >= 0)
    for (int k = s->opnd[c->acc.dst_opnd].lo; k < s->opnd[c->acc.dst_opnd].hi; k++) {
      int r = ptx_tok_reg(&fs->fn, &s->toks[k]);
      if (r >= 0 && fs->fn.regs.bits[r] >= 16 && fs->fn.regs.bits[r] <= 64)
        ptx_bprintf(b, "\tmov.b%d \t%s, 0;\n", fs->fn.regs.bits[r], fs->fn.regs.name[r]);
    }
  ptx_bprintf(b, "\tbra.uni \t$L__gsan_resume_%d;\n", id);
}

void ptx_emit_report_block(ptx_buf *b) {
  ptx_bprintf(b, PTX_REPORT_LABEL ":\n");
  emit_report_call(b);
  ptx_bprintf(b, "\ttrap;\n");
}

void ptx_emit_root_lookup(ptx_fstate *fs, ptx_buf *b, const ptx_root_slot *r, const ptx_stmt *def, int tag) {
  char base[32], size[32];
  reg_txt(base, sizeof base, 64, r->base);
  reg_txt(size, sizeof size, 64, r->size);
  int w = ptx_launch_word(fs->launch.params, def);
  if (w + 1 > fs->launch.words) fs->launch.words = w + 1;
  if (!fs->launch.copy) w = -1; /* the kernel itself looks every root up */
  if (w >= 0)
    ptx_bprintf(b, "\t// gsan: bounds of the pointer in %s, given by the launch (word %d)\n", fs->fn.regs.name[r->reg], w);
  else
    ptx_bprintf(b, "\t// gsan: bounds of the pointer in %s, looked up once here\n", fs->fn.regs.name[r->reg]);
  int skip = def->pred >= 0;
  if (skip)
    ptx_bprintf(b, "\t@%s%.*s bra \t$L__gsan_skip_%d_%d;\n", def->pred_neg ? "" : "!", (int)def->toks[def->pred].len,
            def->toks[def->pred].text, r->base, tag);
  if (w >= 0) emit_launch_lookup(b, w, base, size);
  else emit_lookup(b, fs->fn.regs.name[r->reg], base, size);
  /* a root outside its object (a - 1, a freed or never allocated slot):
   * bounds {0, 0}, so its accesses are looked up by their own addresses in
   * the stub (emit_reroot); outside the arena the size is GSAN_UNCHECKED_SIZE,
   * beyond every address, and stays */
  ptx_bprintf(b,
              "\tsub.s64 \t%%gsan_rd%d, %s, %s;\n"
              "\tsetp.ge.u64 \t%%gsan_p%d, %%gsan_rd%d, %s;\n"
              "\t@%%gsan_p%d mov.u64 \t%s, 0;\n"
              "\t@%%gsan_p%d mov.u64 \t%s, 0;\n",
              T_L5, fs->fn.regs.name[r->reg], base, P_LOOKUP, T_L5, size, P_LOOKUP, base, P_LOOKUP, size);
  for (int k = 0; k < r->nw; k++) {
    char cnt[32];
    reg_txt(cnt, sizeof cnt, 64, r->cnt[k]);
    emit_cnt(b, 64, cnt, size, r->widths[k]);
  }
  if (skip) ptx_bprintf(b, "$L__gsan_skip_%d_%d:\n", r->base, tag);
}


void ptx_emit_prologue(ptx_fstate *fs, ptx_buf *b) {
  ptx_bprintf(b, "\t.reg .b64 \t%%gsan_rd<%d>;\n\t.reg .b32 \t%%gsan_r<%d>;\n\t.reg .pred \t%%gsan_p<%d>;\n", fs->nrd,
              fs->nr32, P_FIRST_FREE);
  /* roots start out unchecked: a path that skips a root's definition must
   * not compare against garbage */
  for (int r = 0; r < fs->nroots; r++) {
    const ptx_root_slot *rs = &fs->roots[r];
    ptx_bprintf(b, "\tmov.u64 \t%%gsan_rd%d, 0;\n\tmov.u64 \t%%gsan_rd%d, %llu;\n", rs->base, rs->size,
                (unsigned long long)GSAN_UNCHECKED_SIZE);
    for (int k = 0; k < rs->nw; k++)
      ptx_bprintf(b, "\tmov.u64 \t%%gsan_rd%d, %llu;\n", rs->cnt[k], (unsigned long long)GSAN_UNCHECKED_SIZE);
  }
}
