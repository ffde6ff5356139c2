/* Frees in stream order (cuMemFreeAsync, cudaFreeAsync and PyTorch's
 * cudaMallocAsync backend through them): the free returns at once, as the
 * driver's does, instead of waiting for its stream. The slot is freed on
 * the host at the call (rt_arena_retire: a second free is a double free),
 * its table entry is written 0 on the free's stream (so work queued after
 * the free reports a use after free and work queued before it runs as it
 * should), and an event recorded after that write says when the stream has
 * passed the free: the slot's canary is checked and its memory given back to
 * the arena (rt_arena_release: the quarantine, or unmapped) only then. */
#ifndef GSAN_RT_RETIRE_H
#define GSAN_RT_RETIRE_H

#include "rt_events.h"

#include <cuda.h>
#include <stdint.h>

struct rt_dev;

/* d's slot at ptr, retired (its table entry at entry), freed on stream s in
 * its context (current): the entry's write and the event queued, the slot
 * released once the event has completed. A driver call that fails makes it
 * wait for s and release the slot now; the driver's error of that wait is
 * returned (a context lost after a fault), else CUDA_SUCCESS. api names the
 * call, for a report of a broken canary. */
CUresult rt_retire_ordered(struct rt_dev *d, uint64_t ptr, uint64_t entry, CUstream s, const char *api);
/* Releases the slots whose streams have passed their frees (wait: all of
 * them, waiting for each). Any thread; no lock held. */
void rt_retire_poll(int wait);

/* its listener: tick and exit poll (exit waits), forget drops a reset
 * device's frees (its events went with the context) and releases them,
 * stats prints the counts */
extern const rt_listener rt_retire_listener;

#endif
