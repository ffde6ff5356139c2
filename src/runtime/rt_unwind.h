/* Capturing the return addresses of the calling thread's stack, at every
 * allocation and free: libunwind's fast trace where it is safe, glibc's
 * backtrace() otherwise (rt_unwind.c says when and why). */
#ifndef GSAN_RT_UNWIND_H
#define GSAN_RT_UNWIND_H

#define RT_UNWIND_MAX 256
/* a thread's first captures are backtrace()'s (rt_unwind.c says why) */
#define RT_UNWIND_WARM 32

/* Up to max (at most RT_UNWIND_MAX) return addresses, innermost first: the
 * first is in this function's caller. The number written. */
int rt_unwind_backtrace(void **pc, int max);

/* Which unwinder captures now, and why (for verbosity=1). */
const char *rt_unwind_method(void);

#endif
