/* The instrumenter: finds every memory access, resolves its root, decides
 * which bounds apply (static symbol size, dynamic shared size, arena lookup),
 * hands the checks to elimination, then rewrites each function body: lookups
 * after root definitions, compare-and-branch before accesses, failure stubs
 * out of line at the end of the scope. The text of what it inserts is
 * generated here and parsed back, so it goes through the same printer. */
#include "ptx_instr.h"

#include <gsan/abi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing text buffer for generated PTX ---- */
typedef struct buf { char *p; size_t n, cap; } buf;

static void bprintf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(buf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int need = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (b->n + (size_t)need + 1 > b->cap) {
    while (b->n + (size_t)need + 1 > b->cap) b->cap = b->cap ? b->cap * 2 : 4096;
    b->p = realloc(b->p, b->cap);
  }
  vsnprintf(b->p + b->n, (size_t)need + 1, fmt, ap2);
  va_end(ap2);
  b->n += (size_t)need;
}

/* ---- per-function state ---- */
typedef struct root_slot {
  int def;            /* definition index */
  int reg;            /* register holding the root value */
  int base, size;     /* %gsan_rd indices */
  int widths[8], cnt[8], nw;
} root_slot;

typedef struct fstate {
  ptx_module *m;
  const ptx_opts *o;
  ptx_stats *st;
  ptx_diag *d;
  ptx_sites *sites;
  ptx_fn fn;
  ptx_rootwalk *rw;
  ptx_check *c;
  int nc, capc;
  root_slot *roots;
  int nroots;
  int nrd, nr, np;    /* registers used: %gsan_rd<nrd>, %gsan_r<nr>, %gsan_p<np> */
  uint64_t modid;
} fstate;

/* fixed temporaries; root registers are numbered from RD_FIRST_ROOT */
enum { T_ADDR = 0, T_OFF, T_CNT, T_BASE, T_SIZE, T_L0, T_L1, T_L2, T_L3, T_L4, T_L5, T_S0, T_S1, T_S2, T_S3,
       A_MOD, A_ADDR, A_BASE, A_SIZE, A_WIDTH, RD_FIRST_ROOT }; /* A_: the stub's call arguments */
enum { R_L0 = 0, R_L1, R_L2, R_L3, R_DYN, R_FIRST_FREE };
enum { P_LOOKUP = 0, P_CHECK, P_STUB, P_FIRST_FREE };

static const char *space_name(int sp) {
  switch (sp) {
  case GSAN_SPACE_GLOBAL: return "global";
  case GSAN_SPACE_SHARED: return "shared";
  case GSAN_SPACE_LOCAL: return "local";
  case GSAN_SPACE_CONST: return "const";
  default: return "generic";
  }
}

static const char *tokstr(fstate *fs, const ptx_tok *t) { return ptx_strndup(fs->fn.a, t->text, t->len); }

/* Parses [reg], [reg+imm], [reg+-imm], [sym], [sym+imm], [imm]. */
static int parse_address(fstate *fs, const ptx_stmt *s, int k, int *reg, ptx_symbol **sym, int64_t *imm) {
  const ptx_tok *t = &s->toks[s->opnd[k].lo];
  int lo = s->opnd[k].lo + 1, hi = s->opnd[k].hi - 1; /* inside the brackets */
  *reg = -1;
  *sym = NULL;
  *imm = 0;
  if (hi <= lo || !ptx_tok_punct(&s->toks[hi], ']')) return -1;
  (void)t;
  const ptx_tok *b = &s->toks[lo];
  int i = lo + 1;
  if (b->kind == TK_NUMBER) {
    *imm = strtoll(b->text, NULL, 0);
    return i == hi ? 1 : -1; /* absolute address: not checkable */
  }
  if (b->kind != TK_IDENT) return -1;
  *reg = ptx_tok_reg(&fs->fn, b);
  if (*reg < 0) {
    *sym = ptx_find_symbol(&fs->fn.syms, b->text, b->len);
    if (!*sym) *sym = ptx_find_symbol(&fs->m->symbols, b->text, b->len);
    if (!*sym) return -1;
  }
  if (i == hi) return 0;
  if (!ptx_tok_punct(&s->toks[i], '+') && !ptx_tok_punct(&s->toks[i], '-')) return -1;
  int neg = ptx_tok_punct(&s->toks[i], '-');
  i++;
  if (i < hi && ptx_tok_punct(&s->toks[i], '-')) { neg = !neg; i++; }
  if (i != hi - 1 || s->toks[i].kind != TK_NUMBER) return -1;
  *imm = strtoll(s->toks[i].text, NULL, 0);
  if (neg) *imm = -*imm;
  return 0;
}

static int root_slot_for(fstate *fs, int def) {
  for (int i = 0; i < fs->nroots; i++)
    if (fs->roots[i].def == def) return i;
  fs->roots = realloc(fs->roots, (size_t)(fs->nroots + 1) * sizeof *fs->roots);
  root_slot *r = &fs->roots[fs->nroots];
  memset(r, 0, sizeof *r);
  r->def = def;
  r->reg = fs->fn.def[def].reg;
  r->base = fs->nrd++;
  r->size = fs->nrd++;
  return fs->nroots++;
}

static int root_cnt_reg(fstate *fs, root_slot *r, int width) {
  for (int i = 0; i < r->nw; i++)
    if (r->widths[i] == width) return r->cnt[i];
  if (r->nw == 8) return -1;
  r->widths[r->nw] = width;
  r->cnt[r->nw] = fs->nrd++;
  return r->cnt[r->nw++];
}

/* .loc tracking for the site table */
typedef struct loc { int file, line, col; } loc;

static void note_loc(loc *l, const ptx_stmt *s) {
  if (s->kind != ST_DIRECTIVE || !ptx_tok_is(&s->toks[0], ".loc") || s->ntok < 3) return;
  l->file = atoi(s->toks[1].text);
  l->line = atoi(s->toks[2].text);
  l->col = s->ntok > 3 && s->toks[3].kind == TK_NUMBER ? atoi(s->toks[3].text) : 0;
}

static const char *loc_file(fstate *fs, const loc *l) {
  if (l->file <= 0 || l->file >= fs->m->files.n) return NULL;
  return fs->m->files.v[l->file];
}

static void add_check(fstate *fs, const ptx_check *c) {
  if (fs->nc == fs->capc) {
    fs->capc = fs->capc ? fs->capc * 2 : 64;
    fs->c = realloc(fs->c, (size_t)fs->capc * sizeof *fs->c);
  }
  fs->c[fs->nc++] = *c;
}

/* ---- step 1: find accesses, resolve roots, record checks ---- */
static void collect(fstate *fs) {
  ptx_fn *fn = &fs->fn;
  loc l = {0, 0, 0};
  for (int i = 0; i < fn->nst; i++) {
    ptx_stmt *s = fn->st[i];
    note_loc(&l, s);
    ptx_access acc[2];
    const char *why;
    int na = ptx_insn_accesses(s, acc, &why);
    if (na == INSN_UNSUPPORTED) {
      fs->st->unchecked_unsupported++;
      ptx_warn(fs->d, s->line, s->toks[s->op].col, "not checked: '%.*s': %s", (int)s->toks[s->op].len,
               s->toks[s->op].text, why);
      continue;
    }
    for (int a = 0; a < na; a++) {
      ptx_access *ac = &acc[a];
      int sp = ac->space;
      fs->st->seen[sp]++;
      if (!(fs->o->spaces & (1u << sp))) { fs->st->not_requested++; continue; }
      ptx_check c;
      memset(&c, 0, sizeof c);
      c.stmt = i;
      c.space = sp;
      c.acc = *ac;
      c.pred_reg = -1;
      if (s->pred >= 0) {
        c.pred_tok = &s->toks[s->pred];
        c.pred_reg = ptx_tok_reg(fn, c.pred_tok);
        c.pred_neg = s->pred_neg;
      }
      int64_t imm;
      int rc = parse_address(fs, s, ac->addr_opnd, &c.addr_reg, &c.addr_sym, &imm);
      if (rc != 0) {
        fs->st->unchecked_unsupported++;
        ptx_warn(fs->d, s->line, s->toks[s->opnd[ac->addr_opnd].lo].col, "not checked: address form not supported");
        continue;
      }
      const ptx_tok *wtok = ac->width_opnd >= 0 ? &s->toks[s->opnd[ac->width_opnd].lo] : NULL;
      if (wtok && wtok->kind != TK_NUMBER) {
        int wr = ptx_tok_reg(fn, wtok);
        if (wr < 0 || fn->regs.bits[wr] < 16) {
          /* cp.async's ignore-src predicate: the source may be skipped */
          fs->st->unchecked_unsupported++;
          continue;
        }
      }
      if (c.addr_reg >= 0) {
        c.bits = fn->regs.bits[c.addr_reg] == 32 ? 32 : 64;
        if (fn->regs.bits[c.addr_reg] != 32 && fn->regs.bits[c.addr_reg] != 64) {
          fs->st->unchecked_unsupported++;
          continue;
        }
        c.root = ptx_find_root(fs->rw, i, c.addr_reg);
      } else {
        c.bits = 64;
        c.root.kind = ROOT_SYMBOL;
        c.root.sym = c.addr_sym;
      }
      /* which bounds apply */
      if (c.root.kind == ROOT_SYMBOL) {
        ptx_symbol *sym = c.root.sym;
        if ((sym->is_extern && !sym->dynamic && sym->size == 0) || (!sym->dynamic && sym->size == 0)) {
          fs->st->unchecked_extern++;
          continue;
        }
        if (sym->space == GSAN_SPACE_CONST && sp != GSAN_SPACE_CONST && sp != GSAN_SPACE_GENERIC) {
          fs->st->unchecked_noroot++;
          continue;
        }
      } else if (sp == GSAN_SPACE_SHARED || sp == GSAN_SPACE_LOCAL || sp == GSAN_SPACE_CONST) {
        /* the arena holds global memory only; a shared or local access needs a
         * variable as its root */
        fs->st->unchecked_noroot++;
        continue;
      }
      c.lo = imm;
      c.hi = imm + ac->width;
      c.nmem = 1;
      c.mem = ptx_alloc(fs->fn.a, sizeof *c.mem);
      c.mem[0].stmt = i;
      c.mem[0].imm = imm;
      c.mem[0].width = ac->width;
      c.mem[0].wtok = ac->width ? NULL : wtok;
      c.mem[0].site = ptx_sites_add(fs->sites, fs->fn.f->name, loc_file(fs, &l), l.line, l.col, s->line, ac->kind,
                                    sp, ac->width);
      /* [symbol+imm] with a static size is decided now */
      if (c.addr_sym && !c.addr_sym->dynamic) {
        if (imm >= 0 && ac->width > 0 && (uint64_t)imm + (uint64_t)ac->width <= c.addr_sym->size) {
          fs->st->static_safe++;
          fs->st->checked[sp]++;
          continue;
        }
        c.always_fail = ac->width > 0;
        if (c.always_fail) {
          fs->st->static_oob++;
          ptx_warn(fs->d, s->line, s->toks[s->opnd[ac->addr_opnd].lo].col,
                   "access [%s%+lld] of %d bytes is outside '%s' (%llu bytes): it always fails", c.addr_sym->name,
                   (long long)imm, ac->width, c.addr_sym->name, (unsigned long long)c.addr_sym->size);
        }
      }
      fs->st->checked[sp]++;
      add_check(fs, &c);
    }
  }
}

/* ---- step 3: text generation ---- */
static void reg_txt(char *out, size_t n, int bits, int idx) {
  snprintf(out, n, bits == 32 ? "%%gsan_r%d" : bits == 1 ? "%%gsan_p%d" : "%%gsan_rd%d", idx);
}

/* A temporary of the check's width for 64-bit index t64 / 32-bit index t32. */
static const char *T(fstate *fs, int bits, int t64, int t32) {
  return ptx_printf(fs->fn.a, bits == 32 ? "%%gsan_r%d" : "%%gsan_rd%d", bits == 32 ? t32 : t64);
}

/* the register (or immediate) holding the address register plus imm */
static const char *emit_addr(fstate *fs, buf *b, const ptx_check *c, int64_t imm, int t64, int t32) {
  const char *dst = T(fs, c->bits, t64, t32);
  const char *src;
  if (c->addr_reg >= 0) {
    src = fs->fn.regs.name[c->addr_reg];
  } else {
    bprintf(b, "\tmov.u64 \t%s, %s;\n", dst, c->addr_sym->name);
    if (c->space == GSAN_SPACE_GENERIC) bprintf(b, "\tcvta.%s.u64 \t%s, %s;\n", space_name(c->addr_sym->space), dst, dst);
    src = dst;
  }
  if (imm == 0) return src;
  bprintf(b, "\tadd.s%d \t%s, %s, %lld;\n", c->bits, dst, src, (long long)imm);
  return dst;
}

/* Arena lookup of the 64-bit value in `val` into base/size registers. */
static void emit_lookup(fstate *fs, buf *b, const char *val, const char *base, const char *size) {
  (void)fs;
  bprintf(b,
          "\tld.const.v2.u64 \t{%%gsan_rd%d, %%gsan_rd%d}, [" GSAN_CTX_SYMBOL "];\n"
          "\tsub.s64 \t%%gsan_rd%d, %s, %%gsan_rd%d;\n"
          "\tsetp.lt.u64 \t%%gsan_p%d, %%gsan_rd%d, %%gsan_rd%d;\n"
          "\tmov.u64 \t%s, 0;\n"
          "\tmov.u64 \t%s, %llu;\n",
          T_L0, T_L1, T_L2, val, T_L0, P_LOOKUP, T_L2, T_L1, base, size, (unsigned long long)GSAN_UNCHECKED_SIZE);
  const int q = P_LOOKUP;
  bprintf(b,
          "\t@%%gsan_p%d ld.const.v2.u32 \t{%%gsan_r%d, %%gsan_r%d}, [" GSAN_CTX_SYMBOL "+%d];\n"
          "\t@%%gsan_p%d ld.const.u32 \t%%gsan_r%d, [" GSAN_CTX_SYMBOL "+%d];\n"
          "\t@%%gsan_p%d ld.const.u64 \t%%gsan_rd%d, [" GSAN_CTX_SYMBOL "+%d];\n"
          "\t@%%gsan_p%d shr.u64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d cvt.u32.u64 \t%%gsan_r%d, %%gsan_rd%d;\n"
          "\t@%%gsan_p%d add.u32 \t%%gsan_r%d, %%gsan_r%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d shl.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d add.s64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_rd%d;\n"
          "\t@%%gsan_p%d mov.u64 \t%%gsan_rd%d, 1;\n"
          "\t@%%gsan_p%d shl.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d add.s64 \t%%gsan_rd%d, %%gsan_rd%d, -1;\n"
          "\t@%%gsan_p%d and.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_rd%d;\n"
          "\t@%%gsan_p%d shr.u64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d shl.b64 \t%%gsan_rd%d, %%gsan_rd%d, 3;\n"
          "\t@%%gsan_p%d add.s64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_rd%d;\n"
          "\t@%%gsan_p%d ld.global.u64 \t%s, [%%gsan_rd%d];\n"
          "\t@%%gsan_p%d mov.u64 \t%%gsan_rd%d, -1;\n"
          "\t@%%gsan_p%d shl.b64 \t%%gsan_rd%d, %%gsan_rd%d, %%gsan_r%d;\n"
          "\t@%%gsan_p%d and.b64 \t%s, %s, %%gsan_rd%d;\n",
          /* region shift -> r0, min shift -> r1; table shift -> r2; table base -> L3 */
          q, R_L0, R_L1, GSAN_CTX_REGION_SHIFT, q, R_L2, GSAN_CTX_TABLE_SHIFT, q, T_L3, GSAN_CTX_TABLE_BASE,
          /* k = off >> region_shift (L4); class shift r3 = k + min */
          q, T_L4, T_L2, R_L0, q, R_L3, T_L4, q, R_L3, R_L3, R_L1,
          /* class table: L3 += k << table_shift */
          q, T_L4, T_L4, R_L2, q, T_L3, T_L3, T_L4,
          /* offset in region: L4 = off & ((1 << region_shift) - 1) */
          q, T_L5, q, T_L5, T_L5, R_L0, q, T_L5, T_L5, q, T_L4, T_L2, T_L5,
          /* slot = L4 >> class shift; entry = L3 + slot*8 */
          q, T_L4, T_L4, R_L3, q, T_L4, T_L4, q, T_L3, T_L3, T_L4,
          q, size, T_L3,
          /* base = val & (-1 << class shift) */
          q, T_L5, q, T_L5, T_L5, R_L3, q, base, val, T_L5);
}

/* count of valid start offsets for width w: max(size - (w-1), 0) */
static void emit_cnt(buf *b, int bits, const char *dst, const char *size, int w) {
  if (w > 1) bprintf(b, "\tsub.s%d \t%s, %s, %d;\n", bits, dst, size, w - 1);
  else bprintf(b, "\tmov.b%d \t%s, %s;\n", bits, dst, size);
  bprintf(b, "\tmax.s%d \t%s, %s, 0;\n", bits, dst, dst);
}

/* Bounds of a check as operand texts in the check's width. Emits what is
 * needed to compute them at the check (symbol base, dynamic shared size,
 * per-access lookup). cnt is for the check's range width. */
typedef struct bounds { const char *base, *size, *cnt; } bounds;

static bounds check_bounds(fstate *fs, buf *b, const ptx_check *c, int stub) {
  bounds r;
  int bits = c->bits, w = (int)(c->hi - c->lo);
  ptx_arena *a = fs->fn.a;
  if (c->root.kind == ROOT_ARENA) {
    root_slot *rs = &fs->roots[c->root_slot];
    r.base = ptx_printf(a, "%%gsan_rd%d", rs->base);
    r.size = ptx_printf(a, "%%gsan_rd%d", rs->size);
    int cr = stub || w <= 0 ? -1 : root_cnt_reg(fs, rs, w);
    if (cr >= 0) r.cnt = ptx_printf(a, "%%gsan_rd%d", cr);
    else if (!stub && w > 0) {
      emit_cnt(b, 64, "%gsan_rd2", r.size, w);
      r.cnt = "%gsan_rd2";
    } else r.cnt = NULL;
    return r;
  }
  if (c->root.kind == ROOT_NONE) {
    if (!stub) {
      /* the address itself is looked up: base and size land in temporaries
       * that the stub reads */
      const char *addr = emit_addr(fs, b, c, c->lo, T_CNT, 0);
      emit_lookup(fs, b, addr, "%gsan_rd3", "%gsan_rd4");
      fs->st->lookups_access++;
    }
    r.base = "%gsan_rd3";
    r.size = "%gsan_rd4";
    r.cnt = NULL;
    if (!stub && w > 0) {
      emit_cnt(b, 64, "%gsan_rd2", r.size, w);
      r.cnt = "%gsan_rd2";
    }
    return r;
  }
  /* a variable */
  ptx_symbol *sym = c->root.sym;
  const char *base = T(fs, bits, stub ? T_S3 : T_BASE, stub ? R_L3 : R_L0);
  if (c->space == GSAN_SPACE_GENERIC) {
    bprintf(b, "\tmov.u64 \t%s, %s;\n\tcvta.%s.u64 \t%s, %s;\n", base, sym->name, space_name(sym->space), base, base);
  } else {
    bprintf(b, "\tmov.u%d \t%s, %s;\n", bits, base, sym->name);
  }
  r.base = base;
  if (sym->dynamic) {
    const char *size = T(fs, bits, stub ? T_S2 : T_SIZE, stub ? R_L2 : R_DYN);
    if (bits == 32) bprintf(b, "\tmov.u32 \t%s, %%dynamic_smem_size;\n", size);
    else bprintf(b, "\tmov.u32 \t%%gsan_r%d, %%dynamic_smem_size;\n\tcvt.u64.u32 \t%s, %%gsan_r%d;\n", R_DYN, size, R_DYN);
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

static const char *guard_txt(fstate *fs, const ptx_check *c) {
  if (c->pred_reg < 0) return "";
  return ptx_printf(fs->fn.a, ", %s%.*s", c->pred_neg ? "!" : "", (int)c->pred_tok->len, c->pred_tok->text);
}

static void emit_check(fstate *fs, buf *b, const ptx_check *c, int id) {
  int bits = c->bits;
  const ptx_stmt *s = fs->fn.st[c->stmt];
  bprintf(b, "\t// gsan: check %d, %s %s, PTX line %d\n", id, space_name(c->space), c->nmem > 1 ? "merged range" : "access",
          s->line);
  if (c->always_fail) {
    if (c->pred_reg >= 0)
      bprintf(b, "\t@%s%.*s bra \t$L__gsan_fail_%d;\n", c->pred_neg ? "!" : "", (int)c->pred_tok->len, c->pred_tok->text, id);
    else
      bprintf(b, "\tbra.uni \t$L__gsan_fail_%d;\n", id);
    return;
  }
  bounds bd = check_bounds(fs, b, c, 0);
  const char *addr = emit_addr(fs, b, c, c->lo, T_ADDR, R_L2);
  const char *off = T(fs, bits, T_OFF, R_L3);
  bprintf(b, "\tsub.s%d \t%s, %s, %s;\n", bits, off, addr, bd.base);
  const char *g = guard_txt(fs, c);
  const char *bop = *g ? ".and" : "";
  if (c->mem[0].width > 0) {
    bprintf(b, "\tsetp.ge%s.u%d \t%%gsan_p%d, %s, %s%s;\n", bop, bits, P_CHECK, off, bd.cnt, g);
  } else {
    /* width from an operand: off > size || width > size - off, unless width is 0 */
    const ptx_tok *wt = c->mem[0].wtok;
    const char *wv = tokstr(fs, wt);
    int wr = ptx_tok_reg(&fs->fn, wt);
    if (wr >= 0 && fs->fn.regs.bits[wr] != bits) {
      const char *wx = T(fs, bits, T_CNT, R_L1);
      bprintf(b, "\tcvt.u%d.u%d \t%s, %s;\n", bits, fs->fn.regs.bits[wr], wx, wv);
      wv = wx;
    }
    const char *rem = T(fs, bits, T_S0, R_L0);
    bprintf(b,
            "\tsetp.gt.u%d \t%%gsan_p%d, %s, %s;\n"
            "\tsub.s%d \t%s, %s, %s;\n"
            "\tsetp.lt.or.u%d \t%%gsan_p%d, %s, %s, %%gsan_p%d;\n"
            "\tsetp.ne.and.u%d \t%%gsan_p%d, %s, 0, %%gsan_p%d;\n",
            bits, P_CHECK, off, bd.size, bits, rem, bd.size, off, bits, P_CHECK, rem, wv, P_CHECK, bits, P_CHECK, wv,
            P_CHECK);
    if (*g) bprintf(b, "\tand.pred \t%%gsan_p%d, %%gsan_p%d, %s%.*s;\n", P_CHECK, P_CHECK, c->pred_neg ? "!" : "",
                    (int)c->pred_tok->len, c->pred_tok->text);
  }
  bprintf(b, "\t@%%gsan_p%d bra \t$L__gsan_fail_%d;\n", P_CHECK, id);
}

static void emit_widen(buf *b, int bits, const char *dst, const char *src, int is_imm) {
  if (bits == 64 || is_imm) bprintf(b, "\tmov.u64 \t%s, %s;\n", dst, src);
  else bprintf(b, "\tcvt.u64.u32 \t%s, %s;\n", dst, src);
}

/* The stub calls __gsan_report once per access its check covers; the report
 * function re-tests each one, so a merged range names the access that left
 * its bounds. Everything is widened to 64 bits for the call. */
static void emit_stub(fstate *fs, buf *b, const ptx_check *c, int id) {
  int bits = c->bits;
  bprintf(b, "$L__gsan_fail_%d:\n", id);
  bounds bd = check_bounds(fs, b, c, 1);
  char abase[32], asize[32], aaddr[32];
  reg_txt(abase, sizeof abase, 64, A_BASE);
  reg_txt(asize, sizeof asize, 64, A_SIZE);
  reg_txt(aaddr, sizeof aaddr, 64, A_ADDR);
  emit_widen(b, bits, abase, bd.base, 0);
  emit_widen(b, bits, asize, bd.size, bd.size[0] != '%');
  bprintf(b, "\tmov.u64 \t%%gsan_rd%d, %llu;\n\t{\n\t.param .b64 \t__gsan_a0;\n\t.param .b32 \t__gsan_a1;\n"
             "\t.param .b64 \t__gsan_a2;\n\t.param .b64 \t__gsan_a3;\n\t.param .b64 \t__gsan_a4;\n"
             "\t.param .b64 \t__gsan_a5;\n\t.reg .b32 \t%%gsan_site;\n",
          A_MOD, (unsigned long long)fs->modid);
  for (int k = 0; k < c->nmem; k++) {
    const ptx_member *m = &c->mem[k];
    const char *addr = emit_addr(fs, b, c, m->imm, T_S0, R_L0);
    emit_widen(b, bits, aaddr, addr, 0);
    if (m->width) {
      bprintf(b, "\tmov.u64 \t%%gsan_rd%d, %d;\n", A_WIDTH, m->width);
    } else {
      int wr = ptx_tok_reg(&fs->fn, m->wtok);
      const char *wv = tokstr(fs, m->wtok);
      if (wr >= 0 && fs->fn.regs.bits[wr] == 32) bprintf(b, "\tcvt.u64.u32 \t%%gsan_rd%d, %s;\n", A_WIDTH, wv);
      else bprintf(b, "\tmov.u64 \t%%gsan_rd%d, %s;\n", A_WIDTH, wv);
    }
    bprintf(b,
            "\tst.param.b64 \t[__gsan_a0], %%gsan_rd%d;\n"
            "\tmov.u32 \t%%gsan_site, %d;\n"
            "\tst.param.b32 \t[__gsan_a1], %%gsan_site;\n"
            "\tst.param.b64 \t[__gsan_a2], %%gsan_rd%d;\n"
            "\tst.param.b64 \t[__gsan_a3], %%gsan_rd%d;\n"
            "\tst.param.b64 \t[__gsan_a4], %%gsan_rd%d;\n"
            "\tst.param.b64 \t[__gsan_a5], %%gsan_rd%d;\n"
            "\tcall.uni \t" GSAN_REPORT_FUNC ", (__gsan_a0, __gsan_a1, __gsan_a2, __gsan_a3, __gsan_a4, __gsan_a5);\n",
            A_MOD, m->site, A_ADDR, A_BASE, A_SIZE, A_WIDTH);
  }
  bprintf(b, "\t}\n");
  if (!fs->o->recover) {
    bprintf(b, "\ttrap;\n");
    return;
  }
  /* recover: loads yield zero, the access is skipped */
  const ptx_stmt *s = fs->fn.st[c->stmt];
  if (c->acc.dst_opnd >= 0)
    for (int k = s->opnd[c->acc.dst_opnd].lo; k < s->opnd[c->acc.dst_opnd].hi; k++) {
      int r = ptx_tok_reg(&fs->fn, &s->toks[k]);
      if (r >= 0 && fs->fn.regs.bits[r] >= 16 && fs->fn.regs.bits[r] <= 64)
        bprintf(b, "\tmov.b%d \t%s, 0;\n", fs->fn.regs.bits[r], fs->fn.regs.name[r]);
    }
  bprintf(b, "\tbra.uni \t$L__gsan_resume_%d;\n", id);
}

static void emit_root_lookup(fstate *fs, buf *b, const root_slot *r, const ptx_stmt *def) {
  char base[32], size[32];
  reg_txt(base, sizeof base, 64, r->base);
  reg_txt(size, sizeof size, 64, r->size);
  bprintf(b, "\t// gsan: bounds of the pointer in %s, looked up once here\n", fs->fn.regs.name[r->reg]);
  int skip = def->pred >= 0;
  if (skip)
    bprintf(b, "\t@%s%.*s bra \t$L__gsan_skip_%d;\n", def->pred_neg ? "" : "!", (int)def->toks[def->pred].len,
            def->toks[def->pred].text, r->base);
  emit_lookup(fs, b, fs->fn.regs.name[r->reg], base, size);
  for (int k = 0; k < r->nw; k++) {
    char cnt[32];
    reg_txt(cnt, sizeof cnt, 64, r->cnt[k]);
    emit_cnt(b, 64, cnt, size, r->widths[k]);
  }
  if (skip) bprintf(b, "$L__gsan_skip_%d:\n", r->base);
}

/* Generated text becomes one raw statement: nothing analyses it after this
 * point, so it is printed as written instead of being lexed back. The tests
 * run ptxas on every instrumented corpus file to hold it to the grammar. */
static void push_text(fstate *fs, ptx_vec *out, buf *b, int scope) {
  if (!b->n) return;
  ptx_stmt *s = ptx_alloc(fs->m->arena, sizeof *s);
  s->kind = ST_RAW;
  s->pred = -1;
  s->scope = scope;
  s->raw = ptx_strndup(fs->m->arena, b->p, b->n);
  ptx_vec_push(out, s);
  b->n = 0;
}

/* ---- step 2+3: per function ---- */
static void instrument_function(fstate *fs, ptx_func *f) {
  ptx_fn *fn = &fs->fn;
  ptx_fn_build(fn, fs->m, f, fs->d);
  fs->st->funcs++;
  if (!fn->ok) {
    fs->st->funcs_fallback++;
    ptx_warn(fs->d, f->line, 1, "function '%s': %s; its accesses are looked up where they happen", f->name,
             fn->why ? fn->why : "control flow not analysable");
  }
  fs->rw = ptx_roots_new(fn);
  fs->nc = 0;
  fs->nroots = 0;
  fs->nrd = RD_FIRST_ROOT;
  collect(fs);
  if (!fs->o->no_elim && !fs->o->recover && fn->ok) ptx_eliminate(fn, fs->c, fs->nc, fs->st);
  /* root slots for the surviving checks */
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (c->removed || c->root.kind != ROOT_ARENA) continue;
    c->root_slot = root_slot_for(fs, c->root.def);
    fs->st->hoisted_uses++;
  }
  /* widths are registered while emitting checks, so emit checks first into
   * per-statement buffers, then lookups */
  int n = fn->nst;
  char **pre = calloc((size_t)n + 1, sizeof *pre), **stub = calloc((size_t)n + 1, sizeof *stub);
  buf b = {0};
  int id = 0;
  int *check_id = calloc((size_t)fs->nc + 1, sizeof(int));
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (c->removed) continue;
    check_id[i] = id++;
    fs->st->checks++;
  }
  /* pre-check text and stub text per check, concatenated per statement */
  buf *pb = calloc((size_t)n + 1, sizeof *pb), *sb = calloc((size_t)n + 1, sizeof *sb);
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (c->removed) continue;
    emit_check(fs, &pb[c->stmt], c, check_id[i]);
    emit_stub(fs, &sb[c->stmt], c, check_id[i]);
  }
  fs->st->lookups_root += fs->nroots;
  /* rebuild the body */
  ptx_vec out = {0};
  buf decl = {0};
  ptx_vec_free(&out);
  int nrd = fs->nrd, maxr = R_FIRST_FREE, maxp = P_FIRST_FREE;
  if (fs->nc > 0 || fs->nroots > 0) {
    bprintf(&decl, "\t.reg .b64 \t%%gsan_rd<%d>;\n\t.reg .b32 \t%%gsan_r<%d>;\n\t.reg .pred \t%%gsan_p<%d>;\n", nrd, maxr,
            maxp);
    /* roots start out unchecked: a path that skips the root's definition must
     * not compare against garbage */
    for (int r = 0; r < fs->nroots; r++) {
      root_slot *rs = &fs->roots[r];
      bprintf(&decl, "\tmov.u64 \t%%gsan_rd%d, 0;\n\tmov.u64 \t%%gsan_rd%d, %llu;\n", rs->base, rs->size,
              (unsigned long long)GSAN_UNCHECKED_SIZE);
      for (int k = 0; k < rs->nw; k++)
        bprintf(&decl, "\tmov.u64 \t%%gsan_rd%d, %llu;\n", rs->cnt[k], (unsigned long long)GSAN_UNCHECKED_SIZE);
    }
  }
  /* declarations go after the function's own leading .reg/.local directives */
  int lead = 0;
  while (lead < n && fn->st[lead]->kind == ST_DIRECTIVE && !ptx_tok_is(&fn->st[lead]->toks[0], ".loc") &&
         !ptx_tok_is(&fn->st[lead]->toks[0], ".pragma"))
    lead++;
  /* stubs collected per open scope */
  buf *scope_stubs = calloc(64, sizeof *scope_stubs);
  int depth = 0, over = 0;
  for (int i = 0; i <= n; i++) {
    if (i == lead) push_text(fs, &out, &decl, 1);
    if (i == n) break;
    ptx_stmt *s = fn->st[i];
    if (s->kind == ST_CLOSE && depth > 0) {
      buf *sc = &scope_stubs[depth < 64 ? depth : 63];
      if (sc->n) {
        buf t = {0};
        bprintf(&t, "\tbra.uni \t$L__gsan_over_%d;\n", over);
        bprintf(&t, "%.*s", (int)sc->n, sc->p);
        bprintf(&t, "$L__gsan_over_%d:\n", over++);
        push_text(fs, &out, &t, s->scope + 1);
        free(t.p);
        sc->n = 0;
      }
      depth--;
    }
    if (pb[i].n) push_text(fs, &out, &pb[i], s->scope);
    ptx_vec_push(&out, s);
    if (s->kind == ST_OPEN) depth++;
    if (fs->o->recover)
      for (int k = 0; k < fs->nc; k++)
        if (!fs->c[k].removed && fs->c[k].stmt == i) {
          buf t = {0};
          bprintf(&t, "$L__gsan_resume_%d:\n", check_id[k]);
          push_text(fs, &out, &t, s->scope);
          free(t.p);
        }
    for (int r = 0; r < fs->nroots; r++)
      if (fn->def[fs->roots[r].def].stmt == i) {
        emit_root_lookup(fs, &b, &fs->roots[r], s);
        push_text(fs, &out, &b, s->scope);
      }
    if (sb[i].n) {
      buf *sc = &scope_stubs[depth < 64 ? depth : 63];
      bprintf(sc, "%.*s", (int)sb[i].n, sb[i].p);
    }
  }
  if (scope_stubs[0].n) push_text(fs, &out, &scope_stubs[0], 1);
  for (int k = 0; k < 64; k++) free(scope_stubs[k].p);
  free(scope_stubs);
  for (int i = 0; i <= n; i++) { free(pb[i].p); free(sb[i].p); }
  free(pb); free(sb); free(pre); free(stub); free(b.p); free(decl.p); free(check_id);
  ptx_vec_free(&f->body);
  f->body = out;
  ptx_roots_free(fs->rw);
  fs->rw = NULL;
  ptx_fn_free(fn);
}

static uint64_t fnv64(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
  return h;
}

static ptx_item *text_item(ptx_module *m, const char *text, ptx_diag *d) {
  ptx_stmt *s = ptx_alloc(m->arena, sizeof *s);
  s->kind = ST_RAW;
  s->raw = text;
  s->pred = -1;
  (void)d;
  ptx_item *it = ptx_alloc(m->arena, sizeof *it);
  it->kind = IT_STMT;
  it->stmt = s;
  return it;
}

int ptx_instrument(ptx_module *m, const ptx_opts *o, ptx_stats *st, ptx_diag *d) {
  if (m->address_size != 64) {
    ptx_error(d, 1, 1, ".address_size %d is not supported: gsan instruments 64-bit PTX", m->address_size);
    return -1;
  }
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC && it->func->name && strncmp(it->func->name, "__gsan_", 7) == 0) {
      ptx_error(d, it->func->line, 1, "module is already instrumented by gsan ('%s')", it->func->name);
      return -1;
    }
  }
  fstate fs;
  memset(&fs, 0, sizeof fs);
  fs.m = m;
  fs.o = o;
  fs.st = st;
  fs.d = d;
  fs.sites = ptx_sites_new();
  fs.modid = o->module_id ? o->module_id : fnv64(m->src, m->srclen);
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC && !it->func->is_decl) instrument_function(&fs, it->func);
  }
  st->sites = ptx_sites_count(fs.sites);
  /* support code after the header directives, site table at the end */
  ptx_vec items = {0};
  int placed = 0;
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    int header = it->kind == IT_STMT && it->stmt->kind == ST_DIRECTIVE &&
                 (ptx_tok_is(&it->stmt->toks[0], ".version") || ptx_tok_is(&it->stmt->toks[0], ".target") ||
                  ptx_tok_is(&it->stmt->toks[0], ".address_size"));
    if (!placed && !header) {
      ptx_vec_push(&items, text_item(m, ptx_support_text(), d));
      placed = 1;
    }
    ptx_vec_push(&items, it);
  }
  if (!placed) ptx_vec_push(&items, text_item(m, ptx_support_text(), d));
  ptx_vec_push(&items, text_item(m, ptx_sites_decl(m->arena, fs.sites, fs.modid), d));
  ptx_vec_free(&m->items);
  m->items = items;
  ptx_sites_free(fs.sites);
  free(fs.c);
  free(fs.roots);
  return 0;
}

void ptx_stats_print(FILE *f, const ptx_stats *st) {
  static const int order[] = {GSAN_SPACE_GLOBAL, GSAN_SPACE_SHARED, GSAN_SPACE_LOCAL, GSAN_SPACE_GENERIC, GSAN_SPACE_CONST};
  long seen = 0, checked = 0;
  fprintf(f, "gsan ptx statistics\n");
  fprintf(f, "  %-10s %10s %10s\n", "space", "accesses", "checked");
  for (int k = 0; k < 5; k++) {
    int sp = order[k];
    fprintf(f, "  %-10s %10ld %10ld\n", space_name(sp), st->seen[sp], st->checked[sp]);
    seen += st->seen[sp];
    checked += st->checked[sp];
  }
  fprintf(f, "  %-10s %10ld %10ld\n", "total", seen, checked);
  fprintf(f, "  checks inserted:            %ld\n", st->checks);
  fprintf(f, "  checks removed (dominated): %ld\n", st->removed_dominated);
  fprintf(f, "  checks removed (merged):    %ld\n", st->removed_merged);
  fprintf(f, "  proven in bounds:           %ld\n", st->static_safe);
  fprintf(f, "  proven out of bounds:       %ld\n", st->static_oob);
  fprintf(f, "  lookups hoisted to roots:   %ld (serving %ld checks)\n", st->lookups_root, st->hoisted_uses);
  fprintf(f, "  lookups at the access:      %ld\n", st->lookups_access);
  fprintf(f, "  unchecked (no root):        %ld\n", st->unchecked_noroot);
  fprintf(f, "  unchecked (unsupported):    %ld\n", st->unchecked_unsupported);
  fprintf(f, "  unchecked (extern size):    %ld\n", st->unchecked_extern);
  fprintf(f, "  not requested (--spaces):   %ld\n", st->not_requested);
  fprintf(f, "  functions: %ld (%ld without CFG analysis)\n", st->funcs, st->funcs_fallback);
  fprintf(f, "  sites: %ld\n", st->sites);
}
