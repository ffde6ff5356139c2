/* libFuzzer harness for the PTX parser (gsan ptx --roundtrip and --analyze):
 * whatever the bytes, parsing never crashes, leaks or hits undefined
 * behaviour; a module that parses is analysed (blocks, dominators, reaching
 * definitions, roots: what --analyze prints), and its printed text parses
 * again and prints back identically (printing is a fixed point after one
 * round, comments and spacing being normalised by the first). */
#include "fuzz_ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *null;
  if (!null && !(null = fopen("/dev/null", "w"))) abort();
  char *src = fz_text(data, size);
  ptx_diag d = fz_diag();
  ptx_module *m = ptx_parse(src, size, &d);
  if (!m) {
    if (!d.errors) fz_fail("ptx_parse failed without an error message", src, size);
    free(src);
    return 0;
  }
  ptx_dump_analysis(null, m);
  size_t n1, n2;
  char *p1 = fz_print(m, &n1);
  ptx_module *m1 = ptx_parse(p1, n1, &d);
  if (!m1) fz_fail("the printed module does not parse again", p1, n1);
  char *p2 = fz_print(m1, &n2);
  if (n1 != n2 || memcmp(p1, p2, n1)) fz_fail("printing the reparsed module gives other text", p2, n2);
  ptx_module_free(m1);
  ptx_module_free(m);
  free(p2);
  free(p1);
  free(src);
  return 0;
}
