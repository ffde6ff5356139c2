/* VMM operations on the CUDA driver (rt_vmm_cuda.h). */
#include "rt_vmm_cuda.h"

#include <stdlib.h>
#include <string.h>

typedef struct cuda_vmm {
  rt_cuda_api api;
  int device;
} cuda_vmm;

static CUmemAllocationProp prop_for(int device) {
  CUmemAllocationProp p;
  memset(&p, 0, sizeof p);
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

static int cv_reserve(void *ctx, uint64_t size, uint64_t align, uint64_t hint, uint64_t *out) {
  cuda_vmm *v = ctx;
  CUdeviceptr p = 0;
  CUresult r = v->api.MemAddressReserve(&p, size, align, hint, 0);
  *out = p;
  return r;
}

static int cv_unreserve(void *ctx, uint64_t addr, uint64_t size) {
  return ((cuda_vmm *)ctx)->api.MemAddressFree(addr, size);
}

static int cv_create(void *ctx, uint64_t size, int device, uint64_t *handle) {
  cuda_vmm *v = ctx;
  CUmemAllocationProp p = prop_for(device);
  CUmemGenericAllocationHandle h = 0;
  CUresult r = v->api.MemCreate(&h, size, &p, 0);
  *handle = h;
  return r;
}

static int cv_release(void *ctx, uint64_t handle) { return ((cuda_vmm *)ctx)->api.MemRelease(handle); }

static int cv_map(void *ctx, uint64_t addr, uint64_t size, uint64_t handle, int device) {
  cuda_vmm *v = ctx;
  CUresult r = v->api.MemMap(addr, size, 0, handle, 0);
  if (r != CUDA_SUCCESS) return r;
  CUmemAccessDesc d;
  memset(&d, 0, sizeof d);
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = device;
  d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  r = v->api.MemSetAccess(addr, size, &d, 1);
  if (r != CUDA_SUCCESS) v->api.MemUnmap(addr, size);
  return r;
}

static int cv_unmap(void *ctx, uint64_t addr, uint64_t size) { return ((cuda_vmm *)ctx)->api.MemUnmap(addr, size); }

static int cv_write(void *ctx, uint64_t addr, const void *src, size_t size) {
  return ((cuda_vmm *)ctx)->api.MemcpyHtoD(addr, src, size);
}

int rt_vmm_cuda(rt_vmm *out, const rt_cuda_api *api, int device) {
  cuda_vmm *v = malloc(sizeof *v);
  if (!v) return CUDA_ERROR_OUT_OF_MEMORY;
  v->api = *api;
  v->device = device;
  CUmemAllocationProp p = prop_for(device);
  size_t g = 0;
  CUresult r = api->MemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  if (r != CUDA_SUCCESS || !g) {
    free(v);
    return r ? r : CUDA_ERROR_UNKNOWN;
  }
  rt_vmm vm = {v, cv_reserve, cv_unreserve, cv_create, cv_release, cv_map, cv_unmap, cv_write, g};
  *out = vm;
  return 0;
}

void rt_vmm_cuda_free(rt_vmm *v) {
  free(v->ctx);
  v->ctx = NULL;
}
