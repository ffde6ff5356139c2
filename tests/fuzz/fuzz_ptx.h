/* What the PTX harnesses share: the input as gsan ptx hands it to the parser
 * (a copy with a NUL after it, which the parser's number conversions rely
 * on), diagnostics that count but say nothing, a module printed into memory,
 * and the one way a harness reports a broken invariant (abort, so libFuzzer
 * keeps the input). */
#ifndef GSAN_FUZZ_PTX_H
#define GSAN_FUZZ_PTX_H

#include "../../src/ptx/ptx_instr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *fz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

/* warnings quiet; errors still go to stderr, which the fuzzing runs close */
static ptx_diag fz_diag(void) {
  ptx_diag d = {"fuzz-input", 0, 0, 1};
  return d;
}

/* ptx_print's text, NUL-terminated (the parser's contract) */
static char *fz_print(const ptx_module *m, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f) abort();
  ptx_print(f, m);
  if (fclose(f)) abort();
  return buf;
}

static void fz_fail(const char *what, const char *text, size_t len) {
  fprintf(stderr, "gsan fuzz: %s\n--- text (%zu bytes) ---\n%.*s\n--- end ---\n", what, len, (int)(len > 4000 ? 4000 : len),
          text);
  abort();
}

#endif
