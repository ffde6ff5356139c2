/* The stack depot and the allocation-to-stacks map (rt_depot.h): two
 * open-addressing hash tables under one lock, grown by doubling. */
#include "rt_depot.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct entry { uint64_t hash; uint32_t id; } entry;
static entry *index_;          /* hash -> id */
static rt_trace *traces;       /* id-1 -> trace */
static uint32_t ntraces, tcap, icap;

typedef struct alloc { uint64_t base; uint32_t alloc, freed; } alloc;
static alloc *allocs;
static uint64_t nallocs, acap;

static uint64_t hash_trace(const rt_trace *t) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)t->n;
  for (int i = 0; i < t->n; i++) h = (h ^ (uint64_t)(uintptr_t)t->pc[i]) * 1099511628211ull;
  return h | 1;
}

static int grow_index(void) {
  uint32_t ncap = icap ? icap * 2 : 1024;
  entry *n = calloc(ncap, sizeof *n);
  if (!n) return -1;
  for (uint32_t i = 0; i < icap; i++)
    if (index_[i].hash) {
      uint32_t j = (uint32_t)index_[i].hash & (ncap - 1);
      while (n[j].hash) j = (j + 1) & (ncap - 1);
      n[j] = index_[i];
    }
  free(index_);
  index_ = n;
  icap = ncap;
  return 0;
}

uint32_t rt_depot_put(const rt_trace *t) {
  uint64_t h = hash_trace(t);
  uint32_t id = 0;
  pthread_mutex_lock(&lock);
  if ((ntraces + 1) * 2 >= icap && grow_index() < 0) goto out;
  uint32_t j = (uint32_t)h & (icap - 1);
  for (; index_[j].hash; j = (j + 1) & (icap - 1)) {
    const rt_trace *o = &traces[index_[j].id - 1];
    if (index_[j].hash == h && o->n == t->n && !memcmp(o->pc, t->pc, (size_t)t->n * sizeof t->pc[0])) {
      id = index_[j].id;
      goto out;
    }
  }
  if (ntraces == tcap) {
    uint32_t ncap = tcap ? tcap * 2 : 256;
    rt_trace *n = realloc(traces, ncap * sizeof *n);
    if (!n) goto out;
    traces = n;
    tcap = ncap;
  }
  traces[ntraces] = *t;
  id = ++ntraces;
  index_[j] = (entry){h, id};
out:
  pthread_mutex_unlock(&lock);
  return id;
}

const rt_trace *rt_depot_get(uint32_t id) {
  pthread_mutex_lock(&lock);
  const rt_trace *t = id && id <= ntraces ? &traces[id - 1] : NULL;
  pthread_mutex_unlock(&lock);
  return t;
}

static alloc *slot_for(uint64_t base, int create) {
  if (create && (nallocs + 1) * 2 >= acap) {
    uint64_t ncap = acap ? acap * 2 : 1024;
    alloc *n = calloc(ncap, sizeof *n);
    if (!n) return NULL;
    for (uint64_t i = 0; i < acap; i++)
      if (allocs[i].base) {
        uint64_t j = (allocs[i].base >> 8) & (ncap - 1);
        while (n[j].base) j = (j + 1) & (ncap - 1);
        n[j] = allocs[i];
      }
    free(allocs);
    allocs = n;
    acap = ncap;
  }
  if (!acap) return NULL;
  uint64_t j = (base >> 8) & (acap - 1);
  for (; allocs[j].base; j = (j + 1) & (acap - 1))
    if (allocs[j].base == base) return &allocs[j];
  if (!create) return NULL;
  allocs[j].base = base;
  nallocs++;
  return &allocs[j];
}

void rt_depot_note_alloc(uint64_t base, uint32_t stack) {
  pthread_mutex_lock(&lock);
  alloc *a = slot_for(base, 1);
  if (a) {
    a->alloc = stack;
    a->freed = 0;
  }
  pthread_mutex_unlock(&lock);
}

void rt_depot_note_free(uint64_t base, uint32_t stack) {
  pthread_mutex_lock(&lock);
  alloc *a = slot_for(base, 1);
  if (a) a->freed = stack;
  pthread_mutex_unlock(&lock);
}

void rt_depot_lookup(uint64_t base, uint32_t *alloc_stack, uint32_t *free_stack) {
  pthread_mutex_lock(&lock);
  alloc *a = slot_for(base, 0);
  *alloc_stack = a ? a->alloc : 0;
  *free_stack = a ? a->freed : 0;
  pthread_mutex_unlock(&lock);
}
