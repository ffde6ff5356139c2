/* Binary mode's kernel names and records (rt_binary.h); no Sanitizer API
 * here, so that the report path is the same, and testable, in every build. */
#include "rt_binary.h"

#include "rt_arena.h"

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
  switch (gsan_binary_space(rec->module_id)) {
  case GSAN_BINARY_SHARED: /* base and size: the block's shared memory in the window */
    s->space = s->root_space = GSAN_SPACE_SHARED;
    s->root = GSAN_ROOT_VARIABLE;
    s->root_name = "static and dynamic shared memory of the block";
    break;
  case GSAN_BINARY_LOCAL: /* base 0, size the stack's top */
    s->space = s->root_space = GSAN_SPACE_LOCAL;
    s->root = GSAN_ROOT_VARIABLE;
    s->root_name = "stack of the thread";
    break;
  case GSAN_BINARY_HEAP_FREED: s->heap_freed = 1; break;
  default: break;
  }
  return 1;
}

static const gsan_bheap_block *heap_blocks[RT_BINARY_DEVICES];

void rt_binary_set_heap(int device, const gsan_bheap_block *blocks) {
  if (device >= 0 && device < RT_BINARY_DEVICES) __atomic_store_n(&heap_blocks[device], blocks, __ATOMIC_RELEASE);
}

/* the block that starts at ptr on any device, as the device's probes find it */
static const gsan_bheap_block *block_at(uint64_t ptr) {
  for (int d = 0; d < RT_BINARY_DEVICES; d++) {
    const gsan_bheap_block *b = __atomic_load_n(&heap_blocks[d], __ATOMIC_ACQUIRE);
    for (uint32_t n = 0, i = gsan_bheap_block_slot(ptr); b && n < GSAN_BHEAP_BLOCKS; n++, i = (i + 1) & (GSAN_BHEAP_BLOCKS - 1)) {
      uint64_t k = __atomic_load_n(&b[i].ptr, __ATOMIC_ACQUIRE);
      if (k == ptr) return &b[i];
      if (!k) break;
    }
  }
  return NULL;
}

static void origin_of(const gsan_bheap_block *b, rt_dev_origin *o) {
  o->site = NULL;
  memcpy(o->tid, b->tid, sizeof o->tid);
  memcpy(o->ctaid, b->ctaid, sizeof o->ctaid);
}

int rt_binary_beside(const gsan_record *rec, rt_arena *a, rt_region *reg) {
  rt_alloc_info info;
  if (!a || rt_arena_nearest(a, rec->addr, &info) != RT_OK) return 0;
  reg->base = info.base;
  reg->size = info.size;
  return 1;
}

int rt_binary_explain(const rt_site *s, const gsan_record *rec, rt_region *reg, rt_dev_origin *origin, int *state) {
  unsigned space = gsan_binary_space(rec->module_id);
  int is_free = s->kind == GSAN_ACCESS_FREE;
  if (!gsan_binary_is(rec->module_id) || (!is_free && space != GSAN_BINARY_HEAP && space != GSAN_BINARY_HEAP_FREED))
    return 0;
  *state = RT_SLOT_DEVHEAP;
  const gsan_bheap_block *b = block_at(is_free ? rec->addr : rec->base);
  reg->base = is_free ? rec->addr : rec->base;
  reg->size = is_free ? 0 : rec->size;
  if (b) {
    reg->size = b->size;
    origin_of(b, origin);
    reg->dev_allocated = origin;
  }
  return 1;
}

void rt_binary_heap_leaks(void (*fn)(void *arg, const rt_leak *l), void *arg) {
  rt_dev_origin o;
  for (int d = 0; d < RT_BINARY_DEVICES; d++) {
    const gsan_bheap_block *b = __atomic_load_n(&heap_blocks[d], __ATOMIC_ACQUIRE);
    for (uint32_t k = 0; b && k < GSAN_BHEAP_BLOCKS; k++) {
      if (!b[k].ptr || __atomic_load_n(&b[k].state, __ATOMIC_ACQUIRE) != GSAN_HEAP_LIVE) continue;
      origin_of(&b[k], &o);
      rt_leak l = {b[k].ptr, b[k].size, NULL, &o};
      fn(arg, &l);
    }
  }
}
