/* Reports from instrumented PTX, on the CPU: reads the site table out of a
 * module that gsan ptx wrote, builds the device record a failed check would
 * leave, and prints the report. The lit tests hold the output.
 * Usage: test_report INSTRUMENTED.ptx SCENARIO [SITE]
 * SCENARIO: sites | overflow | json | uaf | wild | variable | scope | free | memcpy | corrupt | repeats[-json]
 * Unit tests, with no module: test_report kinds | policy (the list of
 * report kinds; the report scope's suppressions, report_limit, halt and
 * counts), each ending with "N checks, M failed". */
#include "../../src/runtime/rt_arena.h"
#include "../../src/runtime/rt_report.h"
#include "../../src/runtime/rt_seen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

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

/* a suppressions file of these lines, loaded into sp */
static int load_rules(rt_suppress *sp, const char *text) {
  char path[] = "/tmp/gsan_test_report_XXXXXX", err[256];
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) return -1;
  close(fd);
  int r = rt_suppress_load(sp, 0, path, err, sizeof err);
  if (r) fprintf(stderr, "%s\n", err);
  unlink(path);
  return r;
}

/* every kind: a name and a description, the names unique, each found by
 * its name, and each a suppression rule may name (that rule matching its
 * own kind only) */
static int kinds(void) {
  static rt_suppress sp;
  char rules[4096] = "";
  for (int k = 0; k < RT_REPORT_KINDS; k++) {
    const char *name = rt_report_kind_name((rt_report_kind)k);
    CHECK(name[0] && strcmp(name, "?") && rt_report_kind_about((rt_report_kind)k)[0], "kind %d named and described", k);
    CHECK(rt_report_kind_lookup(name, strlen(name)) == k, "%s found by its name", name);
    for (int j = 0; j < k; j++) CHECK(strcmp(name, rt_report_kind_name((rt_report_kind)j)), "%s twice", name);
    CHECK(rt_report_kind_lookup(name, strlen(name) - 1) < 0, "a prefix of %s is no kind", name);
    snprintf(rules + strlen(rules), sizeof rules - strlen(rules), "%s:only_%s\n", name, name);
  }
  CHECK(rt_report_kind_lookup("leaks", 5) < 0 && rt_report_kind_lookup("*", 1) < 0, "unknown names");
  CHECK(!strcmp(rt_report_kind_name(RT_REPORT_KINDS), "?"), "no kind");
  CHECK(load_rules(&sp, rules) == 0 && sp.n == RT_REPORT_KINDS, "a rule for every kind: %d rules", sp.n);
  for (int k = 0; k < RT_REPORT_KINDS; k++) {
    char name[128];
    snprintf(name, sizeof name, "only_%s", rt_report_kind_name((rt_report_kind)k));
    const char *names[] = {name};
    const rt_suppression *m = rt_suppress_match(&sp, (rt_report_kind)k, names, 1, NULL, 0);
    CHECK(m && m->kind == k && !strcmp(rt_suppress_kind(m), rt_report_kind_name((rt_report_kind)k)), "%s's rule", name);
    CHECK(!rt_suppress_match(&sp, (rt_report_kind)((k + 1) % RT_REPORT_KINDS), names, 1, NULL, 0),
          "%s's rule for another kind", name);
  }
  printf("kinds: %d, %d checks, %d failed\n", RT_REPORT_KINDS, checks, failures);
  return failures != 0;
}

/* the report scope: the hooks a process gives it, faked */
static int halts;
static void count_halt(void) { halts++; }
static void fake_region_stacks(uint64_t base, int freed, rt_region *reg, rt_stacks *s) {
  (void)base;
  reg->allocated = &alloc_stack;
  if (freed) reg->freed = &free_stack;
  (void)s;
}
static const rt_stack *fake_call_stack(rt_stacks *s) {
  (void)s;
  return &call_stack;
}

/* one host report of kind through the scope, as rt_hooks_copy.c makes it;
 * returns the outcome */
static rt_report_outcome host(rt_log *log, rt_report_kind kind, rt_report_after after, const char *api) {
  rt_report_scope *sc = rt_report_begin(log, kind, after);
  rt_region *reg = rt_report_region(sc, 0x100000003000ull, 4000);
  const rt_stack *call = rt_report_call_stack(sc);
  const char *names[] = {api};
  if (!rt_report_suppressed(sc, names, 1, call) && rt_report_admit(sc)) {
    rt_report_stacks(sc, 0);
    rt_err_host_range e = {kind, api, reg->base, 4004, call, *reg};
    rt_report_host_range(log, &e);
  }
  rt_report_outcome o = sc->outcome;
  rt_report_end(sc);
  return o;
}

static int policy(void) {
  static rt_log log;
  static rt_suppress sp;
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  rt_log_init(&log, out, 0, 4242);
  CHECK(load_rules(&sp, "memset-param-overflow:cuMemsetD8\n*:quiet_kernel\n") == 0 && sp.n == 2, "rules");
  log.rules = &sp;
  log.report_limit = 2;
  log.halt_on_error = 1;
  log.halt = count_halt;
  log.region_stacks = fake_region_stacks;
  log.call_stack = fake_call_stack;

  CHECK(host(&log, RT_KIND_MEMCPY_PARAM_OVERFLOW, RT_REPORT_GOES_ON, "cuMemcpyHtoD") == RT_REPORT_PRINTED,
        "a host report printed");
  fflush(out);
  CHECK(strstr(text, "ERROR: GPUSanitizer: memcpy-param-overflow on address 0x100000003000") &&
            strstr(text, "allocated by host thread T0 here:\n    #0 cudaMalloc") &&
            strstr(text, "called by host thread T0 here:\n    #0 cudaMemcpy"),
        "its text, with the stacks the hooks gave:\n%s", text);
  CHECK(log.reports == 1 && halts == 0,
        "counted; a report the program is told about does not halt");
  CHECK(host(&log, RT_KIND_MEMSET_PARAM_OVERFLOW, RT_REPORT_GOES_ON, "cuMemsetD8") == RT_REPORT_SUPPRESSED &&
            log.reports == 1 && sp.s[0].hits == 1,
        "a rule naming the call: suppressed, not counted");
  CHECK(host(&log, RT_KIND_GLOBAL_CANARY_OVERFLOW, RT_REPORT_HALTS, "quiet_kernel") == RT_REPORT_SUPPRESSED &&
            halts == 0,
        "* suppresses any kind; a suppressed report does not halt");
  CHECK(host(&log, RT_KIND_GLOBAL_CANARY_OVERFLOW, RT_REPORT_HALTS, "k") == RT_REPORT_PRINTED && log.reports == 2 &&
            halts == 1,
        "a device error halts in halt mode");
  size_t printed = len;
  CHECK(host(&log, RT_KIND_DOUBLE_FREE, RT_REPORT_GOES_ON, "cuMemFree") == RT_REPORT_HELD &&
            host(&log, RT_KIND_DOUBLE_FREE, RT_REPORT_GOES_ON, "cuMemFree") == RT_REPORT_HELD &&
            log.held[RT_KIND_DOUBLE_FREE] == 2 && log.reports == 2 && halts == 1,
        "report_limit holds host reports back: counted per kind, not printed");
  CHECK(host(&log, RT_KIND_GLOBAL_CANARY_OVERFLOW, RT_REPORT_HALTS, "k") == RT_REPORT_HELD && halts == 2,
        "a device error held back by report_limit still halts");
  fflush(out);
  CHECK(len == printed, "nothing printed for held-back reports");
  rt_report_scope *sc = rt_report_begin(&log, RT_KIND_WILD_POINTER, RT_REPORT_HALTS);
  rt_report_end(sc);
  CHECK(halts == 2 && log.reports == 2 && !log.held[RT_KIND_WILD_POINTER], "a scope left open counts nothing");
  CHECK(pthread_mutex_trylock(&log.lock) == 0, "the lock is free after a scope");
  pthread_mutex_unlock(&log.lock);

  rt_report_held(&log);
  fflush(out);
  CHECK(strstr(text + printed, "==4242==GPUSanitizer: 2 more double-free reports not printed (report_limit=2)\n") &&
            strstr(text + printed, "==4242==GPUSanitizer: 1 more global-canary-overflow report not printed "
                                   "(report_limit=2)\n"),
        "held-back reports said at exit:\n%s", text + printed);
  size_t said = len;
  rt_report_held(&log);
  fflush(out);
  CHECK(len == said, "each said once");
  log.halt_on_error = 0;
  log.report_limit = 0;
  CHECK(host(&log, RT_KIND_GLOBAL_CANARY_OVERFLOW, RT_REPORT_HALTS, "k") == RT_REPORT_PRINTED && halts == 2 &&
            log.reports == 3,
        "halt_on_error=0: the run goes on; report_limit=0: no limit");
  fclose(out);
  free(text);
  printf("policy: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "kinds")) return kinds();
  if (argc == 2 && !strcmp(argv[1], "policy")) return policy();
  if (argc < 3) {
    fprintf(stderr, "usage: %s INSTRUMENTED.ptx SCENARIO [SITE]\n", argv[0]);
    return 2;
  }
  size_t n;
  unsigned char *blob = site_blob(argv[1], &n);
  const char *why, *sc = argv[2];
  unsigned site_index = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
  static rt_log log;
  rt_log_init(&log, stdout, !strcmp(sc, "json") || !strcmp(sc, "repeats-json"), 4242);
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
    rt_err_free e = {RT_KIND_DOUBLE_FREE, "cudaFree", reg.base, &free_stack, reg};
    e.region.freed = &free_stack;
    rt_report_free(&log, &e);
    rt_err_free inv = {RT_KIND_INVALID_FREE, "cudaFree", reg.base + 8, &free_stack, reg};
    rt_report_free(&log, &inv);
    rt_err_free none = {RT_KIND_INVALID_FREE, "cuMemFree", 0x7f0012345678ull, &free_stack,
                        {0, 0, NULL, 0, NULL, NULL, 0, NULL}};
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
    rt_err_host_range e = {RT_KIND_MEMCPY_PARAM_OVERFLOW, "cudaMemcpy", reg.base, 4004, &call_stack, reg};
    rt_report_host_range(&log, &e);
    rt_sites_free(t);
    return 0;
  } else {
    fprintf(stderr, "unknown scenario '%s'\n", sc);
    return 2;
  }
  rt_err_device e = {rt_classify_device(&s, &rec, state), rec, s, reg, 0, 0};
  rt_report_device(&log, &e);
  rt_sites_free(t);
  return 0;
}
