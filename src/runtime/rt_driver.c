/* The driver's functions gsan calls itself (rt_driver.h). Lock rule: none of
 * its own. rt_driver is written once, under rt_gsan.lock, by rt_driver_init
 * (called from rt_life_init before the first wrapper is handed out) and only
 * read after that; the helpers below keep no state. */
#include "rt_driver.h"

#include <stddef.h>

rt_driver_ctx rt_driver;

void *rt_driver_real_v(const char *name, int version, int per_thread) {
  void *p = NULL;
  CUdriverProcAddressQueryResult st;
  cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : 0;
  if (!rt_driver.get_proc || rt_driver.get_proc(name, &p, version, flags, &st) != CUDA_SUCCESS) return NULL;
  return p;
}

void *rt_driver_real(const char *name) { return rt_driver_real_v(name, RT_OWN_VERSION, 0); }

void rt_driver_init(rt_get_proc_fn get_proc) {
  rt_driver.get_proc = get_proc;
#define GET(name, field, pfn) *(void **)&rt_driver.cu.field = rt_driver_real(name);
  RT_DRIVER_OWN(GET)
#undef GET
#define VMM(field, name) *(void **)&rt_driver.vmm.field = rt_driver_real(name)
  VMM(MemAddressReserve, "cuMemAddressReserve");
  VMM(MemAddressFree, "cuMemAddressFree");
  VMM(MemCreate, "cuMemCreate");
  VMM(MemRelease, "cuMemRelease");
  VMM(MemMap, "cuMemMap");
  VMM(MemUnmap, "cuMemUnmap");
  VMM(MemSetAccess, "cuMemSetAccess");
  VMM(MemcpyHtoD, "cuMemcpyHtoD");
  VMM(MemGetAllocationGranularity, "cuMemGetAllocationGranularity");
  VMM(CtxSynchronize, "cuCtxSynchronize");
  VMM(StreamWriteValue64, "cuStreamWriteValue64");
  VMM(StreamWriteValue32, "cuStreamWriteValue32");
  VMM(StreamBatchMemOp, "cuStreamBatchMemOp");
  VMM(MemsetD8Async, "cuMemsetD8Async");
  VMM(StreamSynchronize, "cuStreamSynchronize");
  VMM(EventCreate, "cuEventCreate");
  VMM(EventRecord, "cuEventRecord");
  VMM(EventQuery, "cuEventQuery");
  VMM(EventSynchronize, "cuEventSynchronize");
  VMM(StreamWaitEvent, "cuStreamWaitEvent");
#undef VMM
}

/* errors that leave the context dead: a trap among them, whose writer may
 * have died mid-record */
int rt_driver_context_lost(CUresult r) {
  switch (r) {
  case CUDA_ERROR_LAUNCH_FAILED: case CUDA_ERROR_ILLEGAL_ADDRESS: case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS: case CUDA_ERROR_INVALID_ADDRESS_SPACE: case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR: case CUDA_ERROR_ASSERT: case CUDA_ERROR_LAUNCH_TIMEOUT:
    return 1;
  default:
    return 0;
  }
}

int rt_driver_capturing(CUstream s) {
  CUstreamCaptureStatus c = CU_STREAM_CAPTURE_STATUS_NONE;
  return rt_driver.cu.StreamIsCapturing && rt_driver.cu.StreamIsCapturing(s, &c) == CUDA_SUCCESS &&
         c != CU_STREAM_CAPTURE_STATUS_NONE;
}

void rt_driver_capture_swap(CUstreamCaptureMode *mode) {
  if (rt_driver.cu.ThreadExchangeStreamCaptureMode) rt_driver.cu.ThreadExchangeStreamCaptureMode(mode);
}
