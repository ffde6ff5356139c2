/* What a kernel launch becomes (ABI 4 and 5, docs/runtime.md "Launch bounds"):
 * the kernel's launch-bounds copy (GSAN_LAUNCH_PREFIX + its name, in the
 * same module or library), given the kernel's own parameters and one more,
 * the gsan_launch_entry of each 8-byte parameter word, filled from the
 * launching device's arena. The copy then reads each pointer parameter's
 * bounds there instead of looking them up in every thread. Whenever
 * anything is off, the launch stays the kernel's, unchanged: a launch that
 * would have worked never fails because of this. */
#ifndef GSAN_RT_LAUNCH_H
#define GSAN_RT_LAUNCH_H

#include "rt_events.h"

#include <cuda.h>
#include <gsan/abi.h>
#include <stddef.h>

/* kernels with more parameters than this are launched as they are */
#define RT_LAUNCH_MAX_PARAMS 512

typedef struct rt_launch {
  CUfunction f; /* what to launch, with these parameters */
  void **args;
  void **extra;
  /* the copy's parameters live here (the caller's stack): the kernel's
   * pointers and the entries, or a parameter buffer that ends in them */
  void *argv[RT_LAUNCH_MAX_PARAMS + 1];
  void *ext[5];
  size_t ext_size;
  _Alignas(16) unsigned char buf[GSAN_LAUNCH_MAX_BYTES];
} rt_launch;

/* the launch's shape, for its facts (rt_proof.h) */
typedef struct rt_launch_dims {
  unsigned grid[3], block[3];
  unsigned shared;  /* dynamic shared memory bytes */
  CUstream stream;  /* as the driver will take it (CU_STREAM_PER_THREAD for the per-thread default) */
} rt_launch_dims;

/* Sets l->f, l->args and l->extra to the launch of f's copy with its
 * entries filled, or to f, args and extra themselves. The copy is f's
 * proven copy when f has one and dims (may be NULL) show that its facts
 * hold and the stream is not being captured. */
void rt_launch_prepare(rt_launch *l, CUfunction f, void **args, void **extra, const rt_launch_dims *dims);
/* The driver refused a launch of f (or of its copy, then of f too) with
 * threads threads a block for its resources: an instrumented kernel can
 * need more registers a thread than the block leaves, where the original
 * fitted. Said once per kernel, with its registers and what to do. */
void rt_launch_refused(CUfunction f, unsigned threads);
/* Forgets every copy found so far: after a module or library is unloaded
 * or a context destroyed or reset, a handle may name another function. */
void rt_launch_forget(void);
/* launches seen so far, how many of them launched a copy, and how many
 * of those the proven copy */
/* its listener: forget (rt_launch_forget, whatever the device), stats */
extern const rt_listener rt_launch_listener;
void rt_launch_counts(unsigned long long *all, unsigned long long *copies, unsigned long long *proofs);

#endif
