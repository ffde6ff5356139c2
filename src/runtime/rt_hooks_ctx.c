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

static struct {
  RT_DRIVER_CTX(RT_HOOK_REAL)
} real;
RT_DRIVER_CTX(RT_HOOK_DECLARE)

static CUresult w_DevicePrimaryCtxReset(CUdevice dev) {
  rt_dev *d = rt_device_set_up((int)dev);
  if (d) {
    rt_drain(0);
    rt_device_reset(d);
  }
  return real.DevicePrimaryCtxReset[0](dev);
}

static CUresult w_CtxDestroy(CUcontext c) {
  CUresult r = real.CtxDestroy[0](c);
  rt_launch_forget();
  return r;
}

static CUresult w_DevicePrimaryCtxRelease(CUdevice dev) {
  CUresult r = real.DevicePrimaryCtxRelease[0](dev);
  rt_launch_forget();
  return r;
}

/* the device heap's size: a heap gsan set up already is made again at the
 * new size (rt_heap.c) */
static CUresult w_CtxSetLimit(CUlimit limit, size_t value) {
  CUresult r = real.CtxSetLimit[0](limit, value);
  if (r == CUDA_SUCCESS && limit == CU_LIMIT_MALLOC_HEAP_SIZE) rt_heap_limit_set(value);
  return r;
}

const rt_hook rt_hooks_ctx[] = {RT_DRIVER_CTX(RT_HOOK_ROW) RT_HOOK_END};
