/* Instruction decoding: which instructions touch memory, in which state
 * space, how wide, and through which operand. Everything with an address
 * operand that is not listed here is reported as unsupported, never silently
 * ignored. */
#include "ptx_ir.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

static size_t base_len(const ptx_stmt *s) {
  const ptx_tok *t = &s->toks[s->op];
  const char *dot = memchr(t->text, '.', t->len);
  return dot ? (size_t)(dot - t->text) : t->len;
}

int ptx_op_is(const ptx_stmt *s, const char *base) {
  if (s->kind != ST_INSN) return 0;
  size_t n = strlen(base);
  return base_len(s) == n && memcmp(s->toks[s->op].text, base, n) == 0;
}

/* qualifier match: ".global" matches ".global" but not ".globalx"; a
 * qualifier with "::" matches only fully ("shared::cta") while a plain
 * one also matches its "::" refinements (".shared" matches ".shared::cta"). */
int ptx_op_has(const ptx_stmt *s, const char *qual) {
  const ptx_tok *t = &s->toks[s->op];
  size_t n = strlen(qual);
  const char *p = t->text, *end = t->text + t->len;
  while ((p = memchr(p, '.', (size_t)(end - p))) != NULL) {
    if ((size_t)(end - p) >= n && memcmp(p, qual, n) == 0) {
      const char *after = p + n;
      if (after == end || *after == '.' || (after[0] == ':' && after + 1 < end && after[1] == ':')) return 1;
    }
    p++;
  }
  return 0;
}

static int op_space(const ptx_stmt *s) {
  if (ptx_op_has(s, ".global")) return GSAN_SPACE_GLOBAL;
  if (ptx_op_has(s, ".shared")) return GSAN_SPACE_SHARED;
  if (ptx_op_has(s, ".local")) return GSAN_SPACE_LOCAL;
  if (ptx_op_has(s, ".const")) return GSAN_SPACE_CONST;
  if (ptx_op_has(s, ".param")) return -1;
  return GSAN_SPACE_GENERIC;
}

static int op_width(const ptx_stmt *s) {
  static const struct { const char *q; int b; } types[] = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
      {".bf16", 2}, {".e4m3x2", 2}, {".e5m2x2", 2}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4},
      {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16},
      {NULL, 0}};
  int w = 0;
  for (int i = 0; types[i].q; i++)
    if (ptx_op_has(s, types[i].q)) { w = types[i].b; break; }
  if (!w) return 0;
  if (ptx_op_has(s, ".v2")) w *= 2;
  else if (ptx_op_has(s, ".v4")) w *= 4;
  else if (ptx_op_has(s, ".v8")) w *= 8;
  return w;
}

static int is_addr_opnd(const ptx_stmt *s, int k) {
  return k < s->nopnd && ptx_tok_punct(&s->toks[s->opnd[k].lo], '[');
}

static int has_addr_opnd(const ptx_stmt *s) {
  for (int k = 0; k < s->nopnd; k++)
    if (is_addr_opnd(s, k)) return 1;
  return 0;
}

static int const_operand(const ptx_stmt *s, int k) {
  if (k >= s->nopnd || s->opnd[k].hi - s->opnd[k].lo != 1) return -1;
  const ptx_tok *t = &s->toks[s->opnd[k].lo];
  if (t->kind != TK_NUMBER) return -1;
  return (int)strtol(t->text, NULL, 0);
}

static void set(ptx_access *a, int kind, int space, int width, int addr) {
  a->kind = kind;
  a->space = space;
  a->width = width;
  a->addr_opnd = addr;
  a->width_opnd = -1;
  a->dst_opnd = -1;
}

int ptx_insn_accesses(const ptx_stmt *s, ptx_access out[2], const char **why) {
  *why = NULL;
  if (s->kind != ST_INSN || !has_addr_opnd(s)) return INSN_NO_ACCESS;
  int space = op_space(s);
  if (ptx_op_is(s, "ld") || ptx_op_is(s, "ldu")) {
    if (space < 0) return INSN_NO_ACCESS;          /* parameters */
    if (!is_addr_opnd(s, 1)) goto unsupported;
    set(&out[0], GSAN_ACCESS_READ, space, op_width(s), 1);
    out[0].dst_opnd = 0;
    if (!out[0].width) { *why = "unknown access width"; return INSN_UNSUPPORTED; }
    return 1;
  }
  if (ptx_op_is(s, "st")) {
    if (space < 0) return INSN_NO_ACCESS;
    if (ptx_op_has(s, ".async")) { *why = "st.async to another CTA's shared memory"; return INSN_UNSUPPORTED; }
    if (!is_addr_opnd(s, 0)) goto unsupported;
    set(&out[0], GSAN_ACCESS_WRITE, space, op_width(s), 0);
    if (!out[0].width) { *why = "unknown access width"; return INSN_UNSUPPORTED; }
    return 1;
  }
  /* only ld and st name the parameter space; anything else with it is not
   * PTX ptxas takes, and has no space gsan checks */
  if (space < 0) { *why = "the parameter space"; return INSN_UNSUPPORTED; }
  if (ptx_op_is(s, "atom") || ptx_op_is(s, "red")) {
    int k = ptx_op_is(s, "atom") ? 1 : 0;
    if (ptx_op_has(s, ".async")) { *why = "red.async to another CTA's shared memory"; return INSN_UNSUPPORTED; }
    if (!is_addr_opnd(s, k)) goto unsupported;
    set(&out[0], GSAN_ACCESS_ATOMIC, space, op_width(s), k);
    if (k == 1) out[0].dst_opnd = 0;
    if (!out[0].width) { *why = "unknown access width"; return INSN_UNSUPPORTED; }
    return 1;
  }
  if (ptx_op_is(s, "ldmatrix") || ptx_op_is(s, "stmatrix")) {
    int ld = ptx_op_is(s, "ldmatrix"), k = ld ? 1 : 0;
    if (!is_addr_opnd(s, k)) goto unsupported;
    /* each thread supplies the address of one 16-byte row (8 x b16), or 8 rows
     * of b8 for .b8x16; the row is what this thread's address covers */
    set(&out[0], ld ? GSAN_ACCESS_READ : GSAN_ACCESS_WRITE, space == GSAN_SPACE_GENERIC ? GSAN_SPACE_SHARED : space, 16, k);
    if (ld) out[0].dst_opnd = 0;
    return 1;
  }
  if (ptx_op_is(s, "mbarrier")) {
    for (int k = 0; k < s->nopnd; k++)
      if (is_addr_opnd(s, k)) {
        set(&out[0], GSAN_ACCESS_BARRIER, space, 8, k);
        return 1;
      }
    return INSN_NO_ACCESS;
  }
  if (ptx_op_is(s, "cp")) {
    if (ptx_op_has(s, ".prefetch") || ptx_op_has(s, ".wait_group") || ptx_op_has(s, ".commit_group"))
      return INSN_NO_ACCESS;
    if (ptx_op_has(s, ".tensor")) { *why = "bulk tensor copy (bounds live in the tensor map)"; return INSN_UNSUPPORTED; }
    if (ptx_op_has(s, ".reduce")) { *why = "bulk reduction"; return INSN_UNSUPPORTED; }
    if (ptx_op_has(s, ".mbarrier") && !ptx_op_has(s, ".bulk") && s->nopnd == 1) {
      /* cp.async.mbarrier.arrive.b64 [mbar] */
      set(&out[0], GSAN_ACCESS_BARRIER, ptx_op_has(s, ".shared") ? GSAN_SPACE_SHARED : GSAN_SPACE_GENERIC, 8, 0);
      return 1;
    }
    if (!ptx_op_has(s, ".async") || !is_addr_opnd(s, 0) || !is_addr_opnd(s, 1)) goto unsupported;
    int dst_space, src_space;
    if (ptx_op_has(s, ".bulk")) {
      /* cp.async.bulk.<dst>.<src>...: the first space named is the destination */
      const ptx_tok *t = &s->toks[s->op];
      const char *g = strstr(t->text, ".global"), *sh = strstr(t->text, ".shared");
      if (!g || !sh || (size_t)(g - t->text) > t->len || (size_t)(sh - t->text) > t->len) goto unsupported;
      dst_space = sh < g ? GSAN_SPACE_SHARED : GSAN_SPACE_GLOBAL;
      src_space = sh < g ? GSAN_SPACE_GLOBAL : GSAN_SPACE_SHARED;
      set(&out[0], GSAN_ACCESS_COPY_DST, dst_space, 0, 0);
      set(&out[1], GSAN_ACCESS_COPY_SRC, src_space, 0, 1);
      out[0].width_opnd = out[1].width_opnd = 2;
      if (const_operand(s, 2) > 0) out[0].width = out[1].width = const_operand(s, 2);
      if (out[0].width) out[0].width_opnd = out[1].width_opnd = -1;
      return 2;
    }
    /* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}{, policy} */
    int cp = const_operand(s, 2);
    if (cp <= 0) goto unsupported;
    set(&out[0], GSAN_ACCESS_COPY_DST, GSAN_SPACE_SHARED, cp, 0);
    set(&out[1], GSAN_ACCESS_COPY_SRC, GSAN_SPACE_GLOBAL, cp, 1);
    /* an operand between cp-size and the optional cache policy is src-size
     * (bytes read, the rest zero-filled) or the ignore-src predicate */
    if (s->nopnd - 3 - (ptx_op_has(s, ".L2::cache_hint") ? 1 : 0) >= 1) {
      int ss = const_operand(s, 3);
      if (ss >= 0) out[1].width = ss;
      else { out[1].width = 0; out[1].width_opnd = 3; }
    }
    return out[1].width == 0 && out[1].width_opnd < 0 ? 1 : 2;
  }
  /* no memory touched through the address, or bounds not expressible */
  if (ptx_op_is(s, "prefetch") || ptx_op_is(s, "prefetchu") || ptx_op_is(s, "applypriority") ||
      ptx_op_is(s, "discard") || ptx_op_is(s, "createpolicy") || ptx_op_is(s, "isspacep") ||
      ptx_op_is(s, "tex") || ptx_op_is(s, "tld4") || ptx_op_is(s, "txq") || ptx_op_is(s, "suq") ||
      ptx_op_is(s, "istypep") || ptx_op_is(s, "suld") || ptx_op_is(s, "sust") || ptx_op_is(s, "sured"))
    return INSN_NO_ACCESS;
unsupported:
  *why = "instruction with an address operand that gsan does not check";
  return INSN_UNSUPPORTED;
}

int ptx_insn_writes_first(const ptx_stmt *s) {
  static const char *const nodef[] = {"bar", "barrier", "nanosleep", "brx", "pmevent", "griddepcontrol",
                                      "setmaxnreg", "trap", "exit", "ret", "bra", "call", "membar",
                                      "fence", "brkpt", "st", "red", "prefetch", "prefetchu", NULL};
  if (s->kind != ST_INSN || s->nopnd == 0) return 0;
  if (ptx_tok_punct(&s->toks[s->opnd[0].lo], '[')) return 0;
  for (int i = 0; nodef[i]; i++)
    if (ptx_op_is(s, nodef[i])) return (ptx_op_is(s, "bar") || ptx_op_is(s, "barrier")) && ptx_op_has(s, ".red");
  return 1;
}

const char *ptx_space_name(int sp) {
  switch (sp) {
  case GSAN_SPACE_GLOBAL: return "global";
  case GSAN_SPACE_SHARED: return "shared";
  case GSAN_SPACE_LOCAL: return "local";
  case GSAN_SPACE_CONST: return "const";
  default: return "generic";
  }
}
