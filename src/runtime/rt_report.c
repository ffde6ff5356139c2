/* Report printing and the report scope (rt_report.h). Text and JSON carry
 * the same fields; the text follows AddressSanitizer's layout so that
 * people and tools that read ASan reports read these. */
#include "rt_report.h"

#include "rt_arena.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

const char *rt_demangle(const char *name, char *buf, size_t n) {
  if (!name || strncmp(name, "_Z", 2)) return name ? name : "?";
  int status = 0;
  char *d = __cxa_demangle(name, NULL, NULL, &status);
  if (status != 0 || !d) return name;
  snprintf(buf, n, "%s", d);
  free(d);
  return buf;
}

void rt_log_init(rt_log *log, FILE *out, int json, long pid) {
  memset(log, 0, sizeof *log);
  pthread_mutex_init(&log->lock, NULL);
  log->out = out;
  log->json = json;
  log->pid = pid;
}

/* ---- the report scope ----
 * One per log, used under log->lock: a report's policy decided in one
 * place for every producer (docs/runtime.md, "Report kinds and the report
 * scope"). */
rt_report_scope *rt_report_begin(rt_log *log, rt_report_kind kind, rt_report_after after) {
  pthread_mutex_lock(&log->lock);
  rt_report_scope *sc = &log->scope;
  sc->log = log;
  sc->kind = kind;
  sc->after = after;
  sc->outcome = RT_REPORT_OPEN;
  sc->region = (rt_region){0, 0, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
  sc->stacks.alloc.n = sc->stacks.freed.n = sc->stacks.call.n = 0; /* their text buffers are written over */
  return sc;
}

rt_region *rt_report_region(rt_report_scope *sc, uint64_t base, uint64_t size) {
  sc->region = (rt_region){base, size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
  return &sc->region;
}

void rt_report_stacks(rt_report_scope *sc, int freed) {
  if (sc->log->region_stacks) sc->log->region_stacks(sc->region.base, freed, &sc->region, &sc->stacks);
}

const rt_stack *rt_report_call_stack(rt_report_scope *sc) {
  return sc->log->call_stack ? sc->log->call_stack(&sc->stacks) : NULL;
}

int rt_report_suppressed(rt_report_scope *sc, const char *const *names, int n, const rt_stack *stack) {
  if (!sc->log->rules || !sc->log->rules->n) return 0;
  if (!rt_suppress_match(sc->log->rules, sc->kind, names, n, stack ? stack->frame : NULL, stack ? stack->n : 0))
    return 0;
  sc->outcome = RT_REPORT_SUPPRESSED;
  return 1;
}

int rt_report_admit(rt_report_scope *sc) {
  rt_log *log = sc->log;
  if (log->report_limit && log->reports >= log->report_limit) {
    sc->outcome = RT_REPORT_HELD;
    log->held[sc->kind]++;
    return 0;
  }
  sc->outcome = RT_REPORT_PRINTED;
  return 1;
}

void rt_report_end(rt_report_scope *sc) {
  rt_log *log = sc->log;
  int made = sc->outcome == RT_REPORT_PRINTED || sc->outcome == RT_REPORT_HELD;
  if (sc->outcome == RT_REPORT_PRINTED) log->reports++;
  int halt = made && sc->after == RT_REPORT_HALTS && log->halt_on_error && log->halt;
  pthread_mutex_unlock(&log->lock);
  if (halt) log->halt();
}

/* ---- the one printer ---- */
static void emit(rt_log *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(rt_log *log, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(log->out, fmt, ap);
  va_end(ap);
}

static void json_str(rt_log *log, const char *s) {
  if (!s) { emit(log, "null"); return; }
  emit(log, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') emit(log, "\\%c", c);
    else if (c < 0x20) emit(log, "\\u%04x", c);
    else emit(log, "%c", c);
  }
  emit(log, "\"");
}

static const char *access_name(int kind) {
  switch (kind) {
  case GSAN_ACCESS_READ: return "READ";
  case GSAN_ACCESS_WRITE: return "WRITE";
  case GSAN_ACCESS_ATOMIC: return "ATOMIC";
  case GSAN_ACCESS_COPY_SRC: return "COPY-READ";
  case GSAN_ACCESS_COPY_DST: return "COPY-WRITE";
  case GSAN_ACCESS_BARRIER: return "BARRIER";
  case GSAN_ACCESS_FREE: return "FREE";
  default: return "ACCESS";
  }
}

static const char *space_word(int space) {
  switch (space) {
  case GSAN_SPACE_SHARED: return "shared";
  case GSAN_SPACE_LOCAL: return "local";
  case GSAN_SPACE_CONST: return "constant";
  default: return "global";
  }
}

rt_report_kind rt_classify_device(const rt_site *site, const gsan_record *rec, int slot_state) {
  if (site && site->root == GSAN_ROOT_SCOPE) return RT_KIND_USE_AFTER_SCOPE;
  if (site && site->root == GSAN_ROOT_VARIABLE) {
    if (site->root_space == GSAN_SPACE_SHARED) return RT_KIND_SHARED_BUFFER_OVERFLOW;
    if (site->root_space == GSAN_SPACE_LOCAL) return RT_KIND_LOCAL_BUFFER_OVERFLOW;
    return RT_KIND_GLOBAL_BUFFER_OVERFLOW;
  }
  if (site && site->kind == GSAN_ACCESS_FREE) /* base 0, the outcome as the size (abi.h) */
    return rec->size == GSAN_HEAP_DOUBLE_FREE ? RT_KIND_DEVICE_HEAP_DOUBLE_FREE : RT_KIND_DEVICE_HEAP_INVALID_FREE;
  if (slot_state == RT_SLOT_DEVHEAP)
    return rec->size == 0 || (site && site->heap_freed) ? RT_KIND_DEVICE_HEAP_USE_AFTER_FREE
                                                        : RT_KIND_DEVICE_HEAP_BUFFER_OVERFLOW;
  if (rec->size == 0) return slot_state == RT_SLOT_FREED ? RT_KIND_USE_AFTER_FREE : RT_KIND_WILD_POINTER;
  return RT_KIND_GLOBAL_BUFFER_OVERFLOW;
}

static void text_stack(rt_log *log, const char *title, const rt_stack *st, unsigned thread) {
  if (!st) return;
  emit(log, "%s by host thread T%u here:\n", title, thread);
  for (int i = 0; i < st->n; i++) emit(log, "    #%d %s\n", i, st->frame[i]);
}

/* a device-heap block's malloc: the device thread and the call's line */
static void text_dev_origin(rt_log *log, const char *title, const rt_dev_origin *o) {
  if (!o) return;
  emit(log, "%s by device thread (%u,%u,%u) block (%u,%u,%u) here:\n", title, o->tid[0], o->tid[1], o->tid[2],
       o->ctaid[0], o->ctaid[1], o->ctaid[2]);
  if (!o->site) { emit(log, "    #0 (in-kernel malloc of a module gsan has no site table for)\n"); return; }
  char fbuf[1024];
  const char *func = rt_demangle(o->site->func, fbuf, sizeof fbuf);
  if (o->site->file && o->site->call_file)
    emit(log, "    #0 malloc in %s at %s:%u (inlined from %s:%u)\n", func, o->site->call_file, o->site->call_line,
         o->site->file, o->site->line);
  else if (o->site->file) emit(log, "    #0 malloc in %s at %s:%u\n", func, o->site->file, o->site->line);
  else emit(log, "    #0 malloc in %s at PTX line %u\n", func, o->site->ptx_line);
}

static void json_dev_origin(rt_log *log, const rt_dev_origin *o) {
  if (!o) return;
  emit(log, ",\"allocated_on_device\":{\"thread\":[%u,%u,%u],\"block\":[%u,%u,%u],\"function\":", o->tid[0],
       o->tid[1], o->tid[2], o->ctaid[0], o->ctaid[1], o->ctaid[2]);
  char fbuf[1024];
  json_str(log, o->site ? rt_demangle(o->site->func, fbuf, sizeof fbuf) : NULL);
  emit(log, ",\"file\":");
  json_str(log, o->site ? (o->site->call_file ? o->site->call_file : o->site->file) : NULL);
  emit(log, ",\"line\":%u}", o->site ? (o->site->call_file ? o->site->call_line : o->site->line) : 0);
}

static void json_stack(rt_log *log, const char *key, const rt_stack *st) {
  emit(log, ",\"%s\":", key);
  if (!st) { emit(log, "null"); return; }
  emit(log, "[");
  for (int i = 0; i < st->n; i++) {
    if (i) emit(log, ",");
    json_str(log, st->frame[i]);
  }
  emit(log, "]");
}

/* "0x.. is located 12 bytes after 4000-byte region [a,b)" and its variants */
static void text_where(rt_log *log, uint64_t addr, const rt_region *r) {
  uint64_t end = r->base + r->size;
  emit(log, "0x%llx is located ", (unsigned long long)addr);
  if (addr < r->base) emit(log, "%llu bytes before", (unsigned long long)(r->base - addr));
  else if (addr >= end) emit(log, "%llu bytes after", (unsigned long long)(addr - end));
  else emit(log, "%llu bytes inside", (unsigned long long)(addr - r->base));
  char name[512];
  if (r->name)
    emit(log, " %llu-byte %s variable '%s'", (unsigned long long)r->size, space_word(r->space),
         rt_demangle(r->name, name, sizeof name));
  else emit(log, " %llu-byte region", (unsigned long long)r->size);
  emit(log, " [0x%llx,0x%llx)\n", (unsigned long long)r->base, (unsigned long long)end);
}

static void json_region(rt_log *log, const rt_region *r) {
  emit(log, ",\"region\":{\"base\":\"0x%llx\",\"size\":%llu,\"name\":", (unsigned long long)r->base,
       (unsigned long long)r->size);
  json_str(log, r->name);
  emit(log, ",\"space\":\"%s\"}", space_word(r->space));
  json_stack(log, "allocated_by", r->allocated);
  json_stack(log, "freed_by", r->freed);
  json_dev_origin(log, r->dev_allocated);
}

static void text_header(rt_log *log, rt_report_kind kind, uint64_t addr) {
  emit(log, "=================================================================\n");
  emit(log, "==%ld==ERROR: GPUSanitizer: %s on address 0x%llx\n", log->pid, rt_report_kind_name(kind),
       (unsigned long long)addr);
}

/* A record whose site no table describes (rt_drain.c): its address, thread,
 * block and the bounds its check used are all that is known; the report
 * says so, and names the module and site, instead of a kernel "?" and an
 * access of size 0. */
static void report_unknown_site(rt_log *log, const rt_err_device *e) {
  const gsan_record *r = &e->rec;
  const char *kind = rt_report_kind_name(e->kind);
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":", log->pid);
    json_str(log, kind);
    emit(log, ",\"address\":\"0x%llx\",\"access\":null,\"size\":null,\"thread\":[%u,%u,%u],\"block\":[%u,%u,%u]",
         (unsigned long long)r->addr, r->tid[0], r->tid[1], r->tid[2], r->ctaid[0], r->ctaid[1], r->ctaid[2]);
    emit(log, ",\"function\":null,\"module\":\"0x%llx\",\"site\":%u,\"site_known\":false",
         (unsigned long long)r->module_id, r->site);
    json_region(log, &e->region);
    emit(log, "}\n");
    fflush(log->out);
    return;
  }
  text_header(log, e->kind, r->addr);
  emit(log, "access at 0x%llx by thread (%u,%u,%u) block (%u,%u,%u)\n", (unsigned long long)r->addr, r->tid[0],
       r->tid[1], r->tid[2], r->ctaid[0], r->ctaid[1], r->ctaid[2]);
  emit(log, "    #0 site %u of module 0x%llx, which no site table loaded in this process describes: its kernel, "
            "READ/WRITE, size and line are unknown\n",
       r->site, (unsigned long long)r->module_id);
  if (e->kind == RT_KIND_WILD_POINTER) {
    emit(log, "0x%llx is in the arena but in no allocation\n", (unsigned long long)r->addr);
  } else {
    text_where(log, r->addr, &e->region);
    text_stack(log, "freed", e->region.freed, e->region.thread);
    text_stack(log, e->kind == RT_KIND_USE_AFTER_FREE ? "previously allocated" : "allocated", e->region.allocated,
               e->region.thread);
  }
  emit(log, "SUMMARY: GPUSanitizer: %s in an unknown kernel (site %u of module 0x%llx)\n", kind, r->site,
       (unsigned long long)r->module_id);
  fflush(log->out);
}

void rt_report_device(rt_log *log, const rt_err_device *e) {
  if (e->unknown_site) {
    report_unknown_site(log, e);
    return;
  }
  const gsan_record *r = &e->rec;
  const rt_site *s = &e->site;
  char fbuf[1024];
  const char *func = rt_demangle(s->func, fbuf, sizeof fbuf);
  const char *kind = rt_report_kind_name(e->kind);
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":", log->pid);
    json_str(log, kind);
    emit(log, ",\"address\":\"0x%llx\",\"access\":\"%s\",\"size\":%u,\"thread\":[%u,%u,%u],\"block\":[%u,%u,%u]",
         (unsigned long long)r->addr, access_name(s->kind), s->width, r->tid[0], r->tid[1], r->tid[2], r->ctaid[0],
         r->ctaid[1], r->ctaid[2]);
    emit(log, ",\"function\":");
    json_str(log, func);
    emit(log, ",\"file\":");
    json_str(log, s->file);
    emit(log, ",\"line\":%u,\"column\":%u,\"ptx_line\":%u,\"inlined_into\":", s->line, s->col, s->ptx_line);
    json_str(log, s->call_file);
    emit(log, ",\"inlined_into_line\":%u", s->call_line);
    if (s->binary) emit(log, ",\"sass_offset\":%u", s->sass_offset);
    json_region(log, &e->region);
    emit(log, "}\n");
    fflush(log->out);
    return;
  }
  text_header(log, e->kind, r->addr);
  if (s->kind == GSAN_ACCESS_FREE)
    emit(log, "free(0x%llx) by thread (%u,%u,%u) block (%u,%u,%u)\n", (unsigned long long)r->addr, r->tid[0],
         r->tid[1], r->tid[2], r->ctaid[0], r->ctaid[1], r->ctaid[2]);
  else
    emit(log, "%s of size %u at 0x%llx by thread (%u,%u,%u) block (%u,%u,%u)\n", access_name(s->kind), s->width,
         (unsigned long long)r->addr, r->tid[0], r->tid[1], r->tid[2], r->ctaid[0], r->ctaid[1], r->ctaid[2]);
  /* inlined code: its own line, then the line it was inlined into */
  if (s->file && s->call_file) {
    emit(log, "    #0 inlined code at %s:%u\n", s->file, s->line);
    emit(log, "    #1 %s at %s:%u\n", func, s->call_file, s->call_line);
  } else if (s->file) {
    emit(log, "    #0 %s at %s:%u\n", func, s->file, s->line);
  } else if (s->binary) {
    emit(log, "    #0 %s at SASS offset 0x%x (code gsan did not compile, checked by gsan run --binary)\n", func,
         s->sass_offset);
  } else {
    emit(log, "    #0 %s at PTX line %u (compile with -lineinfo for source lines)\n", func, s->ptx_line);
  }
  int freed = e->kind == RT_KIND_USE_AFTER_FREE || e->kind == RT_KIND_DEVICE_HEAP_USE_AFTER_FREE ||
              e->kind == RT_KIND_DEVICE_HEAP_DOUBLE_FREE;
  if (e->kind == RT_KIND_WILD_POINTER) {
    emit(log, e->off_arena ? "0x%llx is just outside gsan's arena, where no memory is mapped (an index that ran far "
                             "past its allocation, or wrapped)\n"
                           : "0x%llx is in the arena but in no allocation\n",
         (unsigned long long)r->addr);
  } else if (e->kind == RT_KIND_USE_AFTER_SCOPE) {
    emit(log, "0x%llx is a local variable of a function that has returned\n", (unsigned long long)r->addr);
  } else if (s->kind == GSAN_ACCESS_FREE && !e->region.dev_allocated) {
    emit(log, "0x%llx is not the start of any device-heap block\n", (unsigned long long)r->addr);
  } else {
    text_where(log, r->addr, &e->region);
    text_stack(log, "freed", e->region.freed, e->region.thread);
    text_stack(log, freed ? "previously allocated" : "allocated", e->region.allocated, e->region.thread);
    text_dev_origin(log, freed ? "previously allocated" : "allocated", e->region.dev_allocated);
  }
  if (s->file && s->call_file) emit(log, "SUMMARY: GPUSanitizer: %s %s:%u in %s\n", kind, s->call_file, s->call_line, func);
  else if (s->file) emit(log, "SUMMARY: GPUSanitizer: %s %s:%u in %s\n", kind, s->file, s->line, func);
  else emit(log, "SUMMARY: GPUSanitizer: %s in %s\n", kind, func);
  fflush(log->out);
}

static void host_report(rt_log *log, rt_report_kind kind, const char *api, uint64_t addr, uint64_t len,
                        const rt_stack *stack, const rt_region *reg) {
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":", log->pid);
    json_str(log, rt_report_kind_name(kind));
    emit(log, ",\"api\":");
    json_str(log, api);
    emit(log, ",\"address\":\"0x%llx\",\"length\":%llu", (unsigned long long)addr, (unsigned long long)len);
    json_stack(log, "stack", stack);
    json_region(log, reg);
    emit(log, "}\n");
    fflush(log->out);
    return;
  }
  text_header(log, kind, addr);
  if (len) emit(log, "%s of %llu bytes at 0x%llx\n", api, (unsigned long long)len, (unsigned long long)addr);
  else emit(log, "%s(0x%llx)\n", api, (unsigned long long)addr);
  text_stack(log, "called", stack, reg->thread);
  if (reg->size || reg->allocated) {
    uint64_t end = reg->base + reg->size;
    if (len && addr + len > end && addr >= reg->base && addr < end)
      emit(log, "[0x%llx,0x%llx) ends %llu bytes after %llu-byte region [0x%llx,0x%llx)\n", (unsigned long long)addr,
           (unsigned long long)(addr + len), (unsigned long long)(addr + len - end), (unsigned long long)reg->size,
           (unsigned long long)reg->base, (unsigned long long)end);
    else
      text_where(log, addr, reg);
    text_stack(log, "freed", reg->freed, reg->thread);
    text_stack(log, reg->freed ? "previously allocated" : "allocated", reg->allocated, reg->thread);
  } else {
    emit(log, "0x%llx is not the start of any device allocation\n", (unsigned long long)addr);
  }
  emit(log, "SUMMARY: GPUSanitizer: %s in %s\n", rt_report_kind_name(kind), api);
  fflush(log->out);
}

void rt_report_free(rt_log *log, const rt_err_free *e) {
  host_report(log, e->kind, e->api, e->addr, 0, e->stack, &e->region);
}

void rt_report_host_range(rt_log *log, const rt_err_host_range *e) {
  host_report(log, e->kind, e->api, e->addr, e->len, e->stack, &e->region);
}

void rt_report_leaks(rt_log *log, const rt_err_leaks *e) {
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":\"%s\",\"count\":%llu,\"bytes\":%llu,\"allocations\":[", log->pid,
         rt_report_kind_name(RT_KIND_LEAK), (unsigned long long)e->count, (unsigned long long)e->bytes);
    for (unsigned i = 0; i < e->n; i++) {
      emit(log, "%s{\"address\":\"0x%llx\",\"size\":%llu", i ? "," : "", (unsigned long long)e->leaks[i].addr,
           (unsigned long long)e->leaks[i].size);
      json_stack(log, "allocated_by", e->leaks[i].allocated);
      json_dev_origin(log, e->leaks[i].dev_allocated);
      emit(log, "}");
    }
    emit(log, "]}\n");
    fflush(log->out);
    return;
  }
  emit(log, "=================================================================\n");
  emit(log, "==%ld==ERROR: GPUSanitizer: detected device memory leaks\n", log->pid);
  for (unsigned i = 0; i < e->n; i++) {
    emit(log, "\nLeak of %llu byte(s) at 0x%llx%s\n", (unsigned long long)e->leaks[i].size,
         (unsigned long long)e->leaks[i].addr, e->leaks[i].dev_allocated ? " (device heap)" : "");
    text_stack(log, "allocated", e->leaks[i].allocated, 0);
    text_dev_origin(log, "allocated", e->leaks[i].dev_allocated);
  }
  if (e->n < e->count) emit(log, "\n(%llu more not listed)\n", (unsigned long long)(e->count - e->n));
  emit(log, "\nSUMMARY: GPUSanitizer: %llu byte(s) leaked in %llu allocation(s).\n", (unsigned long long)e->bytes,
       (unsigned long long)e->count);
  fflush(log->out);
}

/* not a new error: the count behind reports already made (or held back) */
void rt_report_repeats(rt_log *log, const rt_err_repeats *e) {
  const rt_site *s = e->site;
  char fbuf[1024];
  const char *func = rt_demangle(s->func, fbuf, sizeof fbuf);
  const char *file = s->call_file ? s->call_file : s->file;
  unsigned line = s->call_file ? s->call_line : s->line;
  pthread_mutex_lock(&log->lock);
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":\"repeats\",\"error\":", log->pid);
    json_str(log, e->kind);
    emit(log, ",\"function\":");
    json_str(log, func);
    emit(log, ",\"file\":");
    json_str(log, file);
    emit(log, ",\"line\":%u,\"hits\":%llu,\"printed\":%s}\n", line, (unsigned long long)e->hits,
         e->printed ? "true" : "false");
  } else if (file) {
    emit(log, "==%ld==GPUSanitizer: %s at %s:%u in %s: hit %llu times, %s\n", log->pid, e->kind, file, line, func,
         (unsigned long long)e->hits, e->printed ? "reported once" : "not reported (report_limit)");
  } else if (s->binary) {
    emit(log, "==%ld==GPUSanitizer: %s at SASS offset 0x%x in %s: hit %llu times, %s\n", log->pid, e->kind,
         s->sass_offset, func, (unsigned long long)e->hits, e->printed ? "reported once" : "not reported (report_limit)");
  } else {
    emit(log, "==%ld==GPUSanitizer: %s at PTX line %u in %s: hit %llu times, %s\n", log->pid, e->kind, s->ptx_line,
         func, (unsigned long long)e->hits, e->printed ? "reported once" : "not reported (report_limit)");
  }
  fflush(log->out);
  pthread_mutex_unlock(&log->lock);
}

void rt_report_unrecorded(rt_log *log, const rt_err_unrecorded *e) {
  pthread_mutex_lock(&log->lock);
  if (log->json)
    emit(log, "{\"pid\":%ld,\"kind\":\"unrecorded\",\"device\":%d,\"count\":%llu,\"ring_capacity\":%u}\n", log->pid,
         e->device, (unsigned long long)e->count, e->capacity);
  else
    emit(log,
         "==%ld==GPUSanitizer: %llu more failed accesses on device %d were not recorded: the report ring was full "
         "(ring_capacity=%u); the counts above leave them out\n",
         log->pid, (unsigned long long)e->count, e->device, e->capacity);
  fflush(log->out);
  pthread_mutex_unlock(&log->lock);
}

void rt_report_held(rt_log *log) {
  pthread_mutex_lock(&log->lock);
  for (int k = 0; k < RT_REPORT_KINDS; k++) {
    unsigned long long n = log->held[k] - log->held_said[k];
    if (!n) continue;
    log->held_said[k] = log->held[k];
    const char *kind = rt_report_kind_name((rt_report_kind)k);
    if (log->json)
      emit(log, "{\"pid\":%ld,\"kind\":\"held\",\"error\":\"%s\",\"count\":%llu,\"report_limit\":%u}\n", log->pid,
           kind, n, log->report_limit);
    else
      emit(log, "==%ld==GPUSanitizer: %llu more %s report%s not printed (report_limit=%u)\n", log->pid, n, kind,
           n == 1 ? "" : "s", log->report_limit);
  }
  fflush(log->out);
  pthread_mutex_unlock(&log->lock);
}

/* the kernels a canary or fault report names: those launched since a point */
static void text_kernels(rt_log *log, const char *since, const char *const *k, unsigned n, uint64_t launches) {
  emit(log, "kernels launched since the last %s (%llu launch%s, the last %u distinct listed, latest last):\n", since,
       (unsigned long long)launches, launches == 1 ? "" : "es", n);
  for (unsigned i = 0; i < n; i++) emit(log, "    %s\n", k[i]);
}

static void json_kernels(rt_log *log, const char *const *k, unsigned n, uint64_t launches) {
  emit(log, ",\"launches\":%llu,\"kernels\":[", (unsigned long long)launches);
  for (unsigned i = 0; i < n; i++) {
    if (i) emit(log, ",");
    json_str(log, k[i]);
  }
  emit(log, "]");
}

void rt_report_canary(rt_log *log, const rt_err_canary *e) {
  const rt_region *r = &e->region;
  uint64_t end = r->base + r->size;
  const char *kind = rt_report_kind_name(RT_KIND_GLOBAL_CANARY_OVERFLOW);
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":\"%s\",\"address\":\"0x%llx\",\"offset\":%llu,\"found_at\":", log->pid, kind,
         (unsigned long long)e->addr, (unsigned long long)(e->addr - end));
    json_str(log, e->found_at);
    json_kernels(log, e->kernels, e->nkernels, e->launches);
    json_region(log, r);
    emit(log, "}\n");
    fflush(log->out);
    return;
  }
  text_header(log, RT_KIND_GLOBAL_CANARY_OVERFLOW, e->addr);
  emit(log, "canary after the allocation's end broken, found at %s (a write by code gsan did not instrument)\n",
       e->found_at);
  text_where(log, e->addr, r);
  text_stack(log, "allocated", r->allocated, r->thread);
  text_kernels(log, "clean check", e->kernels, e->nkernels, e->launches);
  emit(log, "SUMMARY: GPUSanitizer: %s %llu bytes after %llu-byte region [0x%llx,0x%llx)\n", kind,
       (unsigned long long)(e->addr - end), (unsigned long long)r->size, (unsigned long long)r->base,
       (unsigned long long)end);
  fflush(log->out);
}

void rt_report_fault(rt_log *log, const rt_err_fault *e) {
  const char *kind = rt_report_kind_name(RT_KIND_ILLEGAL_ADDRESS);
  if (log->json) {
    emit(log, "{\"pid\":%ld,\"kind\":\"%s\",\"api\":", log->pid, kind);
    json_str(log, e->api);
    emit(log, ",\"code\":%d", e->code);
    json_kernels(log, e->kernels, e->nkernels, e->launches);
    emit(log, ",\"guard_gaps\":[");
    for (unsigned i = 0; i < e->ngaps; i++) {
      emit(log, "%s{\"base\":\"0x%llx\",\"size\":%llu", i ? "," : "", (unsigned long long)e->gaps[i].base,
           (unsigned long long)e->gaps[i].size);
      json_stack(log, "allocated_by", e->gaps[i].allocated);
      emit(log, "}");
    }
    emit(log, "]}\n");
    fflush(log->out);
    return;
  }
  emit(log, "=================================================================\n");
  emit(log, "==%ld==ERROR: GPUSanitizer: %s: %s returned %d (a kernel faulted)\n", log->pid, kind, e->api, e->code);
  text_kernels(log, "successful synchronisation", e->kernels, e->nkernels, e->launches);
  if (e->ngaps) emit(log, "recently used allocations that end at an unmapped guard gap (a write past their end faults):\n");
  for (unsigned i = 0; i < e->ngaps; i++) {
    uint64_t end = e->gaps[i].base + e->gaps[i].size;
    emit(log, "  %llu-byte region [0x%llx,0x%llx)\n", (unsigned long long)e->gaps[i].size,
         (unsigned long long)e->gaps[i].base, (unsigned long long)end);
    text_stack(log, "  allocated", e->gaps[i].allocated, e->gaps[i].thread);
  }
  emit(log, "SUMMARY: GPUSanitizer: %s in %s\n", kind, e->kernels && e->nkernels ? e->kernels[e->nkernels - 1] : "?");
  fflush(log->out);
}
