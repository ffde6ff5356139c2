/* The one printer for the instrumenter's messages: "file:line:col: kind: text". */
#include "ptx.h"

#include <stdarg.h>

static _Thread_local FILE *redirect;

void ptx_diag_redirect(FILE *f) { redirect = f; }

static void emit(ptx_diag *d, const char *kind, int line, int col, const char *fmt, va_list ap) {
  FILE *f = redirect ? redirect : stderr;
  fprintf(f, "%s:%d:%d: %s: ", d->file ? d->file : "<input>", line, col, kind);
  vfprintf(f, fmt, ap);
  fputc('\n', f);
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
