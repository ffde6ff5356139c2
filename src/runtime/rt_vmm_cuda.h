/* The arena's VMM operations on the CUDA driver. The driver entry points come
 * in a table so that libgsan can fill it with the real functions it got
 * through cuGetProcAddress (its own exported cu* names are wrappers), and a
 * test program with the functions it linked. */
#ifndef GSAN_RT_VMM_CUDA_H
#define GSAN_RT_VMM_CUDA_H

#include "rt_vmm.h"

#include <cuda.h>

typedef struct rt_cuda_api {
  CUresult (*MemAddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
  CUresult (*MemAddressFree)(CUdeviceptr, size_t);
  CUresult (*MemCreate)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
  CUresult (*MemRelease)(CUmemGenericAllocationHandle);
  CUresult (*MemMap)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
  CUresult (*MemUnmap)(CUdeviceptr, size_t);
  CUresult (*MemSetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemGetAllocationGranularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
  CUresult (*CtxSynchronize)(void);
  /* table writes on gsan's own stream (rt_vmm_cuda_stream) */
  CUresult (*StreamWriteValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned);
  CUresult (*StreamWriteValue32)(CUstream, CUdeviceptr, cuuint32_t, unsigned); /* may be NULL */
  CUresult (*StreamBatchMemOp)(CUstream, unsigned, CUstreamBatchMemOpParams *, unsigned); /* may be NULL */
  CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventQuery)(CUevent);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned);
} rt_cuda_api;

/* The VMM table for one device; granule from the driver. 0 or a CUresult. */
int rt_vmm_cuda(rt_vmm *out, const rt_cuda_api *api, int device);
void rt_vmm_cuda_free(rt_vmm *v);

/* Slot-table writes go on stream, in the order made. A plain synchronous
 * copy is not enough: from pageable memory it returns once the bytes are
 * staged, before they land, and a kernel on a non-blocking stream is not
 * ordered after it. With queue, entry writes are gathered and sent in
 * batches, left in flight (a synchronous write per allocation costs more
 * than the driver's own cudaMalloc), and every launch must be ordered after
 * them: rt_vmm_cuda_order sends what is gathered. Without, each write is
 * waited for. Before this is called (or when the driver lacks the calls:
 * CUresult returned) a write is a copy followed by a context-wide wait. */
int rt_vmm_cuda_stream(rt_vmm *v, CUstream stream, int queue);
/* Orders launch_stream's next work after every table write queued so far
 * (a wait on an event, only while one is still in flight); with host_wait,
 * the calling thread waits instead (a stream being captured cannot wait on
 * outside work). 0 or a CUresult. */
int rt_vmm_cuda_order(rt_vmm *v, CUstream launch_stream, int host_wait);
/* 1 while a queued write is not known to be done */
int rt_vmm_cuda_pending(const rt_vmm *v);
/* The stream is going (its context is reset): the entries still gathered
 * are written now, one copy each in the current context when that is the
 * device's (write), else dropped; until rt_vmm_cuda_stream gives a new
 * stream, every write is a copy and a wait. */
void rt_vmm_cuda_detach(rt_vmm *v, int write);

#endif
