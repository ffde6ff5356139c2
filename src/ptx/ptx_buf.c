/* The growing text buffer (ptx_buf.h). */
#include "ptx_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Formats once into the room the buffer has, and again only when the text
 * did not fit (after growing): formatting is most of gsan ptx's time, and
 * measuring every line first did it twice. */
void ptx_bprintf(ptx_buf *b, const char *fmt, ...) {
  if (b->cap - b->n < 256) {
    b->cap = b->cap ? b->cap * 2 : 4096;
    b->p = realloc(b->p, b->cap);
  }
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int need = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
  va_end(ap);
  if (need >= 0 && b->n + (size_t)need + 1 > b->cap) {
    while (b->n + (size_t)need + 1 > b->cap) b->cap *= 2;
    b->p = realloc(b->p, b->cap);
    vsnprintf(b->p + b->n, (size_t)need + 1, fmt, ap2);
  }
  va_end(ap2);
  if (need > 0) b->n += (size_t)need;
}
