/* Hooks on a context's end: cudaDeviceReset resets the device's primary
 * context (cuDevicePrimaryCtxReset), which frees every allocation made in it
 * and the ring and stream gsan keeps there. gsan takes the pending records
 * first and forgets those allocations (rt_gsan_device_reset); the program's
 * next use of the device sets gsan up there again. */
#include "rt_gsan.h"

static CUresult (*real_PrimaryCtxReset)(CUdevice);

static CUresult w_DevicePrimaryCtxReset(CUdevice dev) {
  rt_gsan_device_reset((int)dev);
  return real_PrimaryCtxReset(dev);
}

const rt_hook rt_hooks_ctx[] = {
    /* the _v2 name (CUDA 11's): the one cudart and cuda.h call */
    {"cuDevicePrimaryCtxReset", {(void *)w_DevicePrimaryCtxReset, (void *)w_DevicePrimaryCtxReset},
     (void **)&real_PrimaryCtxReset, 1, 11000, 0},
    {NULL, {NULL, NULL}, NULL, 0, 0, 0},
};
