/* The growing text buffer (ptx_buf.h). */
#include "ptx_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void ptx_bprintf(ptx_buf *b, const char *fmt, ...) {
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
