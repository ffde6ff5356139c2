/* Binary mode's kernel names and records (rt_binary.h); no Sanitizer API
 * here, so that the report path is the same, and testable, in every build. */
#include "rt_binary.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
  pthread_mutex_t lock;
  char **name;
  uint32_t n, cap;
} names = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A launch of a kernel already named costs a scan of the names: launches
 * of patched kernels look their data up by CUfunction first (rt_binary.c),
 * so this runs once per kernel and device. */
uint32_t rt_binary_kernel_index(const char *name) {
  uint32_t i;
  pthread_mutex_lock(&names.lock);
  for (i = 0; i < names.n && strcmp(names.name[i], name); i++) {}
  if (i == names.n) {
    char *copy = strdup(name);
    if (names.n == names.cap) {
      uint32_t cap = names.cap ? 2 * names.cap : 64;
      char **p = copy ? realloc(names.name, cap * sizeof *p) : NULL;
      if (p) names.name = p, names.cap = cap;
    }
    if (copy && names.n < names.cap) names.name[names.n++] = copy;
    else free(copy), i = UINT32_MAX;
  }
  pthread_mutex_unlock(&names.lock);
  return i;
}

const char *rt_binary_kernel_name(uint32_t index) {
  pthread_mutex_lock(&names.lock);
  const char *s = index < names.n ? names.name[index] : NULL;
  pthread_mutex_unlock(&names.lock);
  return s;
}

int rt_binary_site(const gsan_record *rec, rt_site *s) {
  if (!gsan_binary_is(rec->module_id)) return 0;
  memset(s, 0, sizeof *s);
  const char *k = rt_binary_kernel_name(gsan_binary_kernel(rec->module_id));
  s->func = k ? k : "?";
  s->kind = (int)gsan_binary_kind(rec->module_id);
  s->width = gsan_binary_width(rec->module_id);
  s->space = GSAN_SPACE_GLOBAL;
  s->root = GSAN_ROOT_ARENA;
  s->root_space = GSAN_SPACE_GLOBAL;
  s->binary = 1;
  s->sass_offset = rec->site;
  return 1;
}
