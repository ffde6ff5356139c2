/* libFuzzer harness for gsan scan: the input is a CUDA source file held in
 * memory (scan_front_parse_text: libclang parses it as an unsaved file, with
 * gsan's own CUDA declarations, so no toolkit is needed and each parse is
 * short), which is analysed as gsan scan analyses a file (host and device
 * code interpreted into the model, every access and use put to the deciders)
 * and reported in both formats, text and SARIF, to a null sink. Whatever the
 * bytes, none of that may crash, leak or hit undefined behaviour. Each input
 * starts from an empty analyser (scan_reset), so memory stays bounded and a
 * report does not depend on the inputs before it. The solver gets a small
 * budget per question and the input is capped (FUZZ_SCAN_MAX_BYTES), so one
 * input takes well under a second. libclang and Z3 are not instrumented: a
 * bug inside them shows only if it crashes. libclang's crash recovery is off
 * (LIBCLANG_DISABLE_CRASH_RECOVERY): its signal handlers would otherwise
 * swallow a stack overflow in gsan scan's own code, which then died without
 * a report or a saved input.
 *
 * The preprocessor reads any file an #include names, and a device file never
 * ends (libclang 22 reads /dev/zero until memory runs out): an input naming
 * /dev, /proc or /sys, after backslash-newlines are joined, is skipped. */
#include "../../src/scan/scan_front.h"
#include "../../src/scan/scan_interp.h"

#include <stdlib.h>

#define FUZZ_SCAN_MAX_BYTES 16384

/* gsan scan's options (scan_main.c, not linked): a budget per question of
 * 1/40 of the default (about 50 ms), 250 ms of wall clock at most */
scan_opts scan_main_options = {.rlimit = 100000, .budget = 5000000, .timeout_ms = 250, .max_steps = 200000,
                               .max_alloc = 1ull << 38};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
  return 0;
}

/* the text the preprocessor sees names a device or kernel file system */
static int names_special_files(const char *text, size_t n) {
  static const char *const dirs[] = {"/dev", "/proc", "/sys"};
  char *joined = malloc(n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') i++;
    else if (text[i] == '\\' && i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') i += 2;
    else joined[k++] = text[i] ? text[i] : ' ';
  }
  joined[k] = 0;
  int found = 0;
  for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) found |= strstr(joined, dirs[d]) != NULL;
  free(joined);
  return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *null;
  if (!null && !(null = fopen("/dev/null", "w"))) abort();
  const char *text = (const char *)data;
  if (size > FUZZ_SCAN_MAX_BYTES || names_special_files(text, size)) return 0;
  scan_reset();
  scan_front_opts fo = {NULL, true, FUZZ_SCAN_DATA};
  static const char *const name = "/gsan-fuzz/input.cu";
  scan_tu tu;
  if (scan_front_parse_text(&fo, name, text, size, NULL, 0, &tu)) return 0;
  scan_unit_analyse(&tu, 1);
  unsigned accesses = scan_check_all();
  scan_front_dispose(&tu);
  scan_diag_sort();
  scan_diag_print_text(null, accesses);
  scan_sarif_print(null, &name, 1);
  return 0;
}
