/* scan_diag.c: findings and the one printer every message goes through:
 * FILE:LINE:COL: LEVEL: MESSAGE [tag], then the source line and a caret,
 * like a compiler's diagnostics; notes follow their finding. Also the
 * closing summary. SARIF output is in scan_sarif.c. */
#include "scan.h"

#include <stdlib.h>

static VEC(scan_finding *) F;

static const char *const tags[FK_COUNT] = {"gsan-scan-oob", "gsan-scan-partition-oob", "gsan-scan-unvalidated-index",
                                           "gsan-scan-use-after-free", "gsan-scan-unknown"};
static const char *const titles[FK_COUNT] = {
    "An access can fall outside its allocation for some input",
    "An access through a partition carved from one array can reach another partition",
    "An index read from memory is used without being checked against the allocation",
    "An allocation is used on the host after it was freed",
    "The model cannot decide whether an access stays in bounds",
};

const char *scan_diag_kind_tag(scan_fkind k) { return tags[k]; }
const char *scan_diag_kind_title(scan_fkind k) { return titles[k]; }

scan_finding *scan_diag_new(scan_fkind k, scan_loc loc, const char *msg) {
  scan_finding *f = scan_util_alloc(sizeof *f);
  f->kind = k;
  f->loc = loc;
  f->msg = msg;
  VEC_PUSH(F, f);
  return f;
}

scan_finding *scan_diag_once(scan_fkind k, scan_loc loc, const char *msg) {
  for (size_t i = 0; i < F.n; i++)
    if (F.v[i]->kind == k && !scan_util_loc_cmp(F.v[i]->loc, loc) && !strcmp(F.v[i]->msg, msg)) return NULL;
  return scan_diag_new(k, loc, msg);
}

void scan_diag_note(scan_finding *f, scan_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  scan_note n = {loc, scan_util_vfmt(fmt, ap)};
  va_end(ap);
  VEC_PUSH(f->notes, n);
}

static int by_loc(const void *a, const void *b) {
  const scan_finding *x = *(scan_finding *const *)a, *y = *(scan_finding *const *)b;
  int c = scan_util_loc_cmp(x->loc, y->loc);
  if (c) return c;
  if (x->kind != y->kind) return (int)x->kind - (int)y->kind;
  return strcmp(x->msg, y->msg);
}

void scan_diag_sort(void) {
  if (F.n) qsort(F.v, F.n, sizeof *F.v, by_loc);
}

size_t scan_diag_count(void) { return F.n; }
scan_finding *scan_diag_get(size_t i) { return F.v[i]; }

unsigned scan_diag_reported(scan_fkind k) {
  unsigned n = 0;
  for (size_t i = 0; i < F.n; i++)
    if (!F.v[i]->dropped && F.v[i]->kind == k) n++;
  return n;
}

/* ---- source lines, for the caret ---- */
typedef struct {
  const char *file;
  char *text;
  VEC(size_t) starts;
} src_file;

static VEC(src_file) files;

/* file's text (NULL: it could not be read), split into lines */
static src_file *add_source(const char *file, const char *text, size_t n) {
  src_file sf = {file, NULL, {0}};
  if (text) {
    sf.text = scan_util_strndup(text, n);
    VEC_PUSH(sf.starts, 0);
    for (size_t i = 0; i < n; i++)
      if (text[i] == '\n') VEC_PUSH(sf.starts, i + 1);
  }
  VEC_PUSH(files, sf);
  return &files.v[files.n - 1];
}

/* the last entry for a file is the one read */
void scan_diag_source_text(const char *file, const char *text, size_t n) { add_source(file, text, n); }

const char *scan_diag_source_line(const char *file, unsigned line) {
  src_file *sf = NULL;
  for (size_t i = files.n; i-- > 0 && !sf;)
    if (files.v[i].file == file) sf = &files.v[i];
  if (!sf) {
    scan_buf b = {0};
    FILE *fp = fopen(file, "rb");
    if (fp) {
      char chunk[65536];
      size_t k;
      while ((k = fread(chunk, 1, sizeof chunk, fp)) > 0) scan_util_buf_addn(&b, chunk, k);
      fclose(fp);
    }
    sf = add_source(file, fp ? (b.s ? b.s : "") : NULL, b.n);
  }
  if (!sf->text || !line || line > sf->starts.n) return NULL;
  const char *s = sf->text + sf->starts.v[line - 1];
  const char *e = strchr(s, '\n');
  return e ? scan_util_strndup(s, (size_t)(e - s)) : s;
}

void scan_diag_emit(FILE *out, scan_loc loc, const char *level, const char *msg) {
  if (!loc.file) {
    fprintf(out, "%s: %s\n", level, msg);
    return;
  }
  fprintf(out, "%s:%u:%u: %s: %s\n", loc.file, loc.line, loc.col, level, msg);
  const char *src = scan_diag_source_line(loc.file, loc.line);
  if (!src) return;
  fprintf(out, "%s\n", src);
  /* the caret under the column, keeping the line's tabs so it lines up */
  for (unsigned i = 0; i + 1 < loc.col && src[i]; i++) fputc(src[i] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

void scan_diag_summary(FILE *out, unsigned accesses) {
  unsigned findings = 0;
  for (int k = 0; k < FK_COUNT; k++)
    if (k != FK_UNKNOWN) findings += scan_diag_reported((scan_fkind)k);
  unsigned unknown = scan_diag_reported(FK_UNKNOWN);
  fprintf(out, "gsan scan: %u finding%s, %u unknown in %u access%s\n", findings, findings == 1 ? "" : "s", unknown,
          accesses, accesses == 1 ? "" : "es");
}

void scan_diag_print_text(FILE *out, unsigned accesses) {
  for (size_t i = 0; i < F.n; i++) {
    scan_finding *f = F.v[i];
    if (f->dropped) continue;
    scan_diag_emit(out, f->loc, f->kind == FK_UNKNOWN ? "remark" : "warning", scan_util_fmt("%s [%s]", f->msg, scan_diag_kind_tag(f->kind)));
    for (size_t j = 0; j < f->notes.n; j++) scan_diag_emit(out, f->notes.v[j].loc, "note", f->notes.v[j].text);
    if (f->witness) scan_diag_emit(out, (scan_loc){0}, "note", scan_util_fmt("witness: %s", f->witness));
  }
  scan_diag_summary(out, accesses);
}

void scan_diag_reset(void) {
  memset(&F, 0, sizeof F);
  memset(&files, 0, sizeof files);
}
