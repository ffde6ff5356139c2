/* Draining the ring (rt_ring.h). The device publishes a record by writing its
 * seq field last (after membar.sys); the host reads seq with acquire order
 * before the rest, and publishes its tail with release order so that a slot
 * is reused only after its record was copied out. */
#include "rt_ring.h"

#include <stdatomic.h>
#include <string.h>

size_t rt_ring_bytes(uint32_t capacity) { return GSAN_RING_HEADER_BYTES + (size_t)capacity * GSAN_RECORD_BYTES; }

static _Atomic uint32_t *field(rt_ring *r, size_t off) { return (_Atomic uint32_t *)(void *)(r->mem + off); }

void rt_ring_init(rt_ring *r, void *mem, uint32_t capacity) {
  r->mem = mem;
  r->capacity = capacity;
  atomic_store_explicit(field(r, GSAN_RING_CAPACITY), capacity, memory_order_relaxed);
  atomic_store_explicit(field(r, GSAN_RING_TAIL), 0, memory_order_release);
}

static unsigned char *slot(rt_ring *r, uint32_t idx) {
  return r->mem + GSAN_RING_HEADER_BYTES + (size_t)(idx & (r->capacity - 1)) * GSAN_RECORD_BYTES;
}

/* the record in slot idx if its writer finished writing claim idx */
static int take(rt_ring *r, uint32_t idx, gsan_record *out) {
  unsigned char *p = slot(r, idx);
  uint32_t seq = atomic_load_explicit((_Atomic uint32_t *)(void *)p, memory_order_acquire);
  if (seq != idx + 1) return 0;
  memcpy(out, p, sizeof *out);
  return 1;
}

unsigned rt_ring_drain(rt_ring *r, int final, rt_ring_sink sink, void *arg) {
  uint32_t tail = atomic_load_explicit(field(r, GSAN_RING_TAIL), memory_order_relaxed);
  unsigned n = 0;
  gsan_record rec;
  if (!final) {
    while (take(r, tail, &rec)) {
      sink(arg, &rec);
      n++;
      tail++;
      atomic_store_explicit(field(r, GSAN_RING_TAIL), tail, memory_order_release);
    }
    return n;
  }
  /* after the device is gone: the whole window, holes skipped; the last
   * claim that was written ends it */
  uint32_t end = tail;
  for (uint32_t i = 0; i < r->capacity; i++)
    if (take(r, tail + i, &rec)) end = tail + i + 1;
  for (uint32_t idx = tail; idx != end; idx++)
    if (take(r, idx, &rec)) {
      sink(arg, &rec);
      n++;
    }
  atomic_store_explicit(field(r, GSAN_RING_TAIL), end, memory_order_release);
  return n;
}
