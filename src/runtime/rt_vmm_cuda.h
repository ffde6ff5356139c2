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
} rt_cuda_api;

/* The VMM table for one device; granule from the driver. 0 or a CUresult. */
int rt_vmm_cuda(rt_vmm *out, const rt_cuda_api *api, int device);
void rt_vmm_cuda_free(rt_vmm *v);

#endif
