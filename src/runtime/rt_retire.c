/* Frees in stream order (rt_retire.h). The pending frees are a queue in the
 * order made; each holds an event recorded on its stream after the entry's
 * write. A poll releases from the head while the head's event has
 * completed: frees on one stream complete in order, and a free behind a
 * slower stream's waits a little longer than it must, which only delays the
 * reuse of its memory. Events are kept per device for reuse (made in that
 * device's context; dropped with it at a reset).
 * Lock rule: q.lock guards the queue and the event lists, and is never held
 * across a driver call that may wait, a report or the arena: a poll takes
 * the completed entries out under it and releases them after. */
#include "rt_retire.h"

#include "rt_canary.h"
#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* frees pending: past this many, a free waits for its stream */
#define RT_RETIRE_MAX 8192
/* events kept for reuse, per device */
#define RT_RETIRE_EVENTS 256

typedef struct pending {
  rt_dev *d;
  uint64_t ptr;
  CUevent ev;
  const char *api;
} pending;

static struct {
  pthread_mutex_t lock;
  pending *q;
  size_t cap, head, len;
  CUevent spare[RT_MAX_DEVICES][RT_RETIRE_EVENTS];
  unsigned nspare[RT_MAX_DEVICES];
  unsigned long long ordered, waited, fallbacks;
  int any; /* len != 0, read without the lock by a poll that finds nothing */
} q = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int push(const pending *p) {
  if (q.len == q.cap) {
    size_t cap = q.cap ? 2 * q.cap : 256;
    pending *n = malloc(cap * sizeof *n);
    if (!n) return -1;
    for (size_t i = 0; i < q.len; i++) n[i] = q.q[(q.head + i) % q.cap];
    free(q.q);
    q.q = n;
    q.cap = cap;
    q.head = 0;
  }
  q.q[(q.head + q.len++) % q.cap] = *p;
  __atomic_store_n(&q.any, 1, __ATOMIC_RELAXED);
  return 0;
}

static pending pop(void) {
  pending p = q.q[q.head];
  q.head = (q.head + 1) % q.cap;
  if (!--q.len) __atomic_store_n(&q.any, 0, __ATOMIC_RELAXED);
  return p;
}

/* an event of d's context for a free (made when none is kept), or NULL */
static CUevent take_event(rt_dev *d) {
  CUevent ev = NULL;
  pthread_mutex_lock(&q.lock);
  if (q.nspare[d->device]) ev = q.spare[d->device][--q.nspare[d->device]];
  pthread_mutex_unlock(&q.lock);
  if (!ev && rt_driver.vmm.EventCreate(&ev, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) ev = NULL;
  return ev;
}

/* under q.lock: the event kept for d's next free (or left: a device
 * forgotten since, or the list full, which keeps at most what was made) */
static void keep_event(rt_dev *d, CUevent ev) {
  if (ev && d->ready && q.nspare[d->device] < RT_RETIRE_EVENTS) q.spare[d->device][q.nspare[d->device]++] = ev;
}

/* the slot given back: its canary checked, then released to the arena (in
 * its device's context: the monitor thread has none of its own) */
static void release(const pending *p) {
  rt_canary_retired(p->d, p->ptr, p->api);
  CUcontext prev;
  int pushed = p->d->cuctx && rt_driver.cu.CtxPushCurrent(p->d->cuctx) == CUDA_SUCCESS;
  rt_arena_release(p->d->arena, p->ptr);
  if (pushed) rt_driver.cu.CtxPopCurrent(&prev);
}

CUresult rt_retire_ordered(rt_dev *d, uint64_t ptr, uint64_t entry, CUstream s, const char *api) {
  rt_retire_poll(0);
  const rt_cuda_api *cu = &rt_driver.vmm;
  pending p = {d, ptr, NULL, api};
  /* the entry's write after gsan's own queued ones (an allocation's, to the
   * same entry, may still be among them), then the event after it */
  CUresult r = (CUresult)rt_vmm_cuda_order(&d->vmm, s, 0);
  if (r == CUDA_SUCCESS) r = cu->StreamWriteValue64(s, entry, 0, CU_STREAM_WRITE_VALUE_DEFAULT);
  if (r == CUDA_SUCCESS && !(p.ev = take_event(d))) r = CUDA_ERROR_OUT_OF_MEMORY;
  if (r == CUDA_SUCCESS) r = cu->EventRecord(p.ev, s);
  int queued = 0;
  pthread_mutex_lock(&q.lock);
  if (r == CUDA_SUCCESS && q.len < RT_RETIRE_MAX && push(&p) == 0) {
    queued = 1;
    q.ordered++;
  } else {
    q.fallbacks++;
    keep_event(d, p.ev);
  }
  pthread_mutex_unlock(&q.lock);
  if (queued) return CUDA_SUCCESS;
  /* no room, or the driver refused: as before stream-ordered frees, the
   * free waits for its stream (the entry's 0 written by hand after it) */
  CUresult w = cu->StreamSynchronize(s);
  if (w != CUDA_SUCCESS && rt_driver_context_lost(w)) {
    rt_arena_release(d->arena, ptr);
    return w;
  }
  d->vmm.set64(d->vmm.ctx, entry, 0);
  release(&p);
  return CUDA_SUCCESS;
}

void rt_retire_poll(int wait) {
  if (!__atomic_load_n(&q.any, __ATOMIC_RELAXED)) return;
  for (;;) {
    pthread_mutex_lock(&q.lock);
    if (!q.len) {
      pthread_mutex_unlock(&q.lock);
      return;
    }
    pending p = q.q[q.head];
    pthread_mutex_unlock(&q.lock);
    /* a context lost after a fault answers with its error: nothing of it
     * runs any more, so the free has happened as far as anything can tell */
    CUresult r = rt_driver.vmm.EventQuery(p.ev);
    if (r == CUDA_ERROR_NOT_READY && wait) {
      r = rt_driver.vmm.EventSynchronize(p.ev);
      pthread_mutex_lock(&q.lock);
      q.waited++;
      pthread_mutex_unlock(&q.lock);
    }
    if (r == CUDA_ERROR_NOT_READY) return;
    pthread_mutex_lock(&q.lock);
    /* another thread may have taken it meanwhile */
    int mine = q.len && q.q[q.head].ptr == p.ptr && q.q[q.head].ev == p.ev;
    if (mine) {
      pop();
      keep_event(p.d, r == CUDA_SUCCESS ? p.ev : NULL);
    }
    pthread_mutex_unlock(&q.lock);
    if (mine) release(&p);
  }
}

static void retire_tick(void) { rt_retire_poll(0); }

static void retire_exit(void) { rt_retire_poll(1); }

/* under rt_gsan.lock: d's context is going, with its streams and events;
 * its frees are done as far as anything can tell. The queue keeps the
 * others in order. */
static void retire_forget(const rt_dev *d) {
  size_t ngone = 0;
  pthread_mutex_lock(&q.lock);
  q.nspare[d->device] = 0;
  size_t n = q.len;
  /* without memory for the list, d's slots stay retired: mapped, unused */
  pending *gone = malloc((n ? n : 1) * sizeof *gone);
  for (size_t i = 0; i < n; i++) {
    pending p = pop();
    if (p.d != d) push(&p); /* back at the tail: the others keep their order */
    else if (gone) gone[ngone++] = p;
  }
  pthread_mutex_unlock(&q.lock);
  for (size_t i = 0; i < ngone; i++) rt_arena_release(gone[i].d->arena, gone[i].ptr);
  free(gone);
}

static void retire_stats(void) {
  pthread_mutex_lock(&q.lock);
  unsigned long long ordered = q.ordered, waited = q.waited, fallbacks = q.fallbacks;
  size_t left = q.len;
  pthread_mutex_unlock(&q.lock);
  rt_gsan_say("stream-ordered frees: %llu queued, %llu waited for, %llu made to wait for their stream, %zu pending",
              ordered, waited, fallbacks, left);
}

const rt_listener rt_retire_listener = {
    .name = "retire", .tick = retire_tick, .exit = retire_exit, .forget = retire_forget, .stats = retire_stats};
