/* The devices (rt_device.h): set up lazily, at the first allocation or
 * module load in a context on a device (an arena at that device's own
 * addresses, gsan's own stream there, a report ring in host memory the
 * device writes into), and forgotten when that context is reset (found by
 * the hook on cuDevicePrimaryCtxReset, or by the context's new id at the
 * next use). The listeners hear of both (rt_events.h: device_ready, forget).
 * Lock rule: set-up and forgetting run under rt_gsan.lock, once per device
 * (checked again under it); a device's ready flag is published with release
 * order last, so a thread that reads it set with acquire order sees the
 * arena, ring and stream, and may use them without the lock. */
#include "rt_device.h"

#include "rt_driver.h"
#include "rt_events.h"
#include "rt_foreign.h"
#include "rt_gsan.h"

#include <stdlib.h>
#include <string.h>

static rt_dev devs[RT_MAX_DEVICES];

/* allocations a reset took before the program freed them (leaks, at exit) */
static rt_live_list gone;

rt_dev *rt_device_at(int i) { return &devs[i]; }

void rt_device_foreach_gone(void (*fn)(void *arg, const rt_alloc_info *info), void *arg) {
  for (size_t i = 0; i < gone.n; i++) fn(arg, &gone.p[i]);
}

static int still_ready(rt_dev *d);

/* A kernel may be handed any device's pointers (peer access), so a launch
 * waits for the table writes of every device that has some in flight; with
 * one device in use that is the one. */
int rt_device_order_launch(CUstream s) {
  rt_events_before_launch();
  if (!rt_gsan_is_ready()) return 0;
  int r = 0, capturing = -1;
  for (int i = 0; i < RT_MAX_DEVICES && !r; i++) {
    rt_dev *d = &devs[i];
    if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) || !rt_vmm_cuda_pending(&d->vmm) || !still_ready(d)) continue;
    if (capturing < 0) capturing = rt_driver_capturing(s);
    if (!capturing) {
      r = rt_vmm_cuda_order(&d->vmm, s, 0);
      continue;
    }
    /* a captured stream cannot wait on work outside the capture: this
     * thread waits, in relaxed mode so that the wait does not end it */
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    rt_driver_capture_swap(&mode);
    r = rt_vmm_cuda_order(&d->vmm, s, 1);
    rt_driver_capture_swap(&mode);
  }
  return r;
}

/* the ready device whose arena test(arena, ptr) holds, or NULL */
static rt_dev *device_where(uint64_t ptr, int (*test)(const rt_arena *, uint64_t)) {
  if (!rt_gsan_is_ready()) return NULL;
  for (int i = 0; i < RT_MAX_DEVICES; i++) {
    rt_dev *d = &devs[i];
    if (__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) && test(d->arena, ptr)) return d;
  }
  return NULL;
}

rt_dev *rt_device_of(uint64_t ptr) { return device_where(ptr, rt_arena_holds); }

int rt_device_guard(uint64_t ptr) { return device_where(ptr, rt_arena_guard) != NULL; }

rt_status rt_gsan_find(uint64_t ptr, rt_alloc_info *info) {
  rt_dev *d = rt_device_of(ptr);
  return d ? rt_arena_find(d->arena, ptr, info) : RT_NOT_OURS;
}

rt_status rt_gsan_find_tracked(uint64_t ptr, rt_alloc_info *info) {
  rt_status st = rt_gsan_find(ptr, info);
  if (st != RT_NOT_OURS || rt_foreign_find(ptr, info) != RT_OK) return st;
  CUdeviceptr start;
  if (info->state == RT_SLOT_FREED && rt_driver.cu.PointerGetAttribute &&
      rt_driver.cu.PointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr) == CUDA_SUCCESS) {
    rt_foreign_forget(ptr);
    return RT_NOT_OURS;
  }
  return RT_OK;
}

void rt_device_read_ctl(rt_dev *d) {
  static unsigned char ctl[GSAN_RING_CTL_BYTES];
  if (!rt_driver.cu.MemcpyDtoH || !d->ring_ctl ||
      rt_driver.cu.MemcpyDtoH(ctl, d->ring_ctl, sizeof ctl) != CUDA_SUCCESS)
    return;
  uint32_t dropped;
  memcpy(&dropped, ctl + GSAN_RING_CTL_DROPPED, 4);
  d->unrecorded += dropped;
  rt_seen_add_counts(&rt_gsan.seen, (const gsan_site_count *)(ctl + GSAN_RING_CTL_SITES));
}

/* the ring's control word zeroed on gsan's own stream: setting up can
 * happen while the program captures a graph (its first allocation or module
 * load inside the capture), where work on the legacy stream would end the
 * capture */
static int zero_on_own_stream(rt_dev *d, CUdeviceptr p, size_t n) {
  if (!d->own_stream || !rt_driver.vmm.MemsetD8Async) return rt_driver.cu.MemsetD8(p, 0, n);
  CUresult r = rt_driver.vmm.MemsetD8Async(p, 0, n, d->own_stream);
  return r != CUDA_SUCCESS ? r : rt_driver.cu.StreamSynchronize(d->own_stream);
}

/* Under rt_gsan.lock, with a context on dev current; d->ready or d->failed
 * when it succeeds or gives up. Each device's arena has its own addresses
 * (rt_arena_default_params), so the device of any pointer is known. */
static void set_up(rt_dev *d, CUdevice dev) {
  int major = 0, minor = 0;
  rt_driver.cu.DeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  rt_driver.cu.DeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  d->arch = major * 10 + minor;
  d->device = (int)dev;
  if (!rt_driver.cu.CtxGetCurrent || rt_driver.cu.CtxGetCurrent(&d->cuctx) != CUDA_SUCCESS) d->cuctx = NULL;
  if (!d->cuctx || !rt_driver.cu.CtxGetId || rt_driver.cu.CtxGetId(d->cuctx, &d->ctx_id) != CUDA_SUCCESS)
    d->ctx_id = 0;
  /* the arena (VMM memory, not the context's) outlives a device reset */
  if (!d->arena) {
    int err = rt_vmm_cuda(&d->vmm, &rt_driver.vmm, (int)dev);
    rt_arena_params p = rt_arena_default_params((int)dev);
    p.quarantine = (uint64_t)rt_gsan.flags.quarantine_mb << 20;
    rt_status st = err ? RT_VMM_ERROR : rt_arena_create(&d->vmm, &p, &d->arena);
    if (st != RT_OK) {
      rt_gsan_say("cannot set up the arena on device %d (%s); its memory is not checked", (int)dev,
                  rt_status_name(st));
      d->arena = NULL;
      d->failed = 1;
      return;
    }
  }
  /* gsan's own non-blocking stream: its copies and the slot-table writes */
  if (!rt_driver.cu.StreamCreate || rt_driver.cu.StreamCreate(&d->own_stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
    d->own_stream = 0;
  /* the ring in plain host memory registered with the driver: it outlives
   * the context, so the last records can be read at exit */
  uint32_t cap = (uint32_t)rt_gsan.flags.ring_capacity;
  size_t bytes = (rt_ring_bytes(cap) + 4095) & ~(size_t)4095;
  void *mem = d->ring.mem; /* kept from before a device reset */
  CUdeviceptr dring;
  if (!mem && posix_memalign(&mem, 4096, bytes) != 0) mem = NULL;
  if (mem) memset(mem, 0, bytes);
  if (!mem || rt_driver.cu.MemHostRegister(mem, bytes, CU_MEMHOSTREGISTER_DEVICEMAP) != CUDA_SUCCESS ||
      rt_driver.cu.MemHostGetDevicePointer(&dring, mem, 0) != CUDA_SUCCESS ||
      rt_driver.cu.MemAlloc(&d->ring_ctl, GSAN_RING_CTL_BYTES) != CUDA_SUCCESS ||
      zero_on_own_stream(d, d->ring_ctl, GSAN_RING_CTL_BYTES)) {
    rt_gsan_say("cannot set up the report ring on device %d; its errors are not reported", (int)dev);
    d->failed = 1;
    return;
  }
  rt_ring_init(&d->ring, mem, cap);
  /* slot-table entries written on gsan's stream; launches wait for them */
  if (rt_vmm_cuda_stream(&d->vmm, d->own_stream, rt_gsan.flags.async_tables) != 0 && rt_gsan.flags.verbosity)
    rt_gsan_say("no stream for slot-table writes: each is a copy and a wait for the whole device");
  rt_arena_ctx(d->arena, d->ctx);
  memcpy(d->ctx + GSAN_CTX_RING, &dring, 8);
  memcpy(d->ctx + GSAN_CTX_RING_CTL, &d->ring_ctl, 8);
  __atomic_store_n(&d->ready, 1, __ATOMIC_RELEASE);
  /* libraries loaded while another device was current hold that device's
   * arena in this context's copy of their __gsan_ctx, or nothing (module
   * tracking); the first device starts the monitor (process life) */
  rt_events_device_ready(d);
  if (rt_gsan.flags.verbosity) rt_gsan_say("arena and ring ready on device %d (sm_%d)", (int)dev, d->arch);
}

/* Under rt_gsan.lock: d's context is about to be reset (alive: its stream
 * and the ring's control block are still there to use) or has been (found
 * by its new id: nothing of the old one is left). Its allocations are gone
 * with it; gsan's stream and ring there are made again at the next use. */
static void forget_context(rt_dev *d, int alive) {
  CUcontext cur = NULL;
  if (rt_driver.cu.CtxGetCurrent) rt_driver.cu.CtxGetCurrent(&cur);
  int pushed = alive && rt_driver.cu.CtxPushCurrent(d->cuctx) == CUDA_SUCCESS;
  if (!pushed) rt_vmm_cuda_detach(&d->vmm, cur == d->cuctx); /* the old stream is no more */
  /* the canaries, the device heap and the launch-bounds copies of the
   * context's modules go with it */
  rt_events_forget(d);
  /* the allocations go with the context: freed without a report (a later
   * use of one is a use after free), and, as the program never freed them,
   * leaks at exit (as compute-sanitizer reports them at the reset) */
  rt_live_list l = {NULL, 0, 0};
  rt_arena_foreach_live(d->arena, rt_gsan_note_live, &l);
  for (size_t i = 0; i < l.n; i++) {
    rt_arena_free(d->arena, l.p[i].base, NULL);
    if (!l.p[i].kept) rt_gsan_note_live(&gone, &l.p[i]);
  }
  free(l.p);
  if (pushed) {
    /* the table writes land before the stream goes; what the control
     * block counted is kept */
    rt_vmm_cuda_order(&d->vmm, NULL, 1);
    rt_device_read_ctl(d);
    if (d->ring.mem && rt_driver.cu.MemHostUnregister) rt_driver.cu.MemHostUnregister(d->ring.mem);
    CUcontext prev;
    rt_driver.cu.CtxPopCurrent(&prev);
    rt_vmm_cuda_detach(&d->vmm, 0);
  }
  if (rt_gsan.flags.verbosity)
    rt_gsan_say("device %d reset: %zu live allocation(s) went with its context", d->device, l.n);
  __atomic_store_n(&d->ready, 0, __ATOMIC_RELEASE);
  d->own_stream = 0;
  d->ring_ctl = 0;
}

/* 1 when d's context is not the one gsan set up in any more (rt_device.h) */
int rt_device_replaced(const rt_dev *d) {
  unsigned long long id = 0;
  if (!d->ctx_id || !rt_driver.cu.CtxGetId) return 0;
  return rt_driver.cu.CtxGetId(d->cuctx, &id) != CUDA_SUCCESS || id != d->ctx_id;
}

/* forget_context under the lock, once: another thread may have forgotten
 * d while this one waited for the lock */
static void forget_once(rt_dev *d, int alive) {
  pthread_mutex_lock(&rt_gsan.lock);
  if (d->ready && (alive || rt_device_replaced(d))) forget_context(d, alive);
  pthread_mutex_unlock(&rt_gsan.lock);
}

/* d is ready, and still in the context it was set up in (forgotten if not) */
static int still_ready(rt_dev *d) {
  if (!rt_device_replaced(d)) return 1;
  forget_once(d, 0);
  return 0;
}

rt_dev *rt_device_set_up(int device) {
  if ((unsigned)device >= RT_MAX_DEVICES || rt_gsan.forked) return NULL;
  rt_dev *d = &devs[device];
  return __atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) ? d : NULL;
}

void rt_device_reset(rt_dev *d) { forget_once(d, 1); }

rt_dev *rt_device_here(void) {
  CUdevice dev;
  if (!rt_driver.cu.CtxGetDevice || rt_driver.cu.CtxGetDevice(&dev) != CUDA_SUCCESS) return NULL; /* no context */
  if ((unsigned)dev >= RT_MAX_DEVICES) return NULL;
  rt_dev *d = &devs[dev];
  if (__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE) && still_ready(d)) return d;
  if (d->failed || rt_gsan.forked) return NULL;
  pthread_mutex_lock(&rt_gsan.lock);
  if (!d->ready && !d->failed) {
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    rt_driver_capture_swap(&mode);
    set_up(d, dev);
    rt_driver_capture_swap(&mode);
  }
  pthread_mutex_unlock(&rt_gsan.lock);
  return d->ready ? d : NULL;
}
