/* Frees in stream order (rt_retire.h). The pending frees are a queue in the
 * order made; each holds an event recorded on its stream after the entry's
 * write. A poll takes from the head while the head's event has completed:
 * frees on one stream complete in order, and a free behind a slower
 * stream's waits a little longer than it must, which only delays the reuse
 * of its memory.
 * A completed free's canary is then read back without a wait: its window is
 * gathered per device (`reads`), and a batch of them is copied on gsan's own
 * stream into a pinned buffer with one event after the copies; a poll that
 * finds that event completed compares them and only then gives the slots
 * back to the arena. Before, each free's read waited for gsan's stream
 * (about 10 us a free in a PyTorch training step). A batch goes out once
 * RT_READ_BATCH/4 windows or RT_READ_BYTES of slots are gathered, at the
 * monitor's tick, and at once when a poll waits (exit, an allocation that
 * found no memory). Memory of gathered slots is not reused meanwhile: they
 * stay retired, which a new allocation's canary writes (queued later on the
 * same stream) could not overwrite before the read anyway.
 * Events are kept per device for reuse (made in that device's context;
 * dropped with it at a reset).
 * Lock rule: q.lock guards the queue, the event lists and the gathered
 * windows, and is never held across a driver call that may wait, a report or
 * the arena: a poll takes the completed entries out under it and releases
 * them after. A device's batch in flight (fly, its buffer and event) belongs
 * to the one thread that set its `busy` under the lock, until it clears it;
 * a device's forget waits for that (q.idle) before its context goes.
 * The monitor thread's poll leaves a device whose context was reset unseen
 * (rt_device_replaced) alone: its events went with it. */
#include "rt_retire.h"

#include "rt_canary.h"
#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* frees pending: past this many, a free waits for its stream */
#define RT_RETIRE_MAX 8192
/* events kept for reuse, per device */
#define RT_RETIRE_EVENTS 256
/* canary windows read back in one batch, at most; and the bytes of slots
 * gathered past which a batch goes out at once */
#define RT_READ_BATCH 64
#define RT_READ_BYTES (64ull << 20)
/* their buffer, whole pages (aligned_alloc takes a multiple of its alignment) */
#define RT_READ_BUF ((RT_READ_BATCH * RT_CANARY_MAX_WINDOW + 4095) / 4096 * 4096)

typedef struct pending {
  rt_dev *d;
  uint64_t ptr;
  CUevent ev;
  const char *api;
  unsigned long long ctx_id; /* d's context when the free was made (its event's) */
} pending;

/* a completed free whose canary window [start, start + len) is to be read */
typedef struct reading {
  pending p;
  uint64_t start, len;
} reading;

/* a device's canary reads: gathered (wait), and a batch being read (fly) */
typedef struct dev_reads {
  reading wait[RT_READ_BATCH], fly[RT_READ_BATCH];
  unsigned nwait, nfly;
  uint64_t wait_bytes;
  int busy;     /* one thread owns fly, buf and ev */
  int flying;   /* fly's copies and ev are queued */
  int no_async; /* no pinned buffer or event here: each read waits */
  CUevent ev;
  unsigned char *buf; /* RT_READ_BATCH windows, registered with the driver */
  int registered;
} dev_reads;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t idle; /* a device's batch given back (busy cleared) */
  dev_reads rd[RT_MAX_DEVICES];
  unsigned long long reads_batched, reads_waited;
  pending *q;
  size_t cap, head, len;
  CUevent spare[RT_MAX_DEVICES][RT_RETIRE_EVENTS];
  unsigned nspare[RT_MAX_DEVICES];
  unsigned long long ordered, waited, fallbacks;
  int any; /* len != 0, read without the lock by a poll that finds nothing */
  unsigned long reading; /* windows gathered or in flight, read likewise */
} q = {.lock = PTHREAD_MUTEX_INITIALIZER, .idle = PTHREAD_COND_INITIALIZER};

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

/* under q.lock: the event, made in d's context ctx_id, kept for d's next
 * free (or left: a device forgotten since, set up again in a new context
 * maybe, or the list full, which keeps at most what was made) */
static void keep_event(rt_dev *d, CUevent ev, unsigned long long ctx_id) {
  if (ev && d->ready && d->ctx_id == ctx_id && q.nspare[d->device] < RT_RETIRE_EVENTS)
    q.spare[d->device][q.nspare[d->device]++] = ev;
}

/* the slot released to the arena (in its device's context: the monitor
 * thread has none of its own) */
static void give_back(const pending *p) {
  CUcontext prev;
  int pushed = p->d->cuctx && rt_driver.cu.CtxPushCurrent(p->d->cuctx) == CUDA_SUCCESS;
  rt_arena_release(p->d->arena, p->ptr);
  if (pushed) rt_driver.cu.CtxPopCurrent(&prev);
}

/* the slot given back: its canary checked now, waiting for the read, then
 * released */
static void release(const pending *p) {
  rt_canary_retired(p->d, p->ptr, p->api);
  give_back(p);
}

/* A free its stream has passed: released now when its canary needs no read,
 * else its window gathered for a batch (or, with no room or no pinned
 * buffer, read now, waiting). */
static void completed(const pending *p) {
  uint64_t start, len, size;
  if (!rt_canary_retired_window(p->d, p->ptr, &start, &len, &size)) {
    give_back(p);
    return;
  }
  dev_reads *r = &q.rd[p->d->device];
  pthread_mutex_lock(&q.lock);
  int gathered = !r->no_async && r->nwait < RT_READ_BATCH && len <= RT_CANARY_MAX_WINDOW;
  if (gathered) {
    r->wait[r->nwait++] = (reading){*p, start, len};
    r->wait_bytes += size;
    __atomic_add_fetch(&q.reading, 1, __ATOMIC_RELAXED);
  } else {
    q.reads_waited++;
  }
  pthread_mutex_unlock(&q.lock);
  if (!gathered) release(p);
}

/* under r->busy, in d's context: the pinned buffer and the event made once */
static int reads_ready(rt_dev *d, dev_reads *r) {
  if (!r->buf) r->buf = aligned_alloc(4096, RT_READ_BUF);
  if (r->buf && !r->registered) {
    CUresult e = rt_driver.cu.MemHostRegister(r->buf, RT_READ_BUF, CU_MEMHOSTREGISTER_PORTABLE);
    r->registered = e == CUDA_SUCCESS || e == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  if (r->registered && !r->ev && rt_driver.vmm.EventCreate(&r->ev, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
    r->ev = NULL;
  return r->registered && r->ev && d->own_stream && rt_driver.cu.MemcpyDtoHAsync;
}

/* under r->busy: fly's copies and the event after them queued on d's own
 * stream (after gsan's own queued writes); 0 when the driver refused */
static int reads_issue(rt_dev *d, dev_reads *r) {
  CUcontext prev;
  if (!d->cuctx || rt_driver.cu.CtxPushCurrent(d->cuctx) != CUDA_SUCCESS) return 0;
  int ok = reads_ready(d, r);
  CUresult e = ok ? (CUresult)rt_vmm_cuda_order(&d->vmm, d->own_stream, 0) : CUDA_ERROR_NOT_SUPPORTED;
  for (unsigned i = 0; e == CUDA_SUCCESS && i < r->nfly; i++)
    e = rt_driver.cu.MemcpyDtoHAsync(r->buf + (size_t)i * RT_CANARY_MAX_WINDOW, r->fly[i].start, r->fly[i].len,
                                     d->own_stream);
  if (e == CUDA_SUCCESS) e = rt_driver.vmm.EventRecord(r->ev, d->own_stream);
  rt_driver.cu.CtxPopCurrent(&prev);
  if (!ok) r->no_async = 1; /* from now on, each read waits */
  return e == CUDA_SUCCESS;
}

/* under r->busy: fly's reads compared (ok: the copies completed; else the
 * context is lost and they say nothing) and its slots given back */
static void reads_finish(dev_reads *r, int ok) {
  for (unsigned i = 0; i < r->nfly; i++) {
    const reading *x = &r->fly[i];
    if (ok) rt_canary_retired_read(x->p.d, x->p.ptr, r->buf + (size_t)i * RT_CANARY_MAX_WINDOW, x->start, x->len,
                                   x->p.api);
    give_back(&x->p);
  }
  __atomic_sub_fetch(&q.reading, r->nfly, __ATOMIC_RELAXED);
  r->nfly = 0;
  r->flying = 0;
}

/* Each device's reads moved on: a batch in flight finished when its event
 * has completed (wait: waiting for it), then the gathered windows sent as
 * the next batch when there are enough of them (force: any). */
static void reads_progress(int wait, int force) {
  for (int k = 0; k < RT_MAX_DEVICES; k++) {
    dev_reads *r = &q.rd[k];
    pthread_mutex_lock(&q.lock);
    int mine = !r->busy && (r->flying || r->nwait);
    if (mine) r->busy = 1;
    pthread_mutex_unlock(&q.lock);
    if (!mine) continue;
    rt_dev *d = rt_device_at(k);
    /* its context reset unseen: the batch's event and gsan's stream went
     * with it (the program's next call forgets its reads) */
    const int gone = rt_device_replaced(d); /* asked once: the loop leaves by break */
    while (!gone) {
      if (r->flying) {
        CUresult e = rt_driver.vmm.EventQuery(r->ev);
        if (e == CUDA_ERROR_NOT_READY && wait) e = rt_driver.vmm.EventSynchronize(r->ev);
        if (e == CUDA_ERROR_NOT_READY) break;
        reads_finish(r, e == CUDA_SUCCESS);
      }
      pthread_mutex_lock(&q.lock);
      int go = r->nwait && (wait || force || r->nwait >= RT_READ_BATCH / 4 || r->wait_bytes >= RT_READ_BYTES);
      if (go) {
        memcpy(r->fly, r->wait, r->nwait * sizeof r->wait[0]);
        r->nfly = r->nwait;
        r->nwait = 0;
        r->wait_bytes = 0;
        q.reads_batched += r->nfly;
      }
      pthread_mutex_unlock(&q.lock);
      if (!go) break;
      if (reads_issue(d, r)) {
        r->flying = 1;
        if (!wait) break;
        continue;
      }
      /* refused: each read of the batch waits */
      for (unsigned i = 0; i < r->nfly; i++) release(&r->fly[i].p);
      __atomic_sub_fetch(&q.reading, r->nfly, __ATOMIC_RELAXED);
      r->nfly = 0;
    }
    pthread_mutex_lock(&q.lock);
    r->busy = 0;
    pthread_cond_broadcast(&q.idle);
    pthread_mutex_unlock(&q.lock);
  }
}

CUresult rt_retire_ordered(rt_dev *d, uint64_t ptr, uint64_t entry, CUstream s, const char *api) {
  rt_retire_poll(0);
  const rt_cuda_api *cu = &rt_driver.vmm;
  pending p = {d, ptr, NULL, api, d->ctx_id};
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
    keep_event(d, p.ev, p.ctx_id);
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

/* the pending frees whose events have completed taken from the head (wait:
 * all of them, waiting for each), then the canary reads moved on (force: a
 * batch sent however few are gathered) */
static void poll(int wait, int force) {
  /* per device, asked once a poll: 1 current, 2 reset unseen */
  unsigned char ctx_state[RT_MAX_DEVICES] = {0};
  while (__atomic_load_n(&q.any, __ATOMIC_RELAXED)) {
    pthread_mutex_lock(&q.lock);
    if (!q.len) {
      pthread_mutex_unlock(&q.lock);
      break;
    }
    pending p = q.q[q.head];
    pthread_mutex_unlock(&q.lock);
    /* a context reset unseen: its event is gone, and the program's next
     * call forgets its frees (rt_device_replaced) */
    unsigned char *st = &ctx_state[p.d->device];
    if (!*st) *st = rt_device_replaced(p.d) ? 2 : 1;
    if (*st == 2) break;
    /* a context lost after a fault answers with its error: nothing of it
     * runs any more, so the free has happened as far as anything can tell */
    CUresult r = rt_driver.vmm.EventQuery(p.ev);
    if (r == CUDA_ERROR_NOT_READY && wait) {
      r = rt_driver.vmm.EventSynchronize(p.ev);
      pthread_mutex_lock(&q.lock);
      q.waited++;
      pthread_mutex_unlock(&q.lock);
    }
    if (r == CUDA_ERROR_NOT_READY) break;
    pthread_mutex_lock(&q.lock);
    /* another thread may have taken it meanwhile */
    int mine = q.len && q.q[q.head].ptr == p.ptr && q.q[q.head].ev == p.ev;
    if (mine) {
      pop();
      keep_event(p.d, r == CUDA_SUCCESS ? p.ev : NULL, p.ctx_id);
    }
    pthread_mutex_unlock(&q.lock);
    if (mine) completed(&p);
  }
  if (__atomic_load_n(&q.reading, __ATOMIC_RELAXED)) reads_progress(wait, force);
}

void rt_retire_poll(int wait) { poll(wait, wait); }

static void retire_tick(void) { poll(0, 1); }

static void retire_exit(void) { poll(1, 1); }

/* under rt_gsan.lock: d's context is going, with its streams and events;
 * its frees are done as far as anything can tell. The queue keeps the
 * others in order. */
static void retire_forget(const rt_dev *d) {
  size_t ngone = 0;
  pthread_mutex_lock(&q.lock);
  q.nspare[d->device] = 0;
  dev_reads *r = &q.rd[d->device];
  /* a batch another thread owns is waited for: the context must not go
   * while that thread is in the driver with its copies and event (at most
   * 5 s: a thread that halts the program meanwhile never gives it back;
   * then, as before, it finishes the batch, the event's error saying so) */
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 5;
  while (r->busy && pthread_cond_timedwait(&q.idle, &q.lock, &until) == 0) {
  }
  size_t n = q.len;
  /* its reads say nothing now (their copies went with the context, and so
   * did the event and the buffer's registration) */
  int fly = !r->busy;
  size_t nr = r->nwait + (fly ? r->nfly : 0);
  /* without memory for the list, d's slots stay retired: mapped, unused */
  pending *gone = malloc((n + nr ? n + nr : 1) * sizeof *gone);
  for (size_t i = 0; i < n; i++) {
    pending p = pop();
    if (p.d != d) push(&p); /* back at the tail: the others keep their order */
    else if (gone) gone[ngone++] = p;
  }
  for (unsigned i = 0; gone && i < r->nwait; i++) gone[ngone++] = r->wait[i].p;
  for (unsigned i = 0; gone && fly && i < r->nfly; i++) gone[ngone++] = r->fly[i].p;
  if (gone) {
    __atomic_sub_fetch(&q.reading, nr, __ATOMIC_RELAXED);
    r->nwait = 0;
    r->wait_bytes = 0;
    if (fly) {
      r->nfly = 0;
      r->flying = 0;
      r->ev = NULL;
      r->registered = 0;
    }
  }
  pthread_mutex_unlock(&q.lock);
  for (size_t i = 0; i < ngone; i++) rt_arena_release(gone[i].d->arena, gone[i].ptr);
  free(gone);
}

static void retire_stats(void) {
  pthread_mutex_lock(&q.lock);
  unsigned long long ordered = q.ordered, waited = q.waited, fallbacks = q.fallbacks;
  unsigned long long batched = q.reads_batched, read_waits = q.reads_waited;
  size_t left = q.len;
  pthread_mutex_unlock(&q.lock);
  rt_gsan_say("stream-ordered frees: %llu queued, %llu waited for, %llu made to wait for their stream, %zu pending; "
              "canaries read back: %llu in batches, %llu waiting",
              ordered, waited, fallbacks, left, batched, read_waits);
}

const rt_listener rt_retire_listener = {
    .name = "retire", .tick = retire_tick, .exit = retire_exit, .forget = retire_forget, .stats = retire_stats};
