/* PyTorch's allocator entry points (include/gsan/gsan_torch.h), for
 * torch.cuda.memory.CUDAPluggableAllocator: each tensor a slot of gsan's
 * arena on the device PyTorch names, made and freed in stream order as
 * cuMemAllocAsync and cuMemFreeAsync are under gsan (rt_hooks_alloc.c).
 * PyTorch may allocate before any context is current (it avoids creating
 * one until it must), so the call runs in the device's primary context, the
 * one cudart and PyTorch use. Bad input and failures come back as NULL with
 * a one-line message; nothing aborts the program. */
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_hooks.h"

#include <gsan/gsan_torch.h>

#include <stdint.h>

/* primary contexts retained here, per device ordinal: kept for the process
 * (as cudart keeps them), since gsan's set-up on that device lives in it */
#define TORCH_DEVICES 64
static CUcontext primary[TORCH_DEVICES];

static struct {
  CUresult (*DeviceGetCount)(int *);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
} cu;

/* 1 when gsan sees the driver (the program found it through libgsan's
 * dlsym: libgsan preloaded, as gsan run does) and has what it needs */
static int driver_seen(const char *api) {
  if (rt_driver.get_proc && !cu.DeviceGetCount) {
    *(void **)&cu.DeviceGetCount = rt_driver_real("cuDeviceGetCount");
    *(void **)&cu.PrimaryCtxRetain = rt_driver_real("cuDevicePrimaryCtxRetain");
  }
  if (cu.DeviceGetCount && cu.PrimaryCtxRetain && rt_driver.cu.CtxGetCurrent && rt_driver.cu.CtxGetDevice &&
      rt_driver.cu.CtxPushCurrent && rt_driver.cu.CtxPopCurrent)
    return 1;
  rt_gsan_say("%s: the CUDA driver was not loaded through libgsan (is the program run by gsan run, and CUDA "
              "initialised?)",
              api);
  return 0;
}

/* Makes a context on device current for the call: the current one when it
 * is on device, else device's primary context, pushed. 1 when pushed (pop
 * it after), 0 when the current one serves, -1 when device is no device. */
static int enter_device(const char *api, int device) {
  CUcontext cur = NULL;
  CUdevice dev;
  if (rt_driver.cu.CtxGetCurrent(&cur) == CUDA_SUCCESS && cur && rt_driver.cu.CtxGetDevice(&dev) == CUDA_SUCCESS &&
      dev == device)
    return 0;
  int n = 0;
  if (cu.DeviceGetCount(&n) != CUDA_SUCCESS || device < 0 || device >= n) {
    rt_gsan_say("%s: device %d does not exist (%d devices)", api, device, n);
    return -1;
  }
  if (device >= TORCH_DEVICES) {
    rt_gsan_say("%s: device %d is beyond the %d devices gsan's PyTorch allocator serves", api, device, TORCH_DEVICES);
    return -1;
  }
  CUcontext ctx = __atomic_load_n(&primary[device], __ATOMIC_ACQUIRE);
  CUresult r = CUDA_SUCCESS;
  if (!ctx && (r = cu.PrimaryCtxRetain(&ctx, device)) == CUDA_SUCCESS)
    __atomic_store_n(&primary[device], ctx, __ATOMIC_RELEASE); /* a racing retain only adds a reference */
  if (r == CUDA_SUCCESS) r = rt_driver.cu.CtxPushCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    rt_gsan_say("%s: no context on device %d (CUDA error %d)", api, device, (int)r);
    return -1;
  }
  return 1;
}

static void leave_device(int pushed) {
  CUcontext prev;
  if (pushed == 1) rt_driver.cu.CtxPopCurrent(&prev);
}

void *gsan_torch_malloc(ssize_t size, int device, struct CUstream_st *stream) {
  const char *api = "gsan_torch_malloc";
  if (size == 0) return NULL; /* an empty tensor, as PyTorch's own allocator gives it */
  if (size < 0) {
    rt_gsan_say("%s: size %zd is negative", api, size);
    return NULL;
  }
  if (!driver_seen(api)) return NULL;
  int pushed = enter_device(api, device);
  if (pushed < 0) return NULL;
  CUdeviceptr p = 0;
  CUresult r = rt_alloc_ordered(&p, (size_t)size, stream);
  leave_device(pushed);
  if (r == CUDA_SUCCESS) return (void *)(uintptr_t)p;
  if (!rt_driver_context_lost(r))
    rt_gsan_say("%s: cannot allocate %zd bytes on device %d (CUDA error %d)", api, size, device, (int)r);
  return NULL;
}

void gsan_torch_free(void *ptr, ssize_t size, int device, struct CUstream_st *stream) {
  const char *api = "gsan_torch_free";
  (void)size;
  if (!ptr || !driver_seen(api)) return;
  int pushed = enter_device(api, device);
  if (pushed < 0) return;
  CUresult r = rt_free_ordered((CUdeviceptr)(uintptr_t)ptr, stream, api);
  leave_device(pushed);
  /* a double or invalid free has been reported (CUDA_ERROR_INVALID_VALUE);
   * after a kernel fault every call fails, and that was the fault's report */
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_INVALID_VALUE && !rt_driver_context_lost(r))
    rt_gsan_say("%s: cannot free %p on device %d (CUDA error %d)", api, ptr, device, (int)r);
}
