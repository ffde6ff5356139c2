/* rt_binary_probe.c: the probe kernel binary mode runs once per device
 * (rt_binary.c's measure_local_top) to find where threads' stacks start in
 * the local window under the Sanitizer API's patches: its one 16-byte local
 * array is its whole frame, and it writes the array's local address out.
 * The store into the array goes through a generic address and is volatile,
 * so that ptxas keeps the array in memory (16 bytes stack frame, ptxas -v);
 * a volatile store to the local space is not PTX ("'.volatile' cannot be
 * applied to '.local' space": every load of the first version failed with
 * CUDA_ERROR_INVALID_PTX, 218, on the H100 at af5d349). tests/runtime/
 * binary.test assembles it with ptxas. */
#include "rt_binary.h"

const char rt_binary_probe_ptx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry gsan_binary_local_probe(.param .u64 out)\n{\n"
    "\t.local .align 16 .b8 buf[16];\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<2>;\n"
    "\tmov.u32 %r1, 1;\n\tmov.u64 %rd1, buf;\n\tcvta.local.u64 %rd3, %rd1;\n\tst.volatile.u32 [%rd3], %r1;\n"
    "\tld.param.u64 %rd2, [out];\n\tcvta.to.global.u64 %rd2, %rd2;\n"
    "\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n";
