/* The consumer side of the device-to-host ring (docs/abi.md, "The failure
 * stub and the ring buffer"). The memory is host-mapped: the device writes
 * records, the host reads them in claim order and publishes its tail so the
 * device knows which slots are free again. */
#ifndef GSAN_RT_RING_H
#define GSAN_RT_RING_H

#include <gsan/abi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rt_ring {
  unsigned char *mem;   /* header + capacity records, host-mapped */
  uint32_t capacity;    /* a power of two */
} rt_ring;

size_t rt_ring_bytes(uint32_t capacity);
/* Prepares the header of zeroed memory. */
void rt_ring_init(rt_ring *r, void *mem, uint32_t capacity);

typedef void (*rt_ring_sink)(void *arg, const gsan_record *rec);

/* Hands the records written since the last drain to sink, in claim order,
 * and frees their slots. A slot claimed but not yet written stops the drain
 * (its writer may still be running) — unless final is set: after the kernel
 * is dead (a trap), a claimed slot may never be written, so every written
 * record in the window is delivered and the holes are skipped.
 * Returns the number delivered. */
unsigned rt_ring_drain(rt_ring *r, int final, rt_ring_sink sink, void *arg);

#endif
