/* The module-level code every instrumented module carries: the context the
 * runtime fills (__gsan_ctx) and the failure path that appends a record to the
 * ring buffer (__gsan_report). Both are .weak so that modules linked with
 * -rdc share one copy. Offsets are the ones in include/gsan/abi.h. */
#include "ptx_support.h"

#include <gsan/abi.h>

#define S_(x) #x
#define S(x) S_(x)

_Static_assert(GSAN_CTX_RING == 24 && GSAN_CTX_RING_CTL == 32 && GSAN_RING_TAIL == 4 && GSAN_RECORD_BYTES == 64 &&
                   GSAN_RING_HEADER_BYTES == 64 && GSAN_CTX_BYTES == 64,
               "the text below hard-codes these offsets");
_Static_assert(GSAN_SITE_KEY_MUL == 0x9E3779B97F4A7C15ull && GSAN_SITE_SLOTS == 4096 && sizeof(gsan_site_count) == 16,
               "the site counts' key and size, hard-coded below");

static const char support[] =
    "\n// gsan runtime interface (docs/abi.md, version " S(GSAN_ABI_VERSION) ")\n"
    ".weak .const .align 16 .b8 " GSAN_CTX_SYMBOL "[" S(GSAN_CTX_BYTES) "];\n"
    "\n"
    ".weak .func " GSAN_REPORT_FUNC "(.param .b64 __gsan_mod, .param .b32 __gsan_site, .param .b64 __gsan_addr,"
    " .param .b64 __gsan_base, .param .b64 __gsan_size, .param .b64 __gsan_width)\n"
    "{\n"
    "\t.reg .pred \t%p<4>;\n"
    "\t.reg .b32 \t%r<18>;\n"
    "\t.reg .b64 \t%rd<8>;\n"
    "\tld.const.u64 \t%rd1, [" GSAN_CTX_SYMBOL "+24];\n"
    "\tld.const.u64 \t%rd2, [" GSAN_CTX_SYMBOL "+32];\n"
    "\tsetp.eq.u64 \t%p1, %rd1, 0;\n"
    "\tsetp.eq.or.u64 \t%p1, %rd2, 0, %p1;\n"
    "\t@%p1 bra \t$L__gsan_done;\n"
    /* re-test: only an access that leaves [base, base+size) is recorded
     * (a merged range check calls this for each access it covers) */
    "\tld.param.u64 \t%rd4, [__gsan_addr];\n"
    "\tld.param.u64 \t%rd5, [__gsan_base];\n"
    "\tld.param.u64 \t%rd6, [__gsan_size];\n"
    "\tld.param.u64 \t%rd7, [__gsan_width];\n"
    "\tsub.s64 \t%rd4, %rd4, %rd5;\n"
    "\tsetp.gt.u64 \t%p2, %rd4, %rd6;\n"
    "\tsub.s64 \t%rd5, %rd6, %rd4;\n"
    "\tsetp.lt.or.u64 \t%p2, %rd5, %rd7, %p2;\n"
    "\tsetp.ne.and.u64 \t%p2, %rd7, 0, %p2;\n"
    "\t@!%p2 bra \t$L__gsan_done;\n"
    /* the site's count (docs/abi.md): past its first few failures a site
     * is only counted, and the ring is left alone */
    "\tld.param.u64 \t%rd4, [__gsan_mod];\n"
    "\tld.param.u32 \t%r6, [__gsan_site];\n"
    "\tcvt.u64.u32 \t%rd5, %r6;\n"
    "\tmul.lo.u64 \t%rd5, %rd5, 0x9E3779B97F4A7C15;\n"
    "\txor.b64 \t%rd4, %rd4, %rd5;\n"
    "\tor.b64 \t%rd4, %rd4, 1;\n"
    "\tshr.u64 \t%rd5, %rd4, 52;\n"
    "\tmov.u32 \t%r17, 0;\n"
    "$L__gsan_probe:\n"
    "\tand.b64 \t%rd5, %rd5, 4095;\n"
    "\tshl.b64 \t%rd6, %rd5, 4;\n"
    "\tadd.s64 \t%rd6, %rd6, %rd2;\n"
    "\tadd.s64 \t%rd6, %rd6, " S(GSAN_RING_CTL_SITES) ";\n"
    "\tld.volatile.global.u64 \t%rd7, [%rd6];\n"
    "\tsetp.eq.u64 \t%p2, %rd7, %rd4;\n"
    "\t@%p2 bra \t$L__gsan_count;\n"
    "\tsetp.ne.u64 \t%p2, %rd7, 0;\n"
    "\t@%p2 bra \t$L__gsan_next;\n"
    "\tatom.global.cas.b64 \t%rd7, [%rd6], 0, %rd4;\n"
    "\tsetp.eq.u64 \t%p2, %rd7, 0;\n"
    "\tsetp.eq.or.u64 \t%p2, %rd7, %rd4, %p2;\n"
    "\t@%p2 bra \t$L__gsan_count;\n"
    "$L__gsan_next:\n"
    "\tadd.s64 \t%rd5, %rd5, 1;\n"
    "\tadd.s32 \t%r17, %r17, 1;\n"
    "\tsetp.lt.u32 \t%p2, %r17, " S(GSAN_SITE_PROBES) ";\n"
    "\t@%p2 bra \t$L__gsan_probe;\n"
    "\tmov.u64 \t%rd6, 0;\n" /* no slot: every failure records */
    "\tbra.uni \t$L__gsan_record;\n"
    "$L__gsan_count:\n"
    "\tatom.global.add.u32 \t%r17, [%rd6+8], 1;\n"
    "\tsetp.lt.u32 \t%p2, %r17, " S(GSAN_SITE_RECORDS) ";\n"
    "\t@%p2 bra \t$L__gsan_record;\n"
    /* counted only: wait (bounded) until the site has its record */
    "\tmov.u32 \t%r17, 0;\n"
    "$L__gsan_wait:\n"
    "\tld.volatile.global.u32 \t%r16, [%rd6+12];\n"
    "\tsetp.ne.u32 \t%p2, %r16, 0;\n"
    "\tadd.s32 \t%r17, %r17, 1;\n"
    "\tsetp.ge.or.u32 \t%p2, %r17, 1048576, %p2;\n"
    "\t@!%p2 bra \t$L__gsan_wait;\n"
    "\tbra.uni \t$L__gsan_done;\n"
    "$L__gsan_record:\n"
    /* claim slots: head moves only when the ring has room, so a full ring
     * leaves no hole for the host to wait on. The failing lanes of a warp
     * claim together, through one leader, so a million failing threads make
     * a thirty-second of the compare-and-swaps (each retry re-reads head):
     * one CAS per thread made a flood of failures quadratic in time. */
    "\tactivemask.b32 \t%r12;\n"
    "\tmov.u32 \t%r13, %lanemask_lt;\n"
    "\tand.b32 \t%r13, %r13, %r12;\n"
    "\tpopc.b32 \t%r13, %r13;\n" /* this lane's rank among them */
    "\tpopc.b32 \t%r14, %r12;\n" /* how many */
    "\tneg.s32 \t%r15, %r12;\n"
    "\tand.b32 \t%r15, %r15, %r12;\n"
    "\tadd.s32 \t%r15, %r15, -1;\n"
    "\tpopc.b32 \t%r15, %r15;\n" /* the leader: the lowest lane */
    "\tsetp.ne.u32 \t%p3, %r13, 0;\n"
    "\t@%p3 bra \t$L__gsan_claimed;\n"
    "$L__gsan_claim:\n"
    "\tld.volatile.global.u32 \t%r1, [%rd2];\n"
    "\tld.volatile.global.u32 \t%r2, [%rd1];\n"
    "\tld.volatile.global.u32 \t%r3, [%rd1+4];\n"
    "\tsub.s32 \t%r4, %r1, %r3;\n"
    "\tsub.s32 \t%r16, %r2, %r4;\n" /* room: head - tail never passes capacity */
    "\tmin.u32 \t%r16, %r16, %r14;\n"
    "\tsetp.eq.u32 \t%p2, %r16, 0;\n"
    "\t@%p2 bra \t$L__gsan_claimed;\n"
    "\tadd.s32 \t%r10, %r1, %r16;\n"
    "\tatom.global.cas.b32 \t%r11, [%rd2], %r1, %r10;\n"
    "\tsetp.ne.s32 \t%p2, %r11, %r1;\n"
    "\t@%p2 bra \t$L__gsan_claim;\n"
    "$L__gsan_claimed:\n"
    "\tshfl.sync.idx.b32 \t%r1, %r1, %r15, 31, %r12;\n"
    "\tshfl.sync.idx.b32 \t%r2, %r2, %r15, 31, %r12;\n"
    "\tshfl.sync.idx.b32 \t%r16, %r16, %r15, 31, %r12;\n"
    "\tsetp.ge.u32 \t%p2, %r13, %r16;\n" /* past the room claimed: dropped */
    "\t@%p2 bra \t$L__gsan_full;\n"
    "\tadd.s32 \t%r1, %r1, %r13;\n"
    "\tadd.s32 \t%r5, %r2, -1;\n"
    "\tand.b32 \t%r5, %r1, %r5;\n"
    "\tmul.wide.u32 \t%rd3, %r5, 64;\n"
    "\tadd.s64 \t%rd3, %rd1, %rd3;\n"
    "\tld.param.u32 \t%r6, [__gsan_site];\n"
    "\tst.volatile.global.u32 \t[%rd3+68], %r6;\n"
    "\tld.param.u64 \t%rd4, [__gsan_mod];\n"
    "\tst.volatile.global.u64 \t[%rd3+72], %rd4;\n"
    "\tld.param.u64 \t%rd4, [__gsan_addr];\n"
    "\tst.volatile.global.u64 \t[%rd3+80], %rd4;\n"
    "\tld.param.u64 \t%rd4, [__gsan_base];\n"
    "\tst.volatile.global.u64 \t[%rd3+88], %rd4;\n"
    "\tld.param.u64 \t%rd4, [__gsan_size];\n"
    "\tst.volatile.global.u64 \t[%rd3+96], %rd4;\n"
    "\tmov.u32 \t%r7, %tid.x;\n"
    "\tst.volatile.global.u32 \t[%rd3+104], %r7;\n"
    "\tmov.u32 \t%r7, %tid.y;\n"
    "\tst.volatile.global.u32 \t[%rd3+108], %r7;\n"
    "\tmov.u32 \t%r7, %tid.z;\n"
    "\tst.volatile.global.u32 \t[%rd3+112], %r7;\n"
    "\tmov.u32 \t%r7, %ctaid.x;\n"
    "\tst.volatile.global.u32 \t[%rd3+116], %r7;\n"
    "\tmov.u32 \t%r7, %ctaid.y;\n"
    "\tst.volatile.global.u32 \t[%rd3+120], %r7;\n"
    "\tmov.u32 \t%r7, %ctaid.z;\n"
    "\tst.volatile.global.u32 \t[%rd3+124], %r7;\n"
    "\tmembar.sys;\n"
    "\tadd.s32 \t%r8, %r1, 1;\n"
    "\tst.volatile.global.u32 \t[%rd3+64], %r8;\n"
    "\tmembar.sys;\n"
    "\tbra.uni \t$L__gsan_recorded;\n"
    "$L__gsan_full:\n"
    "\tatom.global.add.u32 \t%r9, [%rd2+4], 1;\n"
    "$L__gsan_recorded:\n"
    "\tsetp.eq.u64 \t%p2, %rd6, 0;\n"
    "\t@!%p2 st.volatile.global.u32 \t[%rd6+12], 1;\n"
    "$L__gsan_done:\n"
    "\tret;\n"
    "}\n";

const char *ptx_support_text(void) { return support; }
