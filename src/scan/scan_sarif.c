/* scan_sarif.c: the findings as a SARIF 2.1.0 log (--format=sarif): one run
 * of the gsan-scan driver with a rule per finding category, a result per
 * finding (unknowns at level "note"), the notes as related locations and
 * the witness in the result's properties. Files that could not be analysed
 * (unreadable, or they do not parse) are the invocation's tool execution
 * notifications at level error, never an empty result; files analysed in
 * part (errors in some functions), notifications at level warning. */
#include "scan.h"

#include <ctype.h>

static void json_str(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
    else if (c == '\n') fputs("\\n", out);
    else if (c == '\t') fputs("\\t", out);
    else if (c < 0x20) fprintf(out, "\\u%04x", c);
    else fputc(c, out);
  }
  fputc('"', out);
}

/* a file name as a URI reference: absolute paths as file:// URIs */
static const char *uri(const char *path) {
  scan_buf b = {0};
  if (path[0] == '/') scan_util_buf_add(&b, "file://");
  for (const char *p = path; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (isalnum(c) || strchr("/-._~", c)) scan_util_buf_addn(&b, p, 1);
    else scan_util_buf_add(&b, "%%%02X", c);
  }
  return b.s;
}

typedef struct {
  const char *file, *why;
  bool partial; /* analysed in part */
} not_analysed;
static VEC(not_analysed) failed;

static void notify(const char *file, const char *why, bool partial) {
  not_analysed n = {scan_util_strdup(file), scan_util_strdup(why), partial};
  VEC_PUSH(failed, n);
}

void scan_sarif_not_analysed(const char *file, const char *why) { notify(file, why ? why : "not analysed", false); }

void scan_sarif_analysed_in_part(const char *file, const char *why) { notify(file, why, true); }

/* the "physicalLocation" member of a location object */
static void physical(FILE *out, scan_loc l) {
  fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
  json_str(out, uri(l.file));
  fprintf(out, "}, \"region\": {\"startLine\": %u, \"startColumn\": %u}}", l.line ? l.line : 1, l.col ? l.col : 1);
}

void scan_sarif_print(FILE *out, const char *const *files, int nfiles) {
  fputs("{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json\",\n", out);
  fputs("  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n", out);
  fprintf(out, "      \"tool\": {\"driver\": {\"name\": \"gsan-scan\", \"version\": \"%s\", \"rules\": [\n", SCAN_VERSION);
  for (int k = 0; k < FK_COUNT; k++) {
    fputs("        {\"id\": ", out);
    json_str(out, scan_diag_kind_tag((scan_fkind)k));
    fputs(", \"shortDescription\": {\"text\": ", out);
    json_str(out, scan_diag_kind_title((scan_fkind)k));
    fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}%s\n", k == FK_UNKNOWN ? "note" : "warning",
            k + 1 < FK_COUNT ? "," : "");
  }
  fputs("      ]}},\n      \"artifacts\": [", out);
  for (int i = 0; i < nfiles; i++) {
    fputs(i ? ", " : "", out);
    fputs("{\"location\": {\"uri\": ", out);
    json_str(out, uri(files[i]));
    fputs("}, \"roles\": [\"analysisTarget\"]}", out);
  }
  fputs("],\n      \"invocations\": [{\"executionSuccessful\": ", out);
  fputs(failed.n ? "false" : "true", out);
  if (failed.n) {
    fputs(", \"toolExecutionNotifications\": [", out);
    for (size_t i = 0; i < failed.n; i++) {
      fputs(i ? ",\n        " : "\n        ", out);
      bool part = failed.v[i].partial;
      fprintf(out, "{\"level\": \"%s\", \"descriptor\": {\"id\": \"gsan-scan-%s\"}, \"message\": {\"text\": ",
              part ? "warning" : "error", part ? "analysed-in-part" : "not-analysed");
      json_str(out, scan_util_fmt("%s: %s: %s", failed.v[i].file, part ? "analysed in part" : "not analysed", failed.v[i].why));
      fputs("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
      json_str(out, uri(failed.v[i].file));
      fputs("}}}]}", out);
    }
    fputs("]", out);
  }
  fputs("}],\n      \"results\": [", out);
  bool first = true;
  for (size_t i = 0; i < scan_diag_count(); i++) {
    scan_finding *f = scan_diag_get(i);
    if (f->dropped || !f->loc.file) continue;
    fputs(first ? "\n        {" : ",\n        {", out);
    first = false;
    fputs("\"ruleId\": ", out);
    json_str(out, scan_diag_kind_tag(f->kind));
    fprintf(out, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ", (int)f->kind,
            f->kind == FK_UNKNOWN ? "note" : "warning");
    json_str(out, f->witness ? scan_util_fmt("%s (witness: %s)", f->msg, f->witness) : f->msg);
    fputs("},\n         \"locations\": [", out);
    fputs("{", out);
    physical(out, f->loc);
    fputs("}]", out);
    int nrel = 0;
    for (size_t j = 0; j < f->notes.n; j++) {
      if (!f->notes.v[j].loc.file) continue;
      fputs(nrel ? ",\n           {" : ",\n         \"relatedLocations\": [\n           {", out);
      fprintf(out, "\"id\": %d, \"message\": {\"text\": ", nrel);
      json_str(out, f->notes.v[j].text);
      fputs("}, ", out);
      physical(out, f->notes.v[j].loc);
      fputs("}", out);
      nrel++;
    }
    if (nrel) fputs("]", out);
    if (f->witness) {
      fputs(",\n         \"properties\": {\"witness\": ", out);
      json_str(out, f->witness);
      fputs("}", out);
    }
    fputs("}", out);
  }
  fputs(first ? "]\n    }\n  ]\n}\n" : "\n      ]\n    }\n  ]\n}\n", out);
}
