/* libgsan's one context and what its hook files share. Everything the
 * interposed calls share lives in `rt_gsan` (defined in rt_gsan.c); each
 * rt_hooks_*.c file holds the wrappers of one family of driver calls and
 * lists them in its hook table, which rt_hooks.c hands to the interposer. */
#ifndef GSAN_RT_GSAN_H
#define GSAN_RT_GSAN_H

#include "rt_arena.h"
#include "rt_flags.h"
#include "rt_report.h"
#include "rt_ring.h"
#include "rt_seen.h"
#include "rt_stack.h"
#include "rt_suppress.h"
#include "rt_vmm_cuda.h"

#include <cuda.h>
#include <gsan/abi.h>
#include <pthread.h>

#define RT_MAX_TABLES 1024
/* device ordinals gsan gives an arena; a device beyond is the driver's */
#define RT_MAX_DEVICES 16

typedef CUresult (*rt_get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

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

typedef struct rt_gsan_ctx {
  pthread_mutex_t lock; /* reports, the site tables, set-up */
  rt_get_proc_fn get_proc;
  rt_flags flags;
  int ready; /* some device is set up: the monitor runs, exit checks */
  struct { /* the driver's functions gsan itself calls */
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*LibraryGetGlobal)(CUdeviceptr *, size_t *, CUlibrary, const char *);
    CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*CtxSynchronize)(void);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*ThreadExchangeStreamCaptureMode)(CUstreamCaptureMode *);
    CUresult (*CtxGetDevice)(CUdevice *);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*MemHostRegister)(void *, size_t, unsigned);
    CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemHostUnregister)(void *);
    CUresult (*CtxGetId)(CUcontext, unsigned long long *);
    CUresult (*CtxGetCurrent)(CUcontext *);
    CUresult (*CtxPushCurrent)(CUcontext);
    CUresult (*CtxPopCurrent)(CUcontext *);
    CUresult (*PointerGetAttribute)(void *, CUpointer_attribute, CUdeviceptr);
    /* what loads instrumented PTX in place of a file the program named */
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*LibraryLoadData)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *,
                                void **, unsigned);
    CUresult (*LinkAddData)(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *,
                            void **);
  } cu;
  rt_cuda_api vmm_api;
  rt_dev dev[RT_MAX_DEVICES];
  rt_site_table *tables[RT_MAX_TABLES];
  int ntables;
  rt_seen seen; /* device reports per site: printed once, then counted */
  rt_suppress suppress;
  rt_log log;
  pthread_t monitor;
  volatile int stop;
  int forked; /* this is a child forked after set-up: no monitor, no CUDA */
} rt_gsan_ctx;

extern rt_gsan_ctx rt_gsan;

/* Called with the driver's cuGetProcAddress the first time the program asks
 * for it: from then on gsan can fetch the driver's real functions. */
void rt_gsan_init_driver(void *real_get_proc_address);
/* The signatures gsan calls the driver with: CUDA 12's. CUDA 13 gave some
 * functions a context argument under the same name (cuCtxSynchronize,
 * cuCtxGetDevice): asked for at 13000, the driver hands out those. */
#define RT_OWN_VERSION 12000
/* The driver's own function for name (after rt_gsan_init_driver), or NULL:
 * the signature of version, the per-thread-stream variant when asked. */
void *rt_gsan_real_v(const char *name, int version, int per_thread);
void *rt_gsan_real(const char *name); /* at RT_OWN_VERSION, legacy stream */
static inline int rt_gsan_is_ready(void) { return __atomic_load_n(&rt_gsan.ready, __ATOMIC_ACQUIRE); }
/* The current context's device, set up the first time it is asked for;
 * NULL when there is no context or gsan cannot serve that device (its
 * allocations and modules then stay the driver's, unchecked). */
rt_dev *rt_gsan_dev_here(void);
/* The set-up device whose arena holds ptr (any pointer into its
 * reservation, freed or not), or NULL. */
rt_dev *rt_gsan_dev_of(uint64_t ptr);
/* rt_arena_find in the arena that holds ptr; RT_NOT_OURS outside them all */
rt_status rt_gsan_find(uint64_t ptr, rt_alloc_info *info);
/* The same, then the driver's allocations gsan tracks (rt_foreign.h: managed
 * memory, devices without an arena): what host API calls and frees are
 * checked against. A freed one whose addresses the driver has given out
 * again, to memory gsan does not track, is forgotten, not found. */
rt_status rt_gsan_find_tracked(uint64_t ptr, rt_alloc_info *info);

/* What a run says before it ends, whichever way it ends (exit, _exit, a
 * fatal signal): the device records still in the rings, the records a full
 * ring could only count, and the repeat counts per site. Once per process. */
void rt_gsan_last_words(void);
/* cuDevicePrimaryCtxReset is about to destroy device's primary context:
 * its records are taken, its allocations are gone with it (forgotten,
 * neither leaks nor live), and gsan's ring and stream there are made again
 * at the next use (rt_hooks_ctx.c). cudaDeviceReset resets through the
 * driver's internal table, past that hook: gsan then finds the context's new
 * id at its next use of the device and forgets the old one the same way. */
void rt_gsan_device_reset(int device);

/* rt_exit.c: the exits that skip atexit. Start: after the monitor thread
 * exists; installs handlers on the fatal signals left at their default. */
void rt_exit_start(void);
/* The monitor's sleep of ms; says the last words when a thread that is
 * leaving asked for them (returns 1 then). */
int rt_exit_wait(unsigned ms);
void rt_exit_wake(void);
/* blocks, in the monitor thread, the signals meant for the program */
void rt_exit_monitor_signals(void);
/* ends the process now, with status: no atexit, no last words */
__attribute__((noreturn)) void rt_exit_now(int status);

/* Prints the device records written so far; final after a fault or at exit
 * (takes records whose writer died mid-write). In halt mode a device report
 * ends the process with exitcode. */
void rt_gsan_drain(int final);
/* Fills __gsan_ctx in every library loaded so far, as d's context sees it
 * (rt_hooks_module.c): called when d is set up, in its context. */
void rt_gsan_fill_libraries(const rt_dev *d);
/* Keeps a loaded module's site tables (takes them; duplicates are freed). */
void rt_gsan_add_tables(rt_site_table **tables, int n);
/* the site table of a module id, or NULL (under rt_gsan.lock) */
const rt_site_table *rt_gsan_table(uint64_t module);
/* 1 for the errors that leave the context dead (a trap among them) */
int rt_gsan_context_lost(CUresult r);
/* Drains after a driver call returned r (final when r says the context
 * is lost, as after a trap); returns r. */
CUresult rt_gsan_drain_after(CUresult r);
/* 1 when a report of kind is suppressed: names are what the rules match
 * (a device error's kernel and files); with a stack, its frames as well */
int rt_gsan_suppressed(const char *kind, const char *const *names, int n, const rt_stack *stack);
/* A one-line message from gsan itself (not a report). */
void rt_gsan_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Orders a launch on stream s after the slot-table writes queued so far on
 * every device (rt_vmm_cuda_order): every launch path calls it first. 0 or
 * a CUresult. */
int rt_gsan_order_launch(CUstream s);
/* 1 when s is being captured into a graph: its calls then become graph
 * nodes that run later, and waiting on it would end the capture */
int rt_gsan_capturing(CUstream s);
/* Swaps this thread's stream-capture mode with *mode (where the driver has
 * the call): with CU_STREAM_CAPTURE_MODE_RELAXED before gsan's own driver
 * calls and again after, so that a capture in the global mode the program
 * is making does not end at a call the driver deems unsafe. */
void rt_gsan_capture_swap(CUstreamCaptureMode *mode);

/* A list of allocations, grown by rt_gsan_note_live (an rt_arena_foreach_live
 * callback; the caller frees p): taken while the arena's walk holds a class
 * lock, and worked on after it. */
typedef struct rt_live_list { rt_alloc_info *p; size_t n, cap; } rt_live_list;
void rt_gsan_note_live(void *arg, const rt_alloc_info *info);

/* the host stacks a report shows: where the region was allocated and freed,
 * and the call being reported (symbolised when printed: reports are rare) */
typedef struct rt_stacks {
  rt_stack alloc, freed, call;
  char buf[3][4096];
} rt_stacks;
void rt_gsan_region_stacks(uint64_t base, int freed, rt_region *reg, rt_stacks *s);
const rt_stack *rt_gsan_call_stack(rt_stacks *s);
/* the host stack of the call being made, kept in the depot */
uint32_t rt_gsan_stack_here(void);

/* One interposed driver entry point. */
typedef struct rt_hook {
  const char *name;
  void *mine[2];   /* gsan's wrapper: [0] legacy stream, [1] per-thread stream */
  void **real;     /* where the driver's function goes; NULL: fetched at start-up */
  int variants;    /* 2: the per-thread-stream variant is its own function */
  int min_version; /* the driver API versions this signature serves: [min, max) */
  int max_version; /* 0: no upper bound */
} rt_hook;

/* the hook tables, each ended by an entry with no name */
extern const rt_hook rt_hooks_alloc[], rt_hooks_copy[], rt_hooks_ctx[], rt_hooks_module[], rt_hooks_query[],
    rt_hooks_sync[];

/* Stream-ordered allocation and free as gsan's cuMemAllocAsync and
 * cuMemFreeAsync make them (rt_hooks_alloc.c: a slot of the current
 * context's device, freed once its stream is done), for gsan's own entry
 * points (rt_torch.c); api names the freeing call in reports. */
CUresult rt_alloc_ordered(CUdeviceptr *dptr, size_t size, CUstream s);
CUresult rt_free_ordered(CUdeviceptr ptr, CUstream s, const char *api);

/* gsan's wrapper for a driver entry point, or NULL when it is not hooked.
 * real is what the driver returned for (name, flags, version). */
void *rt_hook_for(const char *name, cuuint64_t flags, int version, void *real);

#endif
