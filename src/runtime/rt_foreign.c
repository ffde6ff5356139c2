/* The driver's allocations that gsan tracks (rt_foreign.h): a balanced tree
 * (glibc's tsearch) of non-overlapping address ranges under one lock. Two
 * ranges compare equal when they overlap, so that looking up the one byte at
 * a pointer finds the allocation it falls in. Freed records stay until the
 * driver gives their addresses out again or RT_FOREIGN_FREED newer ones
 * push them out (a ring of them, oldest first). */
#include "rt_foreign.h"

#include <pthread.h>
#include <search.h>
#include <stdlib.h>

typedef struct record { uint64_t base, size, seq; int state; } record;

static struct {
  pthread_mutex_t lock;
  void *root;
  unsigned long count; /* records in the tree, read without the lock */
  uint64_t seq;
  struct { uint64_t base, seq; } freed[RT_FOREIGN_FREED]; /* the ring */
  unsigned next;                                         /* its oldest slot */
} map = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* by address; overlapping ranges are equal */
static int by_range(const void *a, const void *b) {
  const record *x = a, *y = b;
  if (x->base + (x->size - 1) < y->base) return -1;
  if (y->base + (y->size - 1) < x->base) return 1;
  return 0;
}

static record *lookup(uint64_t ptr) {
  record key = {ptr, 1, 0, 0};
  record **r = tfind(&key, &map.root, by_range);
  return r ? *r : NULL;
}

static void drop(record *r) {
  tdelete(r, &map.root, by_range);
  free(r);
  __atomic_store_n(&map.count, map.count - 1, __ATOMIC_RELAXED);
}

static void describe(const record *r, rt_alloc_info *info) {
  *info = (rt_alloc_info){.base = r->base, .size = r->size, .slot_size = r->size, .state = r->state, .seq = r->seq};
}

void rt_foreign_add(uint64_t base, uint64_t size) {
  record *r = malloc(sizeof *r);
  if (!r || !size) {
    free(r);
    return;
  }
  pthread_mutex_lock(&map.lock);
  *r = (record){base, size, ++map.seq, RT_SLOT_LIVE};
  record *old;
  /* a record in the way describes memory the driver has taken back */
  while ((old = *(record **)tsearch(r, &map.root, by_range)) != r) drop(old);
  __atomic_store_n(&map.count, map.count + 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&map.lock);
}

rt_status rt_foreign_find(uint64_t ptr, rt_alloc_info *info) {
  if (!__atomic_load_n(&map.count, __ATOMIC_RELAXED)) return RT_NOT_OURS;
  pthread_mutex_lock(&map.lock);
  record *r = lookup(ptr);
  if (r) describe(r, info);
  pthread_mutex_unlock(&map.lock);
  return r ? RT_OK : RT_NOT_OURS;
}

int rt_foreign_freed(uint64_t base) {
  if (!__atomic_load_n(&map.count, __ATOMIC_RELAXED)) return 0;
  pthread_mutex_lock(&map.lock);
  record *r = lookup(base);
  int found = r && r->base == base && r->state == RT_SLOT_LIVE;
  if (found) {
    r->state = RT_SLOT_FREED;
    /* the oldest freed record makes room, unless it has gone already */
    record *oldest = lookup(map.freed[map.next].base);
    if (oldest && oldest->seq == map.freed[map.next].seq && oldest->state == RT_SLOT_FREED) drop(oldest);
    map.freed[map.next].base = r->base;
    map.freed[map.next].seq = r->seq;
    map.next = (map.next + 1) % RT_FOREIGN_FREED;
  }
  pthread_mutex_unlock(&map.lock);
  return found;
}

void rt_foreign_forget(uint64_t ptr) {
  if (!__atomic_load_n(&map.count, __ATOMIC_RELAXED)) return;
  pthread_mutex_lock(&map.lock);
  record *r = lookup(ptr);
  if (r) drop(r);
  pthread_mutex_unlock(&map.lock);
}

typedef struct gathered { rt_alloc_info *info; size_t n; } gathered;
static void gather(const void *node, VISIT which, void *arg) {
  const record *r = *(record *const *)node;
  gathered *g = arg;
  if ((which == postorder || which == leaf) && r->state == RT_SLOT_LIVE) describe(r, &g->info[g->n++]);
}

static int by_seq(const void *a, const void *b) {
  uint64_t x = ((const rt_alloc_info *)a)->seq, y = ((const rt_alloc_info *)b)->seq;
  return x < y ? -1 : x > y;
}

void rt_foreign_foreach_live(void (*fn)(void *arg, const rt_alloc_info *info), void *arg) {
  pthread_mutex_lock(&map.lock);
  gathered g = {malloc((map.count ? map.count : 1) * sizeof *g.info), 0};
  if (g.info) twalk_r(map.root, gather, &g);
  pthread_mutex_unlock(&map.lock);
  /* in the order they were made, outside the lock: fn may take its time */
  if (g.n) qsort(g.info, g.n, sizeof *g.info, by_seq);
  for (size_t i = 0; i < g.n; i++) fn(arg, &g.info[i]);
  free(g.info);
}
