/* In-kernel malloc/free through gsan's device heap (docs/ptx.md, "The device
 * heap"; layouts in include/gsan/abi.h). Calls to malloc, free and the
 * aligned variant (__cuda_syscall_aligned_malloc, what
 * __nv_aligned_device_malloc compiles to) become calls to gsan's wrappers,
 * which take the call's module id and site as extra arguments. The wrappers
 * are emitted at the end of a module that calls them (after the callees'
 * .extern declarations, which their no-runtime path calls), with prototypes
 * before the first function. With a runtime, malloc claims an arena slot from
 * the run the runtime set aside for its size class and writes the exact size
 * into the slot table, so every access through the pointer (or through a
 * copy of it loaded elsewhere) gets exact bounds from the usual lookup; free
 * checks the block's state word and clears the table entry, or records a
 * double or invalid free through __gsan_report. */
#include "ptx_heap.h"

#include "ptx_buf.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(GSAN_CTX_ARENA_BASE == 0 && GSAN_CTX_TABLE_BASE == 16 && GSAN_CTX_RING_CTL == 32 &&
                   GSAN_CTX_REGION_SHIFT == 40 && GSAN_CTX_MIN_SHIFT == 44 && GSAN_CTX_TABLE_SHIFT == 48 &&
                   GSAN_RING_CTL_HEAP == 8 && GSAN_HEAP_CLASSES == 32 && GSAN_HEAP_LIVE == 1 &&
                   GSAN_HEAP_FREED == 2 && GSAN_HEAP_DOUBLE_FREE == 1 && GSAN_HEAP_INVALID_FREE == 2,
               "the text below hard-codes these offsets and values");

static const struct {
  const char *callee, *wrapper;
  int extra_align; /* malloc gets an alignment argument of 0 */
} calls[] = {
    [PTX_HEAP_MALLOC] = {"malloc", "__gsan_malloc", 1},
    [PTX_HEAP_ALIGNED] = {"__cuda_syscall_aligned_malloc", "__gsan_aligned_malloc", 0},
    [PTX_HEAP_FREE] = {"free", "__gsan_free", 0},
};

/* the operand naming the callee: a lone identifier (the others are
 * parenthesised parameter lists) */
static int callee_operand(const ptx_stmt *s) {
  if (s->kind != ST_INSN || s->toks[s->op].len < 4 || strncmp(s->toks[s->op].text, "call", 4)) return -1;
  for (int k = 0; k < s->nopnd; k++)
    if (s->opnd[k].hi - s->opnd[k].lo == 1 && s->toks[s->opnd[k].lo].kind == TK_IDENT) return k;
  return -1;
}

/* operand o is a parenthesised list of identifiers: (a) or (a, b) */
static int ident_list(const ptx_stmt *s, int o) {
  int lo = s->opnd[o].lo, hi = s->opnd[o].hi;
  if (hi - lo < 3 || !ptx_tok_punct(&s->toks[lo], '(') || !ptx_tok_punct(&s->toks[hi - 1], ')')) return 0;
  for (int i = lo + 1; i < hi - 1; i++)
    if ((i - lo) % 2 ? s->toks[i].kind != TK_IDENT : !ptx_tok_punct(&s->toks[i], ',')) return 0;
  return (hi - lo) % 2; /* ( a , b ): an odd count of tokens */
}

int ptx_heap_call(const ptx_stmt *s) {
  int k = callee_operand(s);
  if (k < 0) return PTX_HEAP_NONE;
  const ptx_tok *t = &s->toks[s->opnd[k].lo];
  for (int c = PTX_HEAP_MALLOC; c <= PTX_HEAP_FREE; c++) {
    if (strlen(calls[c].callee) != t->len || strncmp(t->text, calls[c].callee, t->len)) continue;
    /* only the shape nvcc writes is rewritten, `call (ret), malloc, (n);` or
     * `call free, (p);`: anything else (which ptxas refuses anyway) is left
     * as it is, since the rewrite rebuilds the argument list */
    int returns = c != PTX_HEAP_FREE;
    if (k != returns || s->nopnd != k + 2 || (returns && !ident_list(s, 0)) || !ident_list(s, k + 1))
      return PTX_HEAP_NONE;
    return c;
  }
  return PTX_HEAP_NONE;
}

static void put_tokens(ptx_buf *b, const ptx_stmt *s, int lo, int hi) {
  for (int i = lo; i < hi; i++) {
    int space = i > lo && s->toks[i].space && !ptx_tok_punct(&s->toks[i - 1], '(');
    ptx_bprintf(b, "%s%.*s", space ? " " : "", (int)s->toks[i].len, s->toks[i].text);
  }
}

char *ptx_heap_rewrite(ptx_arena *a, const ptx_stmt *s, int which, uint64_t modid, int site) {
  int k = callee_operand(s), last = s->nopnd - 1;
  ptx_buf b = {0};
  ptx_bprintf(&b, "\t{ // gsan: in-kernel %s through the device heap\n", calls[which].callee);
  if (calls[which].extra_align) ptx_bprintf(&b, "\t.param .b64 __gsan_heap_align;\n");
  ptx_bprintf(&b, "\t.param .b64 __gsan_heap_mod;\n\t.param .b32 __gsan_heap_site;\n");
  if (calls[which].extra_align) ptx_bprintf(&b, "\tst.param.b64 \t[__gsan_heap_align], 0;\n");
  ptx_bprintf(&b, "\tst.param.b64 \t[__gsan_heap_mod], 0x%016llx;\n\tst.param.b32 \t[__gsan_heap_site], %d;\n\t",
              (unsigned long long)modid, site);
  if (s->pred >= 0) ptx_bprintf(&b, "@%s%.*s ", s->pred_neg ? "!" : "", (int)s->toks[s->pred].len, s->toks[s->pred].text);
  put_tokens(&b, s, s->op, s->op + 1);
  for (int o = 0; o < s->nopnd; o++) {
    ptx_bprintf(&b, "%s", o ? ", " : " ");
    if (o == k) ptx_bprintf(&b, "%s", calls[which].wrapper);
    else if (o == last && o > k) { /* the argument list, without its ')' */
      put_tokens(&b, s, s->opnd[o].lo, s->opnd[o].hi - 1);
      ptx_bprintf(&b, "%s__gsan_heap_mod, __gsan_heap_site)",
                  calls[which].extra_align ? ", __gsan_heap_align, " : ", ");
    } else put_tokens(&b, s, s->opnd[o].lo, s->opnd[o].hi);
  }
  ptx_bprintf(&b, ";\n\t}\n");
  char *text = ptx_strndup(a, b.p, b.n);
  free(b.p);
  return text;
}

#define ALLOC_PARAMS "(.param .b64 __gsan_n, .param .b64 __gsan_align, .param .b64 __gsan_mod, .param .b32 __gsan_site)"
#define FREE_PARAMS "(.param .b64 __gsan_p, .param .b64 __gsan_mod, .param .b32 __gsan_site)"

/* the slot-table entry of block %rd5 (class %r3, log2 slot size %r1) into
 * %rd14 (docs/abi.md, "The arena lookup") */
#define TABLE_ENTRY                                                                                                  \
  "\tld.const.u64 \t%rd12, [" GSAN_CTX_SYMBOL "];\n"                                                                 \
  "\tsub.s64 \t%rd12, %rd5, %rd12;\n"                                                                                \
  "\tld.const.u32 \t%r8, [" GSAN_CTX_SYMBOL "+40];\n"                                                                \
  "\tmov.u64 \t%rd13, 1;\n"                                                                                          \
  "\tshl.b64 \t%rd13, %rd13, %r8;\n"                                                                                 \
  "\tadd.s64 \t%rd13, %rd13, -1;\n"                                                                                  \
  "\tand.b64 \t%rd12, %rd12, %rd13;\n"                                                                               \
  "\tshr.u64 \t%rd12, %rd12, %r1;\n"                                                                                 \
  "\tshl.b64 \t%rd12, %rd12, 3;\n"                                                                                   \
  "\tld.const.u32 \t%r9, [" GSAN_CTX_SYMBOL "+48];\n"                                                                \
  "\tcvt.u64.u32 \t%rd13, %r3;\n"                                                                                    \
  "\tshl.b64 \t%rd13, %rd13, %r9;\n"                                                                                 \
  "\tld.const.u64 \t%rd14, [" GSAN_CTX_SYMBOL "+16];\n"                                                              \
  "\tadd.s64 \t%rd14, %rd14, %rd13;\n"                                                                               \
  "\tadd.s64 \t%rd14, %rd14, %rd12;\n"

/* the heap descriptor into %rd4, or to the driver's function */
#define HEAP_OR_REAL                                                                                                 \
  "\tld.const.u64 \t%rd3, [" GSAN_CTX_SYMBOL "+32];\n"                                                               \
  "\tsetp.eq.u64 \t%p1, %rd3, 0;\n"                                                                                  \
  "\t@%p1 bra \t$L__gsan_heap_real;\n"                                                                               \
  "\tld.global.u64 \t%rd4, [%rd3+8];\n"                                                                              \
  "\tsetp.eq.u64 \t%p1, %rd4, 0;\n"                                                                                  \
  "\t@%p1 bra \t$L__gsan_heap_real;\n"

/* %s: the wrapper's name, then the driver's call for the no-runtime path */
static const char alloc_fmt[] =
    "\n.weak .func (.param .b64 __gsan_ret) %s" ALLOC_PARAMS "\n"
    "{\n"
    "\t.reg .pred \t%%p<3>;\n"
    "\t.reg .b32 \t%%r<12>;\n"
    "\t.reg .b64 \t%%rd<16>;\n"
    "\tld.param.u64 \t%%rd1, [__gsan_n];\n"
    "\tld.param.u64 \t%%rd2, [__gsan_align];\n"
    "%s"
    "\tmov.u64 \t%%rd5, 0;\n"
    "\tsetp.eq.u64 \t%%p1, %%rd1, 0;\n"
    "\t@%%p1 bra \t$L__gsan_heap_out;\n"
    /* the class: the smallest slot larger than the size (a pointer one past
     * the end stays in its slot, as on the host) and than the alignment */
    "\tmax.u64 \t%%rd6, %%rd1, %%rd2;\n"
    "\tclz.b64 \t%%r1, %%rd6;\n"
    "\tsub.s32 \t%%r1, 64, %%r1;\n"
    "\tld.const.u32 \t%%r2, [" GSAN_CTX_SYMBOL "+44];\n"
    "\tmax.u32 \t%%r1, %%r1, %%r2;\n"
    "\tsub.s32 \t%%r3, %%r1, %%r2;\n"
    /* claim a slot of the class's run; an exhausted run sends the block up a
     * class, past the last one it is NULL, as malloc's */
    "$L__gsan_heap_class:\n"
    "\tsetp.ge.u32 \t%%p1, %%r3, 32;\n"
    "\t@%%p1 bra \t$L__gsan_heap_out;\n"
    "\tmul.wide.u32 \t%%rd7, %%r3, 32;\n"
    "\tadd.s64 \t%%rd7, %%rd4, %%rd7;\n"
    "\tld.global.u64 \t%%rd8, [%%rd7];\n"
    "\tsetp.eq.u64 \t%%p1, %%rd8, 0;\n"
    "\t@%%p1 bra \t$L__gsan_heap_next;\n"
    "\tld.global.u32 \t%%r4, [%%rd7+24];\n"
    "\tatom.global.add.u32 \t%%r5, [%%rd7+28], 1;\n"
    "\tsetp.lt.u32 \t%%p1, %%r5, %%r4;\n"
    "\t@%%p1 bra \t$L__gsan_heap_got;\n"
    "$L__gsan_heap_next:\n"
    "\tadd.s32 \t%%r3, %%r3, 1;\n"
    "\tadd.s32 \t%%r1, %%r1, 1;\n"
    "\tbra.uni \t$L__gsan_heap_class;\n"
    "$L__gsan_heap_got:\n"
    "\tcvt.u64.u32 \t%%rd9, %%r5;\n"
    "\tshl.b64 \t%%rd5, %%rd9, %%r1;\n"
    "\tadd.s64 \t%%rd5, %%rd8, %%rd5;\n"
    /* the block's description, for the host's reports */
    "\tld.global.u64 \t%%rd10, [%%rd7+8];\n"
    "\tshl.b64 \t%%rd11, %%rd9, 6;\n"
    "\tadd.s64 \t%%rd10, %%rd10, %%rd11;\n"
    "\tld.param.u32 \t%%r6, [__gsan_site];\n"
    "\tst.volatile.global.u32 \t[%%rd10+4], %%r6;\n"
    "\tld.param.u64 \t%%rd11, [__gsan_mod];\n"
    "\tst.volatile.global.u64 \t[%%rd10+8], %%rd11;\n"
    "\tst.volatile.global.u64 \t[%%rd10+16], %%rd1;\n"
    "\tmov.u32 \t%%r7, %%tid.x;\n"
    "\tst.volatile.global.u32 \t[%%rd10+24], %%r7;\n"
    "\tmov.u32 \t%%r7, %%tid.y;\n"
    "\tst.volatile.global.u32 \t[%%rd10+28], %%r7;\n"
    "\tmov.u32 \t%%r7, %%tid.z;\n"
    "\tst.volatile.global.u32 \t[%%rd10+32], %%r7;\n"
    "\tmov.u32 \t%%r7, %%ctaid.x;\n"
    "\tst.volatile.global.u32 \t[%%rd10+36], %%r7;\n"
    "\tmov.u32 \t%%r7, %%ctaid.y;\n"
    "\tst.volatile.global.u32 \t[%%rd10+40], %%r7;\n"
    "\tmov.u32 \t%%r7, %%ctaid.z;\n"
    "\tst.volatile.global.u32 \t[%%rd10+44], %%r7;\n"
    /* the exact size into the slot table: from here on accesses are bounded */
    "%s"
    "\tst.global.u64 \t[%%rd14], %%rd1;\n"
    "\tld.global.u64 \t%%rd12, [%%rd7+16];\n"
    "\tshl.b64 \t%%rd11, %%rd9, 2;\n"
    "\tadd.s64 \t%%rd12, %%rd12, %%rd11;\n"
    "\tmembar.gl;\n"
    "\tst.volatile.global.u32 \t[%%rd12], 1;\n"
    "\tmembar.sys;\n"
    "\tst.volatile.global.u32 \t[%%rd10], 1;\n"
    "\tbra.uni \t$L__gsan_heap_out;\n"
    "$L__gsan_heap_real:\n"
    "\t{\n"
    "\t.param .b64 __gsan_a0;\n"
    "\t.param .b64 __gsan_a1;\n"
    "\t.param .b64 __gsan_r0;\n"
    "\tst.param.b64 \t[__gsan_a0], %%rd1;\n"
    "\tst.param.b64 \t[__gsan_a1], %%rd2;\n"
    "\tcall.uni (__gsan_r0), %s, (__gsan_a0%s);\n"
    "\tld.param.b64 \t%%rd5, [__gsan_r0];\n"
    "\t}\n"
    "$L__gsan_heap_out:\n"
    "\tst.param.b64 \t[__gsan_ret], %%rd5;\n"
    "\tret;\n"
    "}\n";

static const char free_text[] =
    "\n.weak .func __gsan_free" FREE_PARAMS "\n"
    "{\n"
    "\t.reg .pred \t%p<3>;\n"
    "\t.reg .b32 \t%r<12>;\n"
    "\t.reg .b64 \t%rd<16>;\n"
    "\tld.param.u64 \t%rd5, [__gsan_p];\n" HEAP_OR_REAL
    "\tsetp.eq.u64 \t%p1, %rd5, 0;\n" /* free(NULL) does nothing */
    "\t@%p1 bra \t$L__gsan_heap_out;\n"
    "\tmov.u64 \t%rd9, 2;\n"
    /* the run and slot the pointer falls in: none, or not a slot's base, is
     * an invalid free */
    "\tld.const.v2.u64 \t{%rd6, %rd7}, [" GSAN_CTX_SYMBOL "];\n"
    "\tsub.s64 \t%rd6, %rd5, %rd6;\n"
    "\tsetp.ge.u64 \t%p1, %rd6, %rd7;\n"
    "\t@%p1 bra \t$L__gsan_heap_bad;\n"
    "\tld.const.u32 \t%r8, [" GSAN_CTX_SYMBOL "+40];\n"
    "\tshr.u64 \t%rd6, %rd6, %r8;\n"
    "\tsetp.ge.u64 \t%p1, %rd6, 32;\n"
    "\t@%p1 bra \t$L__gsan_heap_bad;\n"
    "\tcvt.u32.u64 \t%r3, %rd6;\n"
    "\tld.const.u32 \t%r2, [" GSAN_CTX_SYMBOL "+44];\n"
    "\tadd.s32 \t%r1, %r3, %r2;\n"
    "\tmul.wide.u32 \t%rd7, %r3, 32;\n"
    "\tadd.s64 \t%rd7, %rd4, %rd7;\n"
    "\tld.global.u64 \t%rd8, [%rd7];\n"
    "\tsetp.eq.u64 \t%p1, %rd8, 0;\n"
    "\tsetp.lt.or.u64 \t%p1, %rd5, %rd8, %p1;\n"
    "\t@%p1 bra \t$L__gsan_heap_bad;\n"
    "\tsub.s64 \t%rd10, %rd5, %rd8;\n"
    "\tmov.u64 \t%rd11, 1;\n"
    "\tshl.b64 \t%rd11, %rd11, %r1;\n"
    "\tadd.s64 \t%rd11, %rd11, -1;\n"
    "\tand.b64 \t%rd11, %rd10, %rd11;\n"
    "\tsetp.ne.u64 \t%p1, %rd11, 0;\n"
    "\t@%p1 bra \t$L__gsan_heap_bad;\n"
    "\tshr.u64 \t%rd10, %rd10, %r1;\n"
    "\tld.global.u32 \t%r4, [%rd7+24];\n"
    "\tcvt.u64.u32 \t%rd11, %r4;\n"
    "\tsetp.ge.u64 \t%p1, %rd10, %rd11;\n"
    "\t@%p1 bra \t$L__gsan_heap_bad;\n"
    /* live -> freed by compare-and-swap: of two frees racing, one wins */
    "\tld.global.u64 \t%rd12, [%rd7+16];\n"
    "\tshl.b64 \t%rd11, %rd10, 2;\n"
    "\tadd.s64 \t%rd12, %rd12, %rd11;\n"
    "\tatom.global.cas.b32 \t%r5, [%rd12], 1, 2;\n"
    "\tsetp.eq.u32 \t%p1, %r5, 1;\n"
    "\t@%p1 bra \t$L__gsan_heap_freed;\n"
    "\tsetp.eq.u32 \t%p1, %r5, 2;\n"
    "\tselp.u64 \t%rd9, 1, 2, %p1;\n"
    "\tbra.uni \t$L__gsan_heap_bad;\n"
    "$L__gsan_heap_freed:\n"
    /* the slot stays out of use (no reuse): later accesses find size 0 */
    TABLE_ENTRY
    "\tst.global.u64 \t[%rd14], 0;\n"
    "\tld.global.u64 \t%rd11, [%rd7+8];\n"
    "\tshl.b64 \t%rd10, %rd10, 6;\n"
    "\tadd.s64 \t%rd11, %rd11, %rd10;\n"
    "\tmembar.sys;\n"
    "\tst.volatile.global.u32 \t[%rd11], 2;\n"
    "\tbra.uni \t$L__gsan_heap_out;\n"
    "$L__gsan_heap_bad:\n"
    /* recorded at the call (base 0, the outcome as the size, a width no
     * re-test passes); the free itself is skipped */
    "\t{\n"
    "\t.param .b64 __gsan_a0;\n"
    "\t.param .b32 __gsan_a1;\n"
    "\t.param .b64 __gsan_a2;\n"
    "\t.param .b64 __gsan_a3;\n"
    "\t.param .b64 __gsan_a4;\n"
    "\t.param .b64 __gsan_a5;\n"
    "\tld.param.u64 \t%rd11, [__gsan_mod];\n"
    "\tst.param.b64 \t[__gsan_a0], %rd11;\n"
    "\tld.param.u32 \t%r6, [__gsan_site];\n"
    "\tst.param.b32 \t[__gsan_a1], %r6;\n"
    "\tst.param.b64 \t[__gsan_a2], %rd5;\n"
    "\tst.param.b64 \t[__gsan_a3], 0;\n"
    "\tst.param.b64 \t[__gsan_a4], %rd9;\n"
    "\tst.param.b64 \t[__gsan_a5], -1;\n"
    "\tcall.uni " GSAN_REPORT_FUNC ", (__gsan_a0, __gsan_a1, __gsan_a2, __gsan_a3, __gsan_a4, __gsan_a5);\n"
    "\t}\n"
    "\tbra.uni \t$L__gsan_heap_out;\n"
    "$L__gsan_heap_real:\n"
    "\t{\n"
    "\t.param .b64 __gsan_a0;\n"
    "\tst.param.b64 \t[__gsan_a0], %rd5;\n"
    "\tcall.uni free, (__gsan_a0);\n"
    "\t}\n"
    "$L__gsan_heap_out:\n"
    "\tret;\n"
    "}\n";

char *ptx_heap_decls(ptx_arena *a, unsigned used) {
  ptx_buf b = {0};
  ptx_bprintf(&b, "\n// gsan device heap wrappers (defined at the end of the module)\n");
  if (used & (1u << PTX_HEAP_MALLOC)) ptx_bprintf(&b, ".weak .func (.param .b64 __gsan_ret) __gsan_malloc" ALLOC_PARAMS ";\n");
  if (used & (1u << PTX_HEAP_ALIGNED))
    ptx_bprintf(&b, ".weak .func (.param .b64 __gsan_ret) __gsan_aligned_malloc" ALLOC_PARAMS ";\n");
  if (used & (1u << PTX_HEAP_FREE)) ptx_bprintf(&b, ".weak .func __gsan_free" FREE_PARAMS ";\n");
  char *text = ptx_strndup(a, b.p, b.n);
  free(b.p);
  return text;
}

char *ptx_heap_defs(ptx_arena *a, unsigned used) {
  ptx_buf b = {0};
  if (used & (1u << PTX_HEAP_MALLOC)) ptx_bprintf(&b, alloc_fmt, "__gsan_malloc", HEAP_OR_REAL, TABLE_ENTRY, "malloc", "");
  if (used & (1u << PTX_HEAP_ALIGNED))
    ptx_bprintf(&b, alloc_fmt, "__gsan_aligned_malloc", HEAP_OR_REAL, TABLE_ENTRY, "__cuda_syscall_aligned_malloc",
                ", __gsan_a1");
  if (used & (1u << PTX_HEAP_FREE)) ptx_bprintf(&b, "%s", free_text);
  char *text = ptx_strndup(a, b.p, b.n);
  free(b.p);
  return text;
}
