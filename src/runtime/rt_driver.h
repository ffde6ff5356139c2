/* The driver, as gsan itself calls it (docs/runtime.md "Layers"): the
 * program's first request for cuGetProcAddress hands gsan the driver's own
 * function (rt_interpose.c); from then on gsan fetches the real functions it
 * calls with it. The layer below every other: it calls nothing of gsan's. */
#ifndef GSAN_RT_DRIVER_H
#define GSAN_RT_DRIVER_H

#include "rt_vmm_cuda.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include "rt_driver.inc"

typedef CUresult (*rt_get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

/* The signatures gsan calls the driver with: CUDA 12's. CUDA 13 gave some
 * functions a context argument under the same name (cuCtxSynchronize,
 * cuCtxGetDevice): asked for at 13000, the driver hands out those. */
#define RT_OWN_VERSION 12000

typedef struct rt_driver_ctx {
  rt_get_proc_fn get_proc; /* the driver's cuGetProcAddress; NULL until it is known */
  struct { /* the driver's functions gsan itself calls (RT_DRIVER_OWN); NULL where it has none */
#define RT_DRIVER_FIELD(name, field, pfn) pfn field;
    RT_DRIVER_OWN(RT_DRIVER_FIELD)
#undef RT_DRIVER_FIELD
  } cu;
  rt_cuda_api vmm; /* the arena's VMM calls (rt_vmm_cuda.h) */
} rt_driver_ctx;

/* Written once, by rt_driver_init, before any wrapper is handed out; read
 * without a lock after that. */
extern rt_driver_ctx rt_driver;

/* Keeps the driver's cuGetProcAddress and fetches the functions above with
 * it. Once: the caller (rt_life_init) holds rt_gsan.lock. */
void rt_driver_init(rt_get_proc_fn get_proc);
/* The driver's own function for name (after rt_driver_init), or NULL: the
 * signature of version, the per-thread-stream variant when asked. */
void *rt_driver_real_v(const char *name, int version, int per_thread);
void *rt_driver_real(const char *name); /* at RT_OWN_VERSION, legacy stream */

/* 1 for the errors that leave the context dead (a trap among them) */
int rt_driver_context_lost(CUresult r);
/* 1 when s is being captured into a graph: its calls then become graph
 * nodes that run later, and waiting on it would end the capture */
int rt_driver_capturing(CUstream s);
/* Swaps this thread's stream-capture mode with *mode (where the driver has
 * the call): with CU_STREAM_CAPTURE_MODE_RELAXED before gsan's own driver
 * calls and again after, so that a capture in the global mode the program
 * is making does not end at a call the driver deems unsafe. */
void rt_driver_capture_swap(CUstreamCaptureMode *mode);

#endif
