/* The module-level code every instrumented module carries (ptx_support.c):
 * __gsan_ctx and __gsan_report, .weak. */
#ifndef GSAN_PTX_SUPPORT_H
#define GSAN_PTX_SUPPORT_H

/* the text, placed after the module's header directives */
const char *ptx_support_text(void);

#endif
