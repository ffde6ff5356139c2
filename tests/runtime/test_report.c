/* Reports from instrumented PTX, on the CPU: reads the site table out of a
 * module that gsan ptx wrote, builds the device record a failed check would
 * leave, and prints the report. The lit tests hold the output.
 * Usage: test_report INSTRUMENTED.ptx SCENARIO [SITE]
 * SCENARIO: sites | overflow | json | uaf | wild | variable | scope | free | memcpy | corrupt */
#include "../../src/runtime/rt_arena.h"
#include "../../src/runtime/rt_report.h"
#include "../../src/runtime/rt_seen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the bytes of the .b8 __gsan_sites_<id>[N] = {...} initialiser */
static unsigned char *site_blob(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)len + 1);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) exit(2);
  text[len] = 0;
  fclose(f);
  char *at = strstr(text, "__gsan_sites_");
  char *brace = at ? strchr(at, '{') : NULL;
  if (!brace) { fprintf(stderr, "%s: no site table\n", path); exit(2); }
  unsigned char *b = malloc((size_t)len);
  *n = 0;
  for (char *p = brace + 1; *p && *p != '}';) {
    char *e;
    long v = strtol(p, &e, 10);
    if (e == p) { p++; continue; }
    b[(*n)++] = (unsigned char)v;
    p = e;
  }
  free(text);
  return b;
}

static const rt_stack alloc_stack = {2, {"cudaMalloc", "main saxpy.cu:30"}};
static const rt_stack free_stack = {2, {"cudaFree", "main saxpy.cu:41"}};
static const rt_stack call_stack = {2, {"cudaMemcpy", "main saxpy.cu:35"}};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s INSTRUMENTED.ptx SCENARIO [SITE]\n", argv[0]);
    return 2;
  }
  size_t n;
  unsigned char *blob = site_blob(argv[1], &n);
  const char *why, *sc = argv[2];
  unsigned site_index = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
  rt_log log = {stdout, !strcmp(sc, "json") || !strcmp(sc, "repeats-json"), 4242, 0};
  if (!strcmp(sc, "corrupt")) {
    /* every way a blob can be wrong is refused with a reason */
    printf("short: %s\n", rt_sites_parse(blob, 8, &why) ? "accepted" : why);
    blob[0] ^= 1;
    printf("magic: %s\n", rt_sites_parse(blob, n, &why) ? "accepted" : why);
    blob[0] ^= 1;
    unsigned char *bad = malloc(n);
    memcpy(bad, blob, n);
    memset(bad + sizeof(gsan_sites_header), 0xff, 4); /* first site's function name */
    printf("string: %s\n", rt_sites_parse(bad, n, &why) ? "accepted" : why);
    free(bad);
    free(blob);
    return 0;
  }
  rt_site_table *t = rt_sites_parse(blob, n, &why);
  free(blob);
  if (!t) { printf("site table rejected: %s\n", why); return 1; }
  rt_site s;
  char dbuf[1024];
  if (!strcmp(sc, "sites")) {
    printf("module %016llx, %u sites\n", (unsigned long long)rt_sites_module(t), rt_sites_count(t));
    for (unsigned i = 0; rt_sites_get(t, i, &s) == 0; i++) {
      printf("site %u: %s %s width %u at %s:%u:%u (PTX line %u) root %s%s%s", i, rt_demangle(s.func, dbuf, sizeof dbuf),
             s.kind == GSAN_ACCESS_READ ? "read" : s.kind == GSAN_ACCESS_WRITE ? "write" : "other", s.width,
             s.file ? s.file : "?", s.line, s.col, s.ptx_line, s.root_name ? s.root_name : "arena",
             s.call_file ? ", inlined into " : "", s.call_file ? s.call_file : "");
      if (s.call_file) printf(":%u", s.call_line);
      printf("\n");
    }
    rt_sites_free(t);
    return 0;
  }
  if (rt_sites_get(t, site_index, &s) < 0) { printf("no site %u\n", site_index); return 1; }
  gsan_record rec = {1, site_index, rt_sites_module(t), 0, 0x100000003000ull, 4000, {32, 0, 0}, {3, 0, 0}};
  rt_region reg = {0x100000003000ull, 4000, NULL, GSAN_SPACE_GLOBAL, &alloc_stack, NULL, 0, NULL};
  int state = RT_SLOT_LIVE;
  if (!strcmp(sc, "overflow") || !strcmp(sc, "json")) {
    rec.addr = rec.base + 4000;
  } else if (!strcmp(sc, "uaf")) {
    rec.addr = rec.base + 16;
    rec.size = 0; /* the slot table said: not live */
    reg.freed = &free_stack;
    state = RT_SLOT_FREED;
  } else if (!strcmp(sc, "wild")) {
    rec.addr = 0x100000200000ull;
    rec.base = rec.addr & ~255ull;
    rec.size = 0;
    state = RT_SLOT_NEVER;
  } else if (!strcmp(sc, "variable")) {
    rec.base = 0x400;
    rec.size = 256;
    rec.addr = 0x400 + 268;
    reg = (rt_region){0x400, 256, s.root_name, s.root_space, NULL, NULL, 0, NULL};
  } else if (!strcmp(sc, "scope")) {
    /* a use-after-scope check's stub passes an empty region at the address */
    rec.addr = rec.base = 0x7ffff7fffcd8ull;
    rec.size = 0;
    reg = (rt_region){rec.base, 0, s.root_name, s.root_space, NULL, NULL, 0, NULL};
  } else if (!strcmp(sc, "free")) {
    rt_err_free e = {"double-free", "cudaFree", reg.base, &free_stack, reg};
    e.region.freed = &free_stack;
    rt_report_free(&log, &e);
    rt_err_free inv = {"invalid-free", "cudaFree", reg.base + 8, &free_stack, reg};
    rt_report_free(&log, &inv);
    rt_err_free none = {"invalid-free", "cuMemFree", 0x7f0012345678ull, &free_stack, {0, 0, NULL, 0, NULL, NULL, 0, NULL}};
    rt_report_free(&log, &none);
    rt_sites_free(t);
    return 0;
  } else if (!strcmp(sc, "repeats") || !strcmp(sc, "repeats-json")) {
    /* one site hit five times, printed once; another held back by report_limit */
    static rt_seen seen;
    for (int i = 0; i < 5; i++)
      if (rt_seen_hit(&seen, rt_sites_module(t), site_index, "global-buffer-overflow", &s) == 1)
        rt_seen_printed(&seen, rt_sites_module(t), site_index);
    rt_seen_hit(&seen, rt_sites_module(t), site_index + 1, "use-after-free", &s);
    for (unsigned i = 0; i < RT_SEEN_SITES; i++)
      if (seen.slot[i].hits) {
        rt_err_repeats e = {seen.slot[i].kind, &seen.slot[i].where, seen.slot[i].hits, seen.slot[i].printed};
        rt_report_repeats(&log, &e);
      }
    rt_sites_free(t);
    return 0;
  } else if (!strcmp(sc, "memcpy")) {
    rt_err_host_range e = {"memcpy-param-overflow", "cudaMemcpy", reg.base, 4004, &call_stack, reg};
    rt_report_host_range(&log, &e);
    rt_sites_free(t);
    return 0;
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", sc);
    return 2;
  }
  rt_err_device e = {rt_classify_device(&s, &rec, state), rec, s, reg};
  rt_report_device(&log, &e);
  rt_sites_free(t);
  return 0;
}
