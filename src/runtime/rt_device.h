/* The devices gsan serves (docs/runtime.md "Layers"): each set up the first
 * time a context on it allocates or loads a module, forgotten when its
 * context is reset. */
#ifndef GSAN_RT_DEVICE_H
#define GSAN_RT_DEVICE_H

#include "rt_arena.h"
#include "rt_ring.h"
#include "rt_vmm_cuda.h"

#include <cuda.h>
#include <gsan/abi.h>

/* device ordinals gsan gives an arena; a device beyond is the driver's */
#define RT_MAX_DEVICES 16

/* What gsan keeps per device, set up the first time a context on it
 * allocates or loads a module: an arena at its own addresses (a pointer's
 * device follows from its address), gsan's own stream there, and a ring its
 * kernels report into (the ring's control word is that device's memory). */
typedef struct rt_dev {
  int ready, failed;
  int device;
  int arch; /* e.g. 90 */
  rt_vmm vmm;
  rt_arena *arena;
  CUstream own_stream; /* non-blocking, for gsan's own copies; 0 when none */
  CUcontext cuctx;     /* the context it was set up in (own_stream's) */
  unsigned long long ctx_id; /* its cuCtxGetId: a reset context comes back with a new one */
  rt_ring ring;
  CUdeviceptr ring_ctl;
  uint64_t unrecorded; /* records counted, not written, by contexts reset since */
  unsigned char ctx[GSAN_CTX_BYTES]; /* what each module's __gsan_ctx gets */
} rt_dev;

/* Device ordinal i's record (0 <= i < RT_MAX_DEVICES), set up or not: its
 * ready field says (read it with acquire order outside rt_gsan.lock). */
rt_dev *rt_device_at(int i);
/* The current context's device, set up the first time it is asked for;
 * NULL when there is no context or gsan cannot serve that device (its
 * allocations and modules then stay the driver's, unchecked). */
rt_dev *rt_device_here(void);
/* The set-up device whose arena holds ptr (any pointer into its
 * reservation, freed or not), or NULL. */
rt_dev *rt_device_of(uint64_t ptr);
/* 1 if ptr lies in the unmapped region below or above a ready device's arena
 * (rt_arena_guard) */
int rt_device_guard(uint64_t ptr);
/* rt_arena_find in the arena that holds ptr; RT_NOT_OURS outside them all.
 * (The report code's name for it: rt_gsan_find.) */
rt_status rt_gsan_find(uint64_t ptr, rt_alloc_info *info);
/* The same, then the driver's allocations gsan tracks (rt_foreign.h: managed
 * memory, devices without an arena): what host API calls and frees are
 * checked against. A freed one whose addresses the driver has given out
 * again, to memory gsan does not track, is forgotten, not found. */
rt_status rt_gsan_find_tracked(uint64_t ptr, rt_alloc_info *info);

/* Orders a launch on stream s after the slot-table writes queued so far on
 * every device (rt_vmm_cuda_order), once the listeners heard before_launch:
 * every launch path calls it first. 0 or a CUresult. */
int rt_device_order_launch(CUstream s);

/* device's record when it is set up (and this is no child forked after
 * set-up), or NULL */
rt_dev *rt_device_set_up(int device);
/* cuDevicePrimaryCtxReset is about to destroy d's primary context (the
 * caller took its records first: rt_drain): its allocations are gone with
 * it (forgotten, neither leaks nor live), and gsan's ring and stream there
 * are made again at the next use (rt_hooks_ctx.c). cudaDeviceReset resets
 * through the driver's internal table, past that hook: gsan then finds the
 * context's new id at its next use of the device and forgets the old one
 * the same way. Takes rt_gsan.lock. */
void rt_device_reset(rt_dev *d);
/* 1 when d's context is not the one gsan set up in any more: reset unseen,
 * not forgotten yet. A thread other than the program's (the monitor) asks
 * before it touches gsan's stream or events there, which went with the old
 * context (the driver may crash on them: it did, in cuEventRecord), and
 * leaves d alone: the program's next call forgets it. Takes no lock. */
int rt_device_replaced(const rt_dev *d);

/* What d's ring control block counted (docs/abi.md): the records a full
 * ring dropped (into d->unrecorded), and each site's failures, most of
 * which only the count holds (into rt_gsan.seen). With d's context
 * current; it must still be the one the block lives in. Under rt_gsan.lock. */
void rt_device_read_ctl(rt_dev *d);

/* fn for each allocation a reset took before the program freed it (leaks,
 * at exit); under rt_gsan.lock or with every other thread done */
void rt_device_foreach_gone(void (*fn)(void *arg, const rt_alloc_info *info), void *arg);

#endif
