/* A growing text buffer: how every pass writes the PTX it inserts. The
 * buffer owns its bytes (malloc'd, not from a module's arena); a zeroed
 * ptx_buf is empty, and free(b.p) releases it. Callers may reset n to 0 to
 * reuse the storage. */
#ifndef GSAN_PTX_BUF_H
#define GSAN_PTX_BUF_H

#include <stddef.h>

typedef struct ptx_buf { char *p; size_t n, cap; } ptx_buf;

/* appends the formatted text; p stays NUL-terminated after it */
void ptx_bprintf(ptx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
