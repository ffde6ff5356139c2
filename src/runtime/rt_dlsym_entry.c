/* libgsan's exported dlsym and dlvsym. glibc resolves RTLD_NEXT (and
 * RTLD_DEFAULT, in the caller's scope) from its own caller's return address,
 * so a dlsym that calls glibc's would have everything resolved from libgsan's
 * place: an interposer preloaded after libgsan (gsan run puts an earlier
 * LD_PRELOAD there) would get its own function back from RTLD_NEXT. So the
 * entry points are jumps, not calls: a short stub asks rt_dlsym_route which
 * function answers the name and jumps to it with the caller's arguments and
 * return address untouched. Every name gsan does not hook goes to glibc's own
 * function, which then sees the caller, exactly as if libgsan defined no
 * dlsym; the driver names gsan hooks go to rt_interpose.c, which gets the
 * caller's return address as one more argument. The stubs are assembly for
 * x86-64 and AArch64 (CUDA's two): C cannot promise a tail call. Runs inside
 * other libraries' start-up (ASan's, before its shadow memory exists:
 * tests/fuzz/fuzz.mk builds this file without ASan). */
#include "rt_dlsym.h"

#include <stddef.h>

static void *no_dlsym(void *handle, const char *name) {
  (void)handle, (void)name;
  return NULL;
}

static void *no_dlvsym(void *handle, const char *name, const char *version) {
  (void)handle, (void)name, (void)version;
  return NULL;
}

/* the function that answers dlsym(…, name): it is jumped to as dlsym itself */
__attribute__((used, visibility("hidden"))) void *rt_dlsym_route(const char *name) {
  if (rt_interpose_sees(name)) return (void *)rt_interpose_dlsym;
  rt_dlsym_fn f = rt_libc_dlsym();
  return f ? (void *)f : (void *)no_dlsym;
}

__attribute__((used, visibility("hidden"))) void *rt_dlvsym_route(const char *name) {
  if (rt_interpose_sees(name)) return (void *)rt_interpose_dlvsym;
  rt_dlvsym_fn f = rt_libc_dlvsym();
  return f ? (void *)f : (void *)no_dlvsym;
}

/* SYM(args…): saves the argument registers, calls ROUTE(name), restores
 * them, puts the return address in the argument register after the last
 * (CALLER_REG: where rt_interpose_dlsym/dlvsym take it; glibc's ignore it)
 * and jumps to what ROUTE returned. With the caller's return address on top
 * of the stack (x86-64) or in the link register (AArch64), the function
 * jumped to returns straight to the caller. */
#if defined(__x86_64__)
#if defined(__CET__) && (__CET__ & 1)
#define RT_STUB_LANDING "endbr64\n"
#else
#define RT_STUB_LANDING ""
#endif
#define RT_STUB_BODY(ROUTE, CALLER_REG)                                                      \
  "push %rdi\n.cfi_adjust_cfa_offset 8\n"                                                    \
  "push %rsi\n.cfi_adjust_cfa_offset 8\n"                                                    \
  "push %rdx\n.cfi_adjust_cfa_offset 8\n" /* the stack is 16-byte aligned again */            \
  "mov %rsi, %rdi\n"                                                                         \
  "call " #ROUTE "\n"                                                                        \
  "pop %rdx\n.cfi_adjust_cfa_offset -8\n"                                                    \
  "pop %rsi\n.cfi_adjust_cfa_offset -8\n"                                                    \
  "pop %rdi\n.cfi_adjust_cfa_offset -8\n"                                                    \
  "mov (%rsp), %" #CALLER_REG "\n"                                                           \
  "jmp *%rax\n"
#define RT_DLSYM_CALLER_REG rdx
#define RT_DLVSYM_CALLER_REG rcx
#elif defined(__aarch64__)
#if defined(__ARM_FEATURE_BTI_DEFAULT)
#define RT_STUB_LANDING "bti c\n"
#else
#define RT_STUB_LANDING ""
#endif
#define RT_STUB_BODY(ROUTE, CALLER_REG)                                                      \
  "stp x29, x30, [sp, #-48]!\n.cfi_def_cfa_offset 48\n.cfi_offset 29, -48\n.cfi_offset 30, -40\n" \
  "mov x29, sp\n"                                                                            \
  "stp x0, x1, [sp, #16]\n"                                                                  \
  "str x2, [sp, #32]\n"                                                                      \
  "mov x0, x1\n"                                                                             \
  "bl " #ROUTE "\n"                                                                          \
  "mov x16, x0\n"                                                                            \
  "ldp x0, x1, [sp, #16]\n"                                                                  \
  "ldr x2, [sp, #32]\n"                                                                      \
  "ldp x29, x30, [sp], #48\n.cfi_restore 29\n.cfi_restore 30\n.cfi_def_cfa_offset 0\n"       \
  "mov " #CALLER_REG ", x30\n"                                                               \
  "br x16\n"
#define RT_DLSYM_CALLER_REG x2
#define RT_DLVSYM_CALLER_REG x3
#else
#error "libgsan: dlsym's entry stub is written for x86-64 and AArch64 only (rt_dlsym_entry.c)"
#endif
#define RT_DLSYM_STUB(SYM, ROUTE, CALLER_REG)                                                \
  __asm__(".pushsection .text\n.globl " #SYM "\n.type " #SYM ", %function\n.p2align 4\n" #SYM \
          ":\n.cfi_startproc\n" RT_STUB_LANDING RT_STUB_BODY(ROUTE, CALLER_REG)                \
          ".cfi_endproc\n.size " #SYM ", .-" #SYM "\n.popsection\n")
/* the register names go through one more macro, to be expanded before # */
#define RT_DLSYM_STUB_FOR(SYM, ROUTE, CALLER_REG) RT_DLSYM_STUB(SYM, ROUTE, CALLER_REG)
RT_DLSYM_STUB_FOR(dlsym, rt_dlsym_route, RT_DLSYM_CALLER_REG);
RT_DLSYM_STUB_FOR(dlvsym, rt_dlvsym_route, RT_DLVSYM_CALLER_REG);
