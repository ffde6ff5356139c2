/* Hooks on a context's limits and end: cuCtxSetLimit of the malloc heap
 * size resizes gsan's device heap (rt_heap.c). cudaDeviceReset resets the
 * device's primary context (cuDevicePrimaryCtxReset), which frees every allocation made in it
 * and the ring and stream gsan keeps there. gsan takes the pending records
 * first (rt_drain) and forgets those allocations (rt_device_reset); the program's
 * next use of the device sets gsan up there again. A context that goes
 * (destroyed, reset, or a primary context released, maybe for the last
 * time) takes its modules with it: the launch-bounds copies found in them
 * are forgotten (rt_launch.h). */
#include "rt_device.h"
#include "rt_drain.h"
#include "rt_gsan.h"
#include "rt_hooks.h"
#include "rt_heap.h"
#include "rt_launch.h"

static CUresult (*real_PrimaryCtxReset)(CUdevice);

static CUresult w_DevicePrimaryCtxReset(CUdevice dev) {
  rt_dev *d = rt_device_set_up((int)dev);
  if (d) {
    rt_drain(0);
    rt_device_reset(d);
  }
  return real_PrimaryCtxReset(dev);
}

static CUresult (*real_CtxDestroy)(CUcontext);
static CUresult w_CtxDestroy(CUcontext c) {
  CUresult r = real_CtxDestroy(c);
  rt_launch_forget();
  return r;
}

static CUresult (*real_PrimaryCtxRelease)(CUdevice);
static CUresult w_DevicePrimaryCtxRelease(CUdevice dev) {
  CUresult r = real_PrimaryCtxRelease(dev);
  rt_launch_forget();
  return r;
}

/* the device heap's size: a heap gsan set up already is made again at the
 * new size (rt_heap.c) */
static CUresult (*real_CtxSetLimit)(CUlimit, size_t);

static CUresult w_CtxSetLimit(CUlimit limit, size_t value) {
  CUresult r = real_CtxSetLimit(limit, value);
  if (r == CUDA_SUCCESS && limit == CU_LIMIT_MALLOC_HEAP_SIZE) rt_heap_limit_set(value);
  return r;
}

const rt_hook rt_hooks_ctx[] = {
    {"cuCtxSetLimit", {(void *)w_CtxSetLimit, (void *)w_CtxSetLimit}, (void **)&real_CtxSetLimit, 1, 0, 0},
    /* the _v2 name (CUDA 11's): the one cudart and cuda.h call */
    {"cuDevicePrimaryCtxReset", {(void *)w_DevicePrimaryCtxReset, (void *)w_DevicePrimaryCtxReset},
     (void **)&real_PrimaryCtxReset, 1, 11000, 0},
    {"cuDevicePrimaryCtxRelease", {(void *)w_DevicePrimaryCtxRelease, (void *)w_DevicePrimaryCtxRelease},
     (void **)&real_PrimaryCtxRelease, 1, 11000, 0},
    /* cuCtxDestroy_v2, the name since CUDA 4 */
    {"cuCtxDestroy", {(void *)w_CtxDestroy, (void *)w_CtxDestroy}, (void **)&real_CtxDestroy, 1, 4000, 0},
    {NULL, {NULL, NULL}, NULL, 0, 0, 0},
};
