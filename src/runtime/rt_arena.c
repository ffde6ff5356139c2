/* The arena allocator (rt_arena.h). Host-side bookkeeping lives in sparse
 * tables that grow page by page, because the class regions are huge (512 GiB
 * each by default) and only their used parts may cost memory. One lock per
 * class: allocations of different sizes never contend.
 *
 * Freed slots: rt_arena_free unmaps the slot's memory (a large slot's own
 * granules, a small slot's share of its granule) at once, so that code gsan
 * did not instrument faults on a stale pointer. A retired slot
 * (rt_arena_retire), once released, is held when there is a quarantine: its
 * memory stays mapped, its table entry says freed, and it joins its class's
 * queue; an allocation takes the
 * oldest queued slot of its class once the held bytes reach half the
 * quarantine (a large slot only for a size of as many granules), and a free
 * that takes them past the quarantine unmaps its class's oldest. A retired
 * slot is held too, out of the queue, until released.
 * Held bytes are counted arena-wide (an atomic); each class's queue, count
 * and slots are under the class's lock, and no function takes two class
 * locks. */
#include "rt_arena.h"

#include <gsan/abi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define MAX_CLASSES 48
#define CUDA_ERROR_OUT_OF_MEMORY 2

/* ---- a sparse array: fixed-size elements in pages allocated on first use ---- */
#define SPARSE_PAGE 4096

typedef struct sparse {
  size_t elem;
  uint64_t npages;
  void **pages;
} sparse;

static int sparse_init(sparse *s, size_t elem, uint64_t count) {
  s->elem = elem;
  s->npages = (count + SPARSE_PAGE - 1) / SPARSE_PAGE;
  s->pages = calloc(s->npages ? s->npages : 1, sizeof *s->pages);
  if (!s->pages) s->npages = 0;
  return s->pages ? 0 : -1;
}

/* NULL when the page is absent and create is 0, or memory is short */
static void *sparse_at(sparse *s, uint64_t i, int create) {
  uint64_t p = i / SPARSE_PAGE;
  if (p >= s->npages) return NULL;
  if (!s->pages[p]) {
    if (!create) return NULL;
    s->pages[p] = calloc(SPARSE_PAGE, s->elem);
    if (!s->pages[p]) return NULL;
  }
  return (char *)s->pages[p] + (i % SPARSE_PAGE) * s->elem;
}

static void sparse_free(sparse *s) {
  for (uint64_t p = 0; p < s->npages; p++) free(s->pages[p]);
  free(s->pages);
  s->pages = NULL;
}

/* ---- state ---- */
typedef struct slot_meta {
  uint64_t size;
  uint64_t handle;  /* large classes: the allocation's own physical memory */
  uint64_t seq;
  uint8_t state;
  uint8_t kept; /* rt_arena_keep */
  uint8_t held; /* a freed slot whose memory is still mapped: HELD_* */
} slot_meta;

enum { HELD_NO = 0, HELD_QUEUED = 1, HELD_RETIRED = 2 };

typedef struct granule_meta {
  uint64_t handle;  /* 0 = not backed */
  uint32_t live;    /* live slots in this granule (small classes) */
} granule_meta;

#define RT_SPARE_GRANULES 4
/* large classes keep physical memory of at most this size, two of them:
 * 2-4 MiB allocations (the classes of 2 and 4 MiB) then skip creating
 * memory the driver would create for cudaMalloc as well; fixed memory stays
 * at most 16 MiB */
#define RT_SPARE_LARGE_BYTES (4ull << 20)
#define RT_SPARE_LARGE 2

typedef struct rt_class {
  pthread_mutex_t lock;
  unsigned shift;         /* log2 of the slot size */
  uint64_t nslots, next, live;
  sparse slots;           /* slot_meta per slot */
  sparse data;            /* granule_meta per data granule (small classes) */
  sparse table;           /* uint64_t handle per slot-table granule */
  /* physical memory a class emptied (a small class's granules, a large
   * slot's own memory), kept to back its next new granule or slot: slots are
   * not reused, but the memory can be mapped again elsewhere, which saves
   * creating and releasing it; freed slots stay unmapped */
  uint64_t spare[RT_SPARE_GRANULES], spare_bytes[RT_SPARE_GRANULES];
  unsigned nspare;
  /* the quarantine's queue of held slots, oldest at qhead (a ring of qcap),
   * and how many slots are held, queued or retired */
  uint64_t *q, qcap, qhead, qlen, nheld;
} rt_class;

struct rt_arena {
  rt_vmm vmm;
  rt_arena_params p;
  uint64_t base, size;          /* the data's regions */
  uint64_t resv;                /* their reservation: one more region below and above (rt_arena.h) */
  uint64_t tables, tables_size; /* slot-table reservation */
  unsigned table_shift;
  unsigned ninit;                /* classes whose state is initialised */
  atomic_int last_error;
  atomic_uint_fast64_t seq, allocs, frees, live_allocs, live_bytes, mapped_data, mapped_table, held, reused, maps;
  atomic_uint_fast64_t peak_live_allocs, peak_live_bytes, peak_mapped_data;
  rt_class cls[MAX_CLASSES];
};

/* *peak = max(*peak, v), for the high-water marks of the stats */
static void raise_peak(atomic_uint_fast64_t *peak, uint64_t v) {
  uint_fast64_t old = atomic_load(peak);
  while (old < v && !atomic_compare_exchange_weak(peak, &old, v)) {
  }
}

const char *rt_status_name(rt_status s) {
  static const char *const names[] = {"ok", "out of memory", "invalid value", "not an arena pointer",
                                      "double free", "invalid free", "VMM error", "kept"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

rt_arena_params rt_arena_default_params(int device) {
  /* 16 TiB of regions a device, 1 TiB apart: room for the region reserved
   * below and above each (rt_arena_guard) */
  rt_arena_params p = {0x100000000000ull * (uint64_t)(device + 1) + 0x10000000000ull * (uint64_t)device, 39, 8, 32,
                       device, 0, 0};
  return p;
}

int rt_arena_holds(const rt_arena *a, uint64_t ptr) { return a && ptr - a->base < a->size; }

/* the reservation's size: the arena and a region below and above it */
static uint64_t resv_size(const rt_arena *a) { return a->size + 2 * (1ull << a->p.region_shift); }

int rt_arena_guard(const rt_arena *a, uint64_t ptr) {
  return a && !rt_arena_holds(a, ptr) && ptr - a->resv < resv_size(a);
}

static uint64_t seed_from_os(void) {
  uint64_t s;
  if (getrandom(&s, sizeof s, 0) == (ssize_t)sizeof s) return s;
  return (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
}

static uint64_t mix(uint64_t x) { /* splitmix64 */
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static rt_status vmm_fail(rt_arena *a, int err) {
  atomic_store(&a->last_error, err);
  return err == CUDA_ERROR_OUT_OF_MEMORY ? RT_OUT_OF_MEMORY : RT_VMM_ERROR;
}

void rt_arena_destroy(rt_arena *a) {
  if (!a) return;
  uint64_t g = a->vmm.granule;
  for (unsigned k = 0; k < a->ninit; k++) {
    rt_class *c = &a->cls[k];
    uint64_t region = a->base + ((uint64_t)k << a->p.region_shift);
    /* large classes own one handle per live slot; small ones one per granule */
    for (uint64_t pg = 0; pg < c->slots.npages; pg++) {
      slot_meta *m = c->slots.pages[pg];
      for (uint64_t i = 0; m && i < SPARSE_PAGE; i++)
        if (m[i].handle) {
          uint64_t addr = region + ((pg * SPARSE_PAGE + i) << c->shift);
          a->vmm.unmap(a->vmm.ctx, addr, (m[i].size + g - 1) / g * g);
          a->vmm.release(a->vmm.ctx, m[i].handle);
        }
    }
    for (uint64_t pg = 0; pg < c->data.npages; pg++) {
      granule_meta *m = c->data.pages[pg];
      for (uint64_t i = 0; m && i < SPARSE_PAGE; i++)
        if (m[i].handle) {
          a->vmm.unmap(a->vmm.ctx, region + (pg * SPARSE_PAGE + i) * g, g);
          a->vmm.release(a->vmm.ctx, m[i].handle);
        }
    }
    for (unsigned i = 0; i < c->nspare; i++) a->vmm.release(a->vmm.ctx, c->spare[i]);
    for (uint64_t pg = 0; pg < c->table.npages; pg++) {
      uint64_t *h = c->table.pages[pg];
      for (uint64_t i = 0; h && i < SPARSE_PAGE; i++)
        if (h[i]) {
          a->vmm.unmap(a->vmm.ctx, a->tables + ((uint64_t)k << a->table_shift) + (pg * SPARSE_PAGE + i) * g, g);
          a->vmm.release(a->vmm.ctx, h[i]);
        }
    }
    free(c->q);
    sparse_free(&c->slots);
    sparse_free(&c->data);
    sparse_free(&c->table);
    pthread_mutex_destroy(&c->lock);
  }
  if (a->tables) a->vmm.unreserve(a->vmm.ctx, a->tables, a->tables_size);
  if (a->resv) a->vmm.unreserve(a->vmm.ctx, a->resv, resv_size(a));
  free(a);
}

rt_status rt_arena_create(const rt_vmm *vmm, const rt_arena_params *p, rt_arena **out) {
  *out = NULL;
  if (!p->classes || p->classes > MAX_CLASSES || p->min_shift + p->classes - 1 > p->region_shift ||
      p->region_shift >= 48 || !vmm->granule || (vmm->granule & (vmm->granule - 1)))
    return RT_INVALID_VALUE;
  rt_arena *a = calloc(1, sizeof *a);
  if (!a) return RT_OUT_OF_MEMORY;
  a->vmm = *vmm;
  a->p = *p;
  a->size = (uint64_t)p->classes << p->region_shift;
  /* each class's table starts on a granule, so its pages can be mapped */
  a->table_shift = p->region_shift - p->min_shift + 3;
  while ((1ull << a->table_shift) < vmm->granule) a->table_shift++;
  a->tables_size = (uint64_t)p->classes << a->table_shift;
  uint64_t region = 1ull << p->region_shift;
  int err;
  /* the base must be aligned to a region: slot bases then follow from masks;
   * the regions below and above are reserved and never mapped, so that an
   * address that runs off either end of the arena is known to be no memory */
  if ((err = vmm->reserve(vmm->ctx, resv_size(a), region, p->hint ? p->hint - region : 0, &a->resv)) != 0) {
    rt_status s = vmm_fail(a, err);
    rt_arena_destroy(a);
    return s;
  }
  a->base = a->resv + region;
  if (a->base & (region - 1)) {
    rt_arena_destroy(a);
    return RT_VMM_ERROR;
  }
  if ((err = vmm->reserve(vmm->ctx, a->tables_size, vmm->granule, 0, &a->tables)) != 0) {
    rt_status s = vmm_fail(a, err);
    rt_arena_destroy(a);
    return s;
  }
  uint64_t seed = p->seed ? p->seed : seed_from_os();
  for (unsigned k = 0; k < p->classes; k++) {
    rt_class *c = &a->cls[k];
    c->shift = p->min_shift + k;
    c->nslots = 1ull << (p->region_shift - c->shift);
    /* a random start in the first half: a pointer kept from an earlier run of
     * the same program does not land on the same slot */
    c->next = c->nslots > 1 ? mix(seed + k) % (c->nslots / 2) : 0;
    pthread_mutex_init(&c->lock, NULL);
    a->ninit = k + 1;
    uint64_t granules = c->shift < 63 && (1ull << c->shift) < vmm->granule ? region / vmm->granule : 0;
    uint64_t table_granules = ((c->nslots * 8) + vmm->granule - 1) / vmm->granule;
    if (sparse_init(&c->slots, sizeof(slot_meta), c->nslots) || sparse_init(&c->data, sizeof(granule_meta), granules) ||
        sparse_init(&c->table, sizeof(uint64_t), table_granules)) {
      rt_arena_destroy(a);
      return RT_OUT_OF_MEMORY;
    }
  }
  *out = a;
  return RT_OK;
}

/* The smallest class whose slots are larger than size: a pointer one past
 * the end (a loop's end, an `end` argument) must stay in its allocation's
 * slot, or the lookup from it would find the next slot's bounds and a
 * correct end[-1] would fail its check. Exact powers of two thus take the
 * next class: twice the memory below a granule, only address space above. */
static unsigned class_of_size(const rt_arena *a, uint64_t size) {
  unsigned s = a->p.min_shift;
  while (s < 64 && (1ull << s) <= size) s++;
  return s - a->p.min_shift;
}

/* Backs the slot-table granule that holds slot s of class k (zeroed). */
static rt_status ensure_table(rt_arena *a, unsigned k, uint64_t s) {
  uint64_t g = a->vmm.granule, gi = s * 8 / g;
  uint64_t *h = sparse_at(&a->cls[k].table, gi, 1);
  if (!h) return RT_OUT_OF_MEMORY;
  if (*h) return RT_OK;
  uint64_t addr = a->tables + ((uint64_t)k << a->table_shift) + gi * g, handle;
  int err = a->vmm.create(a->vmm.ctx, g, a->p.device, &handle);
  if (err) return vmm_fail(a, err);
  if ((err = a->vmm.map(a->vmm.ctx, addr, g, handle, a->p.device)) != 0) {
    a->vmm.release(a->vmm.ctx, handle);
    return vmm_fail(a, err);
  }
  if ((err = a->vmm.zero(a->vmm.ctx, addr, g)) != 0) {
    a->vmm.unmap(a->vmm.ctx, addr, g);
    a->vmm.release(a->vmm.ctx, handle);
    return vmm_fail(a, err);
  }
  *h = handle;
  atomic_fetch_add(&a->mapped_table, g);
  return RT_OK;
}

/* a kept handle of exactly bytes, or 0 */
static uint64_t take_spare(rt_class *c, uint64_t bytes) {
  for (unsigned i = c->nspare; i-- > 0;)
    if (c->spare_bytes[i] == bytes) {
      uint64_t h = c->spare[i];
      c->spare[i] = c->spare[--c->nspare];
      c->spare_bytes[i] = c->spare_bytes[c->nspare];
      return h;
    }
  return 0;
}

/* keeps the handle (1) while there is room for it, up to max of them */
static int keep_spare(rt_class *c, uint64_t bytes, uint64_t h, unsigned max) {
  if (c->nspare >= max) return 0;
  c->spare[c->nspare] = h;
  c->spare_bytes[c->nspare++] = bytes;
  return 1;
}

/* the device address of slot s's table entry in class k */
static uint64_t entry_addr(const rt_arena *a, unsigned k, uint64_t s) {
  return a->tables + ((uint64_t)k << a->table_shift) + s * 8;
}

static rt_status write_entry(rt_arena *a, unsigned k, uint64_t s, uint64_t size) {
  int err = a->vmm.set64(a->vmm.ctx, entry_addr(a, k, s), size);
  return err ? vmm_fail(a, err) : RT_OK;
}

/* Physical memory for slot s: its own granules (large) or its shared one. */
static rt_status back_slot(rt_arena *a, unsigned k, uint64_t s, uint64_t size, slot_meta *m) {
  rt_class *c = &a->cls[k];
  uint64_t g = a->vmm.granule, region = a->base + ((uint64_t)k << a->p.region_shift);
  uint64_t addr = region + (s << c->shift), handle;
  int err;
  if ((1ull << c->shift) >= g) {
    uint64_t bytes = (size + g - 1) / g * g;
    handle = take_spare(c, bytes);
    if (!handle && (err = a->vmm.create(a->vmm.ctx, bytes, a->p.device, &handle)) != 0) return vmm_fail(a, err);
    if ((err = a->vmm.map(a->vmm.ctx, addr, bytes, handle, a->p.device)) != 0) {
      if (bytes > RT_SPARE_LARGE_BYTES || !keep_spare(c, bytes, handle, RT_SPARE_LARGE)) a->vmm.release(a->vmm.ctx, handle);
      return vmm_fail(a, err);
    }
    m->handle = handle;
    atomic_fetch_add(&a->maps, 1);
    raise_peak(&a->peak_mapped_data, atomic_fetch_add(&a->mapped_data, bytes) + bytes);
    return RT_OK;
  }
  granule_meta *gm = sparse_at(&c->data, (addr - region) / g, 1);
  if (!gm) return RT_OUT_OF_MEMORY;
  if (!gm->handle) {
    uint64_t gaddr = addr & ~(g - 1);
    handle = take_spare(c, g);
    if (!handle && (err = a->vmm.create(a->vmm.ctx, g, a->p.device, &handle)) != 0) return vmm_fail(a, err);
    if ((err = a->vmm.map(a->vmm.ctx, gaddr, g, handle, a->p.device)) != 0) {
      if (!keep_spare(c, g, handle, RT_SPARE_GRANULES)) a->vmm.release(a->vmm.ctx, handle);
      return vmm_fail(a, err);
    }
    gm->handle = handle;
    atomic_fetch_add(&a->maps, 1);
    raise_peak(&a->peak_mapped_data, atomic_fetch_add(&a->mapped_data, g) + g);
  }
  gm->live++;
  return RT_OK;
}

/* Returns slot s's physical memory when nothing live needs it any more. */
static void unback_slot(rt_arena *a, unsigned k, uint64_t s, slot_meta *m) {
  rt_class *c = &a->cls[k];
  uint64_t g = a->vmm.granule, region = a->base + ((uint64_t)k << a->p.region_shift);
  uint64_t addr = region + (s << c->shift);
  if (m->handle) {
    uint64_t bytes = (m->size + g - 1) / g * g;
    a->vmm.unmap(a->vmm.ctx, addr, bytes);
    if (bytes > RT_SPARE_LARGE_BYTES || !keep_spare(c, bytes, m->handle, RT_SPARE_LARGE))
      a->vmm.release(a->vmm.ctx, m->handle);
    m->handle = 0;
    atomic_fetch_sub(&a->mapped_data, bytes);
    return;
  }
  granule_meta *gm = sparse_at(&c->data, (addr - region) / g, 0);
  if (!gm || !gm->handle || --gm->live) return;
  /* keep the granule the next allocation will land in */
  uint64_t next_addr = region + (c->next << c->shift);
  if ((next_addr & ~(g - 1)) == (addr & ~(g - 1))) return;
  a->vmm.unmap(a->vmm.ctx, addr & ~(g - 1), g);
  if (!keep_spare(c, g, gm->handle, RT_SPARE_GRANULES)) a->vmm.release(a->vmm.ctx, gm->handle);
  gm->handle = 0;
  atomic_fetch_sub(&a->mapped_data, g);
}

/* ---- the quarantine (under the class's lock) ---- */

/* the memory a freed slot holds while it stays mapped */
static uint64_t held_bytes(const rt_arena *a, unsigned k, const slot_meta *m) {
  uint64_t g = a->vmm.granule;
  return (1ull << a->cls[k].shift) >= g ? (m->size + g - 1) / g * g : 1ull << a->cls[k].shift;
}

static int queue_push(rt_class *c, uint64_t s) {
  if (c->qlen == c->qcap) {
    uint64_t cap = c->qcap ? 2 * c->qcap : 64;
    uint64_t *q = malloc(cap * sizeof *q);
    if (!q) return -1;
    for (uint64_t i = 0; i < c->qlen; i++) q[i] = c->q[(c->qhead + i) % c->qcap];
    free(c->q);
    c->q = q;
    c->qcap = cap;
    c->qhead = 0;
  }
  c->q[(c->qhead + c->qlen++) % c->qcap] = s;
  return 0;
}

/* the queued slot i places from the oldest, out of the queue (the older
 * ones move up one place) and no longer held */
static uint64_t queue_take(rt_arena *a, unsigned k, uint64_t i, slot_meta **m) {
  rt_class *c = &a->cls[k];
  uint64_t s = c->q[(c->qhead + i) % c->qcap];
  for (; i > 0; i--) c->q[(c->qhead + i) % c->qcap] = c->q[(c->qhead + i - 1) % c->qcap];
  c->qhead = (c->qhead + 1) % c->qcap;
  c->qlen--;
  c->nheld--;
  *m = sparse_at(&c->slots, s, 0);
  (*m)->held = HELD_NO;
  atomic_fetch_sub(&a->held, held_bytes(a, k, *m));
  return s;
}

/* the class's oldest queued slot unmapped */
static void evict(rt_arena *a, unsigned k) {
  slot_meta *m;
  uint64_t s = queue_take(a, k, 0, &m);
  unback_slot(a, k, s, m);
}

/* A freed slot that nothing may still use: held in the quarantine when
 * hold says so and there is one (and room to queue it), else unmapped. */
static void settle(rt_arena *a, unsigned k, uint64_t s, slot_meta *m, int hold) {
  rt_class *c = &a->cls[k];
  if (!hold || !a->p.quarantine || queue_push(c, s) != 0) {
    unback_slot(a, k, s, m);
    return;
  }
  m->held = HELD_QUEUED;
  c->nheld++;
  atomic_fetch_add(&a->held, held_bytes(a, k, m));
  while (atomic_load(&a->held) > a->p.quarantine && c->qlen) evict(a, k);
}

/* a live slot's host state made freed, with the counts */
static void mark_freed(rt_arena *a, rt_class *c, slot_meta *m) {
  m->state = RT_SLOT_FREED;
  c->live--;
  atomic_fetch_add(&a->frees, 1);
  atomic_fetch_sub(&a->live_allocs, 1);
  atomic_fetch_sub(&a->live_bytes, m->size);
}

/* queued slots a large class looks through for one whose mapped granules
 * suit a size (sizes of a class differ by up to 2x) */
#define RT_REUSE_LOOK 16

/* For an allocation of size in class k: its oldest queued slot whose mapped
 * memory suits size (any, below a granule; as many granules, above), when
 * the quarantine is half full or the class has no other slot left (1, *s and
 * *m). When none suits a full class, its oldest is unmapped, to be taken as
 * a fresh one. */
static int reuse_queued(rt_arena *a, unsigned k, uint64_t size, uint64_t *s, slot_meta **m) {
  rt_class *c = &a->cls[k];
  if (!c->qlen) return 0;
  int full = c->live + c->nheld >= c->nslots;
  if (!full && atomic_load(&a->held) * 2 < a->p.quarantine) return 0;
  uint64_t g = a->vmm.granule, i = 0;
  if ((1ull << c->shift) >= g) {
    for (; i < c->qlen && i < RT_REUSE_LOOK; i++) {
      const slot_meta *h = sparse_at(&c->slots, c->q[(c->qhead + i) % c->qcap], 0);
      if ((size + g - 1) / g == (h->size + g - 1) / g) break;
    }
    if (i == c->qlen || i == RT_REUSE_LOOK) {
      if (full) evict(a, k);
      return 0;
    }
  }
  *s = queue_take(a, k, i, m);
  atomic_fetch_add(&a->reused, 1);
  return 1;
}

static rt_status alloc_once(rt_arena *a, uint64_t size, uint64_t *ptr) {
  unsigned k = class_of_size(a, size);
  if (k >= a->p.classes) return RT_OUT_OF_MEMORY;
  rt_class *c = &a->cls[k];
  pthread_mutex_lock(&c->lock);
  rt_status st = RT_OUT_OF_MEMORY;
  uint64_t s = c->next;
  slot_meta *m;
  /* a queued slot's memory is mapped already and its table entry there */
  int reused = reuse_queued(a, k, size, &s, &m);
  if (!reused) {
    if (c->live + c->nheld >= c->nslots) goto out;
    /* the next slot that is neither live nor held: reused only after a wrap */
    s = c->next;
    for (;;) {
      m = sparse_at(&c->slots, s, 1);
      if (!m) goto out;
      if (m->state != RT_SLOT_LIVE && m->state != RT_SLOT_DEVHEAP && m->held == HELD_NO) break;
      s = s + 1 == c->nslots ? 0 : s + 1;
    }
    if ((st = ensure_table(a, k, s)) != RT_OK) goto out;
    if ((st = back_slot(a, k, s, size, m)) != RT_OK) goto out;
  }
  if ((st = write_entry(a, k, s, size)) != RT_OK) {
    m->size = size;
    unback_slot(a, k, s, m);
    goto out;
  }
  m->size = size;
  m->state = RT_SLOT_LIVE;
  m->kept = 0;
  m->seq = atomic_fetch_add(&a->seq, 1) + 1;
  c->live++;
  if (!reused) c->next = s + 1 == c->nslots ? 0 : s + 1;
  *ptr = a->base + ((uint64_t)k << a->p.region_shift) + (s << c->shift);
  atomic_fetch_add(&a->allocs, 1);
  raise_peak(&a->peak_live_allocs, atomic_fetch_add(&a->live_allocs, 1) + 1);
  raise_peak(&a->peak_live_bytes, atomic_fetch_add(&a->live_bytes, size) + size);
out:
  pthread_mutex_unlock(&c->lock);
  return st;
}

/* every class's queued slots unmapped, one class lock at a time */
static void trim(rt_arena *a) {
  for (unsigned k = 0; k < a->ninit; k++) {
    rt_class *c = &a->cls[k];
    pthread_mutex_lock(&c->lock);
    while (c->qlen) evict(a, k);
    pthread_mutex_unlock(&c->lock);
  }
}

rt_status rt_arena_alloc(rt_arena *a, uint64_t size, uint64_t *ptr) {
  *ptr = 0;
  if (size == 0) return RT_INVALID_VALUE;
  rt_status st = alloc_once(a, size, ptr);
  /* the device's memory is short while the quarantine holds some: it goes
   * back before the allocation fails */
  if (st == RT_OUT_OF_MEMORY && atomic_load(&a->held)) {
    trim(a);
    st = alloc_once(a, size, ptr);
  }
  return st;
}

rt_status rt_arena_reserve_run(rt_arena *a, unsigned k, uint64_t n, uint64_t *first) {
  *first = 0;
  if (k >= a->p.classes || !n) return RT_INVALID_VALUE;
  rt_class *c = &a->cls[k];
  pthread_mutex_lock(&c->lock);
  rt_status st = RT_OUT_OF_MEMORY;
  uint64_t s0 = c->next;
  if (n > c->nslots - s0) goto out;
  for (uint64_t s = s0; s < s0 + n; s++) {
    slot_meta *m = sparse_at(&c->slots, s, 1);
    if (!m || m->state == RT_SLOT_LIVE || m->state == RT_SLOT_DEVHEAP || m->held != HELD_NO) goto out;
  }
  for (uint64_t s = s0; s < s0 + n; s++) {
    slot_meta *m = sparse_at(&c->slots, s, 0);
    if ((st = ensure_table(a, k, s)) != RT_OK || (st = back_slot(a, k, s, 1ull << c->shift, m)) != RT_OK) goto out;
    m->size = 1ull << c->shift;
    m->state = RT_SLOT_DEVHEAP;
    m->seq = 0;
    c->live++;
  }
  c->next = s0 + n == c->nslots ? 0 : s0 + n;
  *first = a->base + ((uint64_t)k << a->p.region_shift) + (s0 << c->shift);
out:
  pthread_mutex_unlock(&c->lock);
  return st;
}

unsigned rt_arena_class_shift(const rt_arena *a, unsigned k) { return a->cls[k].shift; }
unsigned rt_arena_classes(const rt_arena *a) { return a->p.classes; }

static int locate(const rt_arena *a, uint64_t ptr, unsigned *k, uint64_t *s) {
  if (ptr < a->base || ptr - a->base >= a->size) return 0;
  uint64_t off = ptr - a->base;
  *k = (unsigned)(off >> a->p.region_shift);
  *s = (off & ((1ull << a->p.region_shift) - 1)) >> a->cls[*k].shift;
  return 1;
}

int rt_arena_entry(const rt_arena *a, uint64_t ptr, uint64_t *base, uint64_t *entry) {
  unsigned k;
  uint64_t s;
  if (!locate(a, ptr, &k, &s)) return 0;
  *base = ptr & ~((1ull << a->cls[k].shift) - 1);
  *entry = entry_addr(a, k, s);
  return 1;
}

static void fill_info(const rt_arena *a, unsigned k, uint64_t s, const slot_meta *m, rt_alloc_info *info) {
  if (!info) return;
  info->cls = k;
  info->slot = s;
  info->slot_size = 1ull << a->cls[k].shift;
  info->base = a->base + ((uint64_t)k << a->p.region_shift) + (s << a->cls[k].shift);
  info->size = m ? m->size : 0;
  info->state = m ? m->state : RT_SLOT_NEVER;
  info->seq = m ? m->seq : 0;
  info->kept = m ? m->kept : 0;
}

/* the slot holding ptr, its class locked and its state in info; NULL (and
 * nothing locked) when ptr is outside the arena */
static rt_class *lock_slot(rt_arena *a, uint64_t ptr, unsigned *k, uint64_t *s, slot_meta **m,
                           rt_alloc_info *info) {
  if (!locate(a, ptr, k, s)) return NULL;
  rt_class *c = &a->cls[*k];
  pthread_mutex_lock(&c->lock);
  *m = sparse_at(&c->slots, *s, 0);
  fill_info(a, *k, *s, *m, info);
  return c;
}

rt_status rt_arena_find(rt_arena *a, uint64_t ptr, rt_alloc_info *info) {
  unsigned k;
  uint64_t s;
  slot_meta *m;
  rt_class *c = lock_slot(a, ptr, &k, &s, &m, info);
  if (!c) return RT_NOT_OURS;
  pthread_mutex_unlock(&c->lock);
  return RT_OK;
}

rt_status rt_arena_nearest(rt_arena *a, uint64_t addr, rt_alloc_info *info) {
  unsigned k;
  uint64_t s;
  if (!locate(a, addr, &k, &s)) return RT_NOT_OURS;
  rt_class *c = &a->cls[k];
  rt_status st = RT_NOT_OURS;
  uint64_t best = UINT64_MAX;
  pthread_mutex_lock(&c->lock);
  for (int d = -1; d <= 1; d += 2) {
    if ((d < 0 && s == 0) || (d > 0 && s + 1 >= c->nslots)) continue;
    uint64_t t = d < 0 ? s - 1 : s + 1;
    slot_meta *m = sparse_at(&c->slots, t, 0);
    if (!m || m->state != RT_SLOT_LIVE) continue;
    rt_alloc_info i;
    fill_info(a, k, t, m, &i);
    uint64_t dist = addr < i.base ? i.base - addr : addr - (i.base + i.size);
    if (dist < best) {
      best = dist;
      *info = i;
      st = RT_OK;
    }
  }
  pthread_mutex_unlock(&c->lock);
  return st;
}

int rt_arena_range_ok(rt_arena *a, uint64_t ptr, uint64_t len) {
  rt_alloc_info i;
  if (rt_arena_find(a, ptr, &i) != RT_OK || i.state != RT_SLOT_LIVE) return 0;
  uint64_t off = ptr - i.base;
  return off <= i.size && len <= i.size - off;
}

/* RT_OK when ptr is the base of slot s's live allocation; else what a free
 * of it would be */
static rt_status live_base(const rt_arena *a, unsigned k, uint64_t s, const slot_meta *m, uint64_t ptr) {
  if (!m || m->state == RT_SLOT_NEVER) return RT_INVALID_FREE;
  if (m->state == RT_SLOT_FREED) return RT_DOUBLE_FREE;
  if (m->state == RT_SLOT_DEVHEAP) return RT_INVALID_FREE; /* the device heap's, not the host's to free */
  return ptr == a->base + ((uint64_t)k << a->p.region_shift) + (s << a->cls[k].shift) ? RT_OK : RT_INVALID_FREE;
}

/* A free of ptr: with entry NULL now (its table entry written 0 first, from
 * there on every instrumented access reports; its memory unmapped), else
 * retired (held, its entry's address in *entry for the caller to write) */
static rt_status free_slot(rt_arena *a, uint64_t ptr, rt_alloc_info *info, uint64_t *entry) {
  unsigned k;
  uint64_t s;
  slot_meta *m;
  rt_class *c = lock_slot(a, ptr, &k, &s, &m, info);
  if (!c) return RT_NOT_OURS;
  rt_status st = live_base(a, k, s, m, ptr);
  if (st == RT_OK && m->kept) st = RT_KEPT;
  if (st == RT_OK && !entry && (st = write_entry(a, k, s, 0)) == RT_OK) {
    mark_freed(a, c, m);
    settle(a, k, s, m, 0);
  } else if (st == RT_OK) {
    mark_freed(a, c, m);
    m->held = HELD_RETIRED;
    c->nheld++;
    atomic_fetch_add(&a->held, held_bytes(a, k, m));
    *entry = entry_addr(a, k, s);
  }
  pthread_mutex_unlock(&c->lock);
  return st;
}

rt_status rt_arena_free(rt_arena *a, uint64_t ptr, rt_alloc_info *info) { return free_slot(a, ptr, info, NULL); }

rt_status rt_arena_retire(rt_arena *a, uint64_t ptr, rt_alloc_info *info, uint64_t *entry) {
  *entry = 0;
  return free_slot(a, ptr, info, entry);
}

rt_status rt_arena_release(rt_arena *a, uint64_t ptr) {
  unsigned k;
  uint64_t s;
  slot_meta *m;
  rt_class *c = lock_slot(a, ptr, &k, &s, &m, NULL);
  if (!c) return RT_NOT_OURS;
  rt_status st = RT_INVALID_VALUE;
  if (m && m->held == HELD_RETIRED && ptr == a->base + ((uint64_t)k << a->p.region_shift) + (s << c->shift)) {
    m->held = HELD_NO;
    c->nheld--;
    atomic_fetch_sub(&a->held, held_bytes(a, k, m));
    settle(a, k, s, m, 1);
    st = RT_OK;
  }
  pthread_mutex_unlock(&c->lock);
  return st;
}

rt_status rt_arena_keep(rt_arena *a, uint64_t ptr) {
  unsigned k;
  uint64_t s;
  slot_meta *m;
  rt_class *c = lock_slot(a, ptr, &k, &s, &m, NULL);
  if (!c) return RT_NOT_OURS;
  rt_status st = live_base(a, k, s, m, ptr);
  if (st == RT_OK) m->kept = 1;
  pthread_mutex_unlock(&c->lock);
  return st;
}

void rt_arena_foreach_live(rt_arena *a, void (*fn)(void *arg, const rt_alloc_info *info), void *arg) {
  for (unsigned k = 0; k < a->ninit; k++) {
    rt_class *c = &a->cls[k];
    pthread_mutex_lock(&c->lock);
    for (uint64_t pg = 0; pg < c->slots.npages; pg++) {
      slot_meta *m = c->slots.pages[pg];
      for (uint64_t i = 0; m && i < SPARSE_PAGE; i++)
        if (m[i].state == RT_SLOT_LIVE) {
          rt_alloc_info info;
          fill_info(a, k, pg * SPARSE_PAGE + i, &m[i], &info);
          fn(arg, &info);
        }
    }
    pthread_mutex_unlock(&c->lock);
  }
}

void rt_arena_ctx(const rt_arena *a, unsigned char ctx[GSAN_CTX_BYTES]) {
  uint64_t v64[3] = {a->base, a->size, a->tables};
  uint32_t v32[4] = {a->p.region_shift, a->p.min_shift, a->table_shift, GSAN_ABI_VERSION};
  memcpy(ctx + GSAN_CTX_ARENA_BASE, &v64[0], 8);
  memcpy(ctx + GSAN_CTX_ARENA_SIZE, &v64[1], 8);
  memcpy(ctx + GSAN_CTX_TABLE_BASE, &v64[2], 8);
  memcpy(ctx + GSAN_CTX_REGION_SHIFT, &v32[0], 4);
  memcpy(ctx + GSAN_CTX_MIN_SHIFT, &v32[1], 4);
  memcpy(ctx + GSAN_CTX_TABLE_SHIFT, &v32[2], 4);
  memcpy(ctx + GSAN_CTX_ABI, &v32[3], 4);
}

void rt_arena_get_stats(rt_arena *a, rt_arena_stats *s) {
  s->live_allocs = atomic_load(&a->live_allocs);
  s->live_bytes = atomic_load(&a->live_bytes);
  s->mapped_data_bytes = atomic_load(&a->mapped_data);
  s->held_bytes = atomic_load(&a->held);
  s->reused = atomic_load(&a->reused);
  s->data_maps = atomic_load(&a->maps);
  s->spare_data_bytes = 0;
  for (unsigned k = 0; k < a->ninit; k++) {
    pthread_mutex_lock(&a->cls[k].lock);
    for (unsigned i = 0; i < a->cls[k].nspare; i++) s->spare_data_bytes += a->cls[k].spare_bytes[i];
    pthread_mutex_unlock(&a->cls[k].lock);
  }
  s->mapped_table_bytes = atomic_load(&a->mapped_table);
  s->allocs = atomic_load(&a->allocs);
  s->frees = atomic_load(&a->frees);
  s->peak_live_allocs = atomic_load(&a->peak_live_allocs);
  s->peak_live_bytes = atomic_load(&a->peak_live_bytes);
  s->peak_mapped_data_bytes = atomic_load(&a->peak_mapped_data);
}

int rt_arena_last_error(const rt_arena *a) { return atomic_load(&a->last_error); }

uint64_t rt_arena_seq(const rt_arena *a) { return atomic_load(&((rt_arena *)a)->seq); }
