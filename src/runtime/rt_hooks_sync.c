/* Hooks on launches and waits. A launch is first ordered after the
 * slot-table writes gsan has queued (rt_vmm_cuda_order), so a kernel never
 * sees an allocation's bounds before they are there. Device reports become
 * due here (docs/architecture.md §2): every call that waits for the device, and every
 * launch or wait that returns an error, drains the ring, so a report comes
 * before the program sees the failure (and, in halt mode, the program ends
 * there). The monitor thread covers kernels that are still running.
 * A kernel launch runs its launch-bounds copy where it has one
 * (rt_launch.h); the canaries still see the kernel the program named. */
#include "rt_device.h"
#include "rt_drain.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_hooks.h"

#include "rt_canary.h"
#include "rt_launch.h"

/* the driver's functions, per variant: [0] legacy stream, [1] per-thread stream */
static struct {
  RT_DRIVER_SYNC(RT_HOOK_REAL)
} real;
RT_DRIVER_SYNC(RT_HOOK_DECLARE)

/* a wait (api) has finished: what the device wrote so far is there to
 * print, and the canaries of the allocations recently used to check (or the
 * fault to report); whole: it waited for every kernel of the context (a
 * stream's or an event's wait leaves other streams' kernels running) */
static CUresult waited(CUresult r, const char *api, int whole) {
  rt_drain_after(r);
  rt_canary_synced(r, api, whole);
  return r;
}

/* a launch that fails may be telling of an earlier kernel's fault */
static CUresult launched(CUresult r) { return r == CUDA_SUCCESS ? r : waited(r, "a kernel launch", 0); }

/* A launch refused for its resources (r): a copy's, tried again as the
 * kernel itself (LAUNCH: the driver's call on f, args, extra), which may
 * need fewer registers; refused still, said once per kernel */
#define REFUSED(r, l, f, threads, LAUNCH)                                  \
  do {                                                                     \
    if ((r) == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES && (l).f != (f)) (r) = (LAUNCH); \
    if ((r) == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) rt_launch_refused((f), (threads)); \
  } while (0)

/* the stream a launch goes to: 0 of the per-thread variant is the thread's */
#define STREAM(V, s) ((V) && !(s) ? CU_STREAM_PER_THREAD : (s))
#define ORDERED(s)                                     \
  do {                                                 \
    CUresult o_ = (CUresult)rt_device_order_launch(s); \
    if (o_ != CUDA_SUCCESS) return launched(o_);       \
  } while (0)

static CUresult w_CtxSynchronize(void) { return waited(rt_driver.cu.CtxSynchronize(), "cuCtxSynchronize", 1); }
/* CUDA 13's form, with the context to wait for */
static CUresult w_CtxSynchronize13(CUcontext c) { return waited(real.CtxSynchronize13[0](c), "cuCtxSynchronize", 1); }
static CUresult w_EventSynchronize(CUevent e) { return waited(real.EventSynchronize[0](e), "cuEventSynchronize", 0); }

/* v_<key>: the body of both variants' wrappers, V the variant (0: legacy
 * stream, 1: per-thread stream); w_<key> and w_<key>_pt: the wrappers
 * (rt_driver.inc) */
static CUresult v_StreamSynchronize(int V, CUstream s) {
  return waited(real.StreamSynchronize[V](s), "cuStreamSynchronize", 0);
}
static CUresult w_StreamSynchronize(CUstream s) { return v_StreamSynchronize(0, s); }
static CUresult w_StreamSynchronize_pt(CUstream s) { return v_StreamSynchronize(1, s); }

static CUresult v_StreamQuery(int V, CUstream s) {
  CUresult r = real.StreamQuery[V](s);
  return r == CUDA_ERROR_NOT_READY ? r : waited(r, "cuStreamQuery", 0);
}
static CUresult w_StreamQuery(CUstream s) { return v_StreamQuery(0, s); }
static CUresult w_StreamQuery_pt(CUstream s) { return v_StreamQuery(1, s); }

static CUresult v_LaunchKernel(int V, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shmem, CUstream s, void **args, void **extra) {
  ORDERED(STREAM(V, s));
  rt_canary_launch(f, args);
  rt_launch l;
  rt_launch_dims dims = {{gx, gy, gz}, {bx, by, bz}, shmem, STREAM(V, s)};
  rt_launch_prepare(&l, f, args, extra, &dims);
  CUresult r = real.LaunchKernel[V](l.f, gx, gy, gz, bx, by, bz, shmem, s, l.args, l.extra);
  REFUSED(r, l, f, bx * by * bz, real.LaunchKernel[V](f, gx, gy, gz, bx, by, bz, shmem, s, args, extra));
  return launched(r);
}
static CUresult w_LaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shmem, CUstream s, void **args, void **extra) {
  return v_LaunchKernel(0, f, gx, gy, gz, bx, by, bz, shmem, s, args, extra);
}
static CUresult w_LaunchKernel_pt(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                  unsigned bz, unsigned shmem, CUstream s, void **args, void **extra) {
  return v_LaunchKernel(1, f, gx, gy, gz, bx, by, bz, shmem, s, args, extra);
}

static CUresult v_LaunchKernelEx(int V, const CUlaunchConfig *c, CUfunction f, void **args, void **extra) {
  if (c) ORDERED(STREAM(V, c->hStream));
  rt_canary_launch(f, args);
  rt_launch l;
  rt_launch_dims dims = {{0, 0, 0}, {0, 0, 0}, 0, 0};
  if (c) dims = (rt_launch_dims){{c->gridDimX, c->gridDimY, c->gridDimZ},
                                 {c->blockDimX, c->blockDimY, c->blockDimZ}, c->sharedMemBytes,
                                 STREAM(V, c->hStream)};
  rt_launch_prepare(&l, f, args, extra, c ? &dims : NULL);
  CUresult r = real.LaunchKernelEx[V](c, l.f, l.args, l.extra);
  REFUSED(r, l, f, c ? c->blockDimX * c->blockDimY * c->blockDimZ : 0, real.LaunchKernelEx[V](c, f, args, extra));
  return launched(r);
}
static CUresult w_LaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **extra) {
  return v_LaunchKernelEx(0, c, f, args, extra);
}
static CUresult w_LaunchKernelEx_pt(const CUlaunchConfig *c, CUfunction f, void **args, void **extra) {
  return v_LaunchKernelEx(1, c, f, args, extra);
}

static CUresult v_LaunchCooperativeKernel(int V, CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz, unsigned shmem, CUstream s, void **args) {
  ORDERED(STREAM(V, s));
  rt_canary_launch(f, args);
  rt_launch l;
  rt_launch_dims dims = {{gx, gy, gz}, {bx, by, bz}, shmem, STREAM(V, s)};
  rt_launch_prepare(&l, f, args, NULL, &dims);
  CUresult r = real.LaunchCooperativeKernel[V](l.f, gx, gy, gz, bx, by, bz, shmem, s, l.args);
  REFUSED(r, l, f, bx * by * bz, real.LaunchCooperativeKernel[V](f, gx, gy, gz, bx, by, bz, shmem, s, args));
  return launched(r);
}
static CUresult w_LaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz, unsigned shmem, CUstream s, void **args) {
  return v_LaunchCooperativeKernel(0, f, gx, gy, gz, bx, by, bz, shmem, s, args);
}
static CUresult w_LaunchCooperativeKernel_pt(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                             unsigned by, unsigned bz, unsigned shmem, CUstream s, void **args) {
  return v_LaunchCooperativeKernel(1, f, gx, gy, gz, bx, by, bz, shmem, s, args);
}

static CUresult v_GraphLaunch(int V, CUgraphExec g, CUstream s) {
  ORDERED(STREAM(V, s));
  rt_canary_launch(NULL, NULL);
  return launched(real.GraphLaunch[V](g, s));
}
static CUresult w_GraphLaunch(CUgraphExec g, CUstream s) { return v_GraphLaunch(0, g, s); }
static CUresult w_GraphLaunch_pt(CUgraphExec g, CUstream s) { return v_GraphLaunch(1, g, s); }

const rt_hook rt_hooks_sync[] = {RT_DRIVER_SYNC(RT_HOOK_ROW) RT_HOOK_END};
