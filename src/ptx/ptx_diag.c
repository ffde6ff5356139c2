/* The one printer for the instrumenter's messages: "file:line:col: kind: text". */
#include "ptx.h"

#include <stdarg.h>

static void emit(ptx_diag *d, const char *kind, int line, int col, const char *fmt, va_list ap) {
  fprintf(stderr, "%s:%d:%d: %s: ", d->file ? d->file : "<input>", line, col, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void ptx_error(ptx_diag *d, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  d->errors++;
  emit(d, "error", line, col, fmt, ap);
  va_end(ap);
}

void ptx_warn(ptx_diag *d, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  d->warnings++;
  if (!d->quiet) emit(d, "warning", line, col, fmt, ap);
  va_end(ap);
}
