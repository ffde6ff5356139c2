/* The device heap's runtime side (rt_heap.h). Per device: a run of arena
 * slots per size class (class k of slot size 2^c gets limit >> c slots, for
 * each c with 2^c <= limit), the runs' descriptor and the blocks' state words
 * in device memory, and the blocks' descriptions in host-mapped memory; the
 * descriptor's address goes to the ring control block (GSAN_RING_CTL_HEAP),
 * where the device wrappers find it. */
#include "rt_heap.h"

#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_tables.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* the driver's default malloc heap, when the limit cannot be asked */
#define DEFAULT_LIMIT (8ull << 20)

typedef struct rt_heap {
  uint64_t limit;
  CUdeviceptr desc, states;
  gsan_heap_block *meta; /* host side of the host-mapped descriptions */
  uint64_t first[GSAN_HEAP_CLASSES], block0[GSAN_HEAP_CLASSES];
  uint32_t count[GSAN_HEAP_CLASSES];
  unsigned shift[GSAN_HEAP_CLASSES];
  struct rt_heap *older; /* replaced by a new limit, or its context reset */
} rt_heap;

static atomic_int wanted;
static int failed[RT_MAX_DEVICES];
static rt_heap *heaps[RT_MAX_DEVICES]; /* the current one of each device, older ones chained */
static rt_heap *gone;                  /* heaps of contexts reset since */

void rt_heap_note_tables(rt_site_table *const *t, int n) {
  for (int i = 0; i < n; i++) {
    rt_site s;
    for (unsigned k = 0; k < rt_sites_count(t[i]); k++)
      if (rt_sites_get(t[i], k, &s) == 0 && s.kind == GSAN_ACCESS_MALLOC) {
        atomic_store(&wanted, 1);
        return;
      }
  }
}

static uint64_t limit_now(void) {
  static CUresult (*get)(size_t *, CUlimit);
  if (!get) *(void **)&get = rt_driver_real("cuCtxGetLimit");
  size_t v = 0;
  return get && get(&v, CU_LIMIT_MALLOC_HEAP_SIZE) == CUDA_SUCCESS && v ? v : DEFAULT_LIMIT;
}

/* n bytes to device memory at dst: on gsan's own non-blocking stream when
 * there is one (as module contexts are filled: the first launch of a kernel
 * that calls malloc may be captured into a graph, and a copy on the legacy
 * stream would end the capture) */
static CUresult put(const rt_dev *d, CUdeviceptr dst, const void *src, size_t n) {
  if (!d->own_stream || !rt_driver.cu.MemcpyHtoDAsync) return rt_driver.cu.MemcpyHtoD(dst, src, n);
  CUresult r = rt_driver.cu.MemcpyHtoDAsync(dst, src, n, d->own_stream);
  return r != CUDA_SUCCESS ? r : rt_driver.cu.StreamSynchronize(d->own_stream);
}

/* Under rt_gsan.lock, in d's context. NULL when memory is short. */
static rt_heap *build(rt_dev *d, uint64_t limit) {
  rt_heap *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->limit = limit;
  uint64_t total = 0;
  unsigned nk = rt_arena_classes(d->arena) < GSAN_HEAP_CLASSES ? rt_arena_classes(d->arena) : GSAN_HEAP_CLASSES;
  for (unsigned k = 0; k < nk; k++) {
    unsigned c = rt_arena_class_shift(d->arena, k);
    if ((1ull << c) > limit) break;
    /* a class without a run sends its blocks up a class */
    if (rt_arena_reserve_run(d->arena, k, limit >> c, &h->first[k]) != RT_OK) continue;
    h->count[k] = (uint32_t)(limit >> c);
    h->shift[k] = c;
    h->block0[k] = total;
    total += h->count[k];
  }
  size_t mbytes = (total * sizeof(gsan_heap_block) + 4095) & ~(size_t)4095;
  CUdeviceptr meta_dev;
  gsan_heap_run runs[GSAN_HEAP_CLASSES];
  if (!total || posix_memalign((void **)&h->meta, 4096, mbytes) != 0) {
    h->meta = NULL;
    goto fail;
  }
  memset(h->meta, 0, mbytes);
  if (rt_driver.cu.MemHostRegister(h->meta, mbytes, CU_MEMHOSTREGISTER_DEVICEMAP) != CUDA_SUCCESS) goto fail;
  /* the state words start as zeros: the host pages of the descriptions are */
  if (rt_driver.cu.MemHostGetDevicePointer(&meta_dev, h->meta, 0) != CUDA_SUCCESS ||
      rt_driver.cu.MemAlloc(&h->states, total * 4) != CUDA_SUCCESS || put(d, h->states, h->meta, total * 4) != CUDA_SUCCESS ||
      rt_driver.cu.MemAlloc(&h->desc, sizeof runs) != CUDA_SUCCESS)
    goto unregister;
  memset(runs, 0, sizeof runs);
  for (unsigned k = 0; k < GSAN_HEAP_CLASSES; k++)
    if (h->count[k])
      runs[k] = (gsan_heap_run){h->first[k], meta_dev + h->block0[k] * sizeof(gsan_heap_block),
                                h->states + h->block0[k] * 4, h->count[k], 0};
  if (put(d, h->desc, runs, sizeof runs) != CUDA_SUCCESS || put(d, d->ring_ctl + GSAN_RING_CTL_HEAP, &h->desc, 8) != CUDA_SUCCESS)
    goto unregister;
  return h;
unregister:
  rt_driver.cu.MemHostUnregister(h->meta);
fail:
  /* the runs' slots stay set aside: address space only */
  if (h->states) rt_driver.cu.MemFree(h->states);
  if (h->desc) rt_driver.cu.MemFree(h->desc);
  free(h->meta);
  free(h);
  return NULL;
}

/* Under rt_gsan.lock: d's heap of limit bytes, replacing the one it had */
static void set_up(rt_dev *d, uint64_t limit) {
  int dev = d->device;
  rt_heap *h = build(d, limit);
  if (!h) {
    failed[dev] = 1;
    rt_gsan_say("cannot set up the device heap on device %d (%llu bytes a class); in-kernel malloc is not checked",
                dev, (unsigned long long)limit);
    return;
  }
  h->older = heaps[dev];
  heaps[dev] = h;
  if (rt_gsan.flags.verbosity)
    rt_gsan_say("device heap ready on device %d: %llu bytes a size class", dev, (unsigned long long)limit);
}

void rt_heap_before_launch(void) {
  if (!atomic_load(&wanted)) return;
  rt_dev *d = rt_device_here();
  if (!d || __atomic_load_n(&heaps[d->device], __ATOMIC_ACQUIRE) || failed[d->device]) return;
  pthread_mutex_lock(&rt_gsan.lock);
  if (d->ready && !heaps[d->device] && !failed[d->device]) {
    /* relaxed: gsan's own calls must not end a capture this launch is in */
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    rt_driver_capture_swap(&mode);
    set_up(d, limit_now());
    rt_driver_capture_swap(&mode);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* 1 when some kernel has taken a block from h (its runs' claim counters) */
static int used(const rt_heap *h) {
  gsan_heap_run runs[GSAN_HEAP_CLASSES];
  if (rt_driver.cu.MemcpyDtoH(runs, h->desc, sizeof runs) != CUDA_SUCCESS) return 1;
  for (unsigned k = 0; k < GSAN_HEAP_CLASSES; k++)
    if (runs[k].next) return 1;
  return 0;
}

void rt_heap_limit_set(size_t bytes) {
  rt_dev *d = rt_device_here();
  if (!d) return;
  pthread_mutex_lock(&rt_gsan.lock);
  rt_heap *h = heaps[d->device];
  /* once blocks exist the heap stays: their frees must find them in the
   * runs the device is pointed at */
  if (d->ready && h && h->limit != bytes && bytes) {
    if (!used(h)) set_up(d, bytes);
    else if (rt_gsan.flags.verbosity)
      rt_gsan_say("device heap on device %d in use: the new limit (%zu bytes) is not applied", d->device, bytes);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
}

void rt_heap_forget(const rt_dev *d) {
  rt_heap *h = heaps[d->device];
  if (!h) return;
  rt_heap *last = h;
  while (last->older) last = last->older;
  last->older = gone;
  gone = h;
  heaps[d->device] = NULL;
}

/* the heap block whose slot holds p, its base in *base; NULL if none */
static const gsan_heap_block *find_block(uint64_t p, uint64_t *base) {
  for (int dev = -1; dev < RT_MAX_DEVICES; dev++)
    for (rt_heap *h = dev < 0 ? gone : heaps[dev]; h; h = h->older)
      for (unsigned k = 0; k < GSAN_HEAP_CLASSES; k++) {
        uint64_t i = (p - h->first[k]) >> h->shift[k];
        if (!h->count[k] || p < h->first[k] || i >= h->count[k]) continue;
        *base = h->first[k] + (i << h->shift[k]);
        return &h->meta[h->block0[k] + i];
      }
  return NULL;
}

/* a block's origin, from its host-mapped description */
static void origin_of(const gsan_heap_block *b, rt_dev_origin *o, rt_site *osite) {
  const rt_site_table *t = rt_tables_get(b->module_id);
  o->site = t && rt_sites_get(t, b->site, osite) == 0 ? osite : NULL;
  memcpy(o->tid, b->tid, sizeof o->tid);
  memcpy(o->ctaid, b->ctaid, sizeof o->ctaid);
}

int rt_heap_explain(const rt_site *s, const gsan_record *rec, rt_region *reg, rt_dev_origin *origin, rt_site *osite,
                    int *state) {
  int is_free = s->kind == GSAN_ACCESS_FREE;
  uint64_t base;
  const gsan_heap_block *b = find_block(is_free ? rec->addr : rec->base, &base);
  if (!b && !is_free) return 0;
  *state = RT_SLOT_DEVHEAP;
  reg->base = is_free ? rec->addr : rec->base;
  reg->size = 0;
  uint32_t st = b ? __atomic_load_n(&b->state, __ATOMIC_ACQUIRE) : GSAN_HEAP_NEVER;
  if (st == GSAN_HEAP_NEVER) { /* a slot of the heap no malloc has returned */
    if (!is_free) *state = RT_SLOT_NEVER;
    return 1;
  }
  reg->base = base;
  reg->size = b->size;
  origin_of(b, origin, osite);
  reg->dev_allocated = origin;
  return 1;
}

void rt_heap_foreach_live(void (*fn)(void *arg, const rt_leak *l), void *arg) {
  for (int dev = -1; dev < RT_MAX_DEVICES; dev++)
    for (rt_heap *h = dev < 0 ? gone : heaps[dev]; h; h = h->older)
      for (unsigned k = 0; k < GSAN_HEAP_CLASSES; k++)
        for (uint32_t i = 0; i < h->count[k]; i++) {
          const gsan_heap_block *b = &h->meta[h->block0[k] + i];
          if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != GSAN_HEAP_LIVE) continue;
          rt_dev_origin o;
          rt_site site;
          origin_of(b, &o, &site);
          rt_leak l = {h->first[k] + ((uint64_t)i << h->shift[k]), b->size, NULL, &o};
          fn(arg, &l);
        }
}

const rt_listener rt_heap_listener = {.name = "heap",
                                      .tables = rt_heap_note_tables,
                                      .before_launch = rt_heap_before_launch,
                                      .forget = rt_heap_forget,
                                      .leaks = rt_heap_foreach_live};
