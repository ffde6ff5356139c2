/* Hooks on the queries whose answers the arena changes: for an arena
 * pointer the driver would give the whole VMM reservation (docs/architecture.md §2.1);
 * the allocation's own range is what the caller means. */
#include "rt_device.h"
#include "rt_gsan.h"
#include "rt_hooks.h"

static struct {
  RT_DRIVER_QUERY(RT_HOOK_REAL)
} real;
RT_DRIVER_QUERY(RT_HOOK_DECLARE)

/* 1 and the live allocation's range when ptr is in one */
static int live_range(CUdeviceptr ptr, uint64_t *base, uint64_t *size) {
  rt_alloc_info info;
  if (rt_gsan_find(ptr, &info) != RT_OK || info.state != RT_SLOT_LIVE ||
      ptr - info.base >= info.size)
    return 0;
  *base = info.base;
  *size = info.size;
  return 1;
}

static CUresult w_MemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr ptr) {
  uint64_t b, n;
  if (!live_range(ptr, &b, &n)) return real.MemGetAddressRange[0](pbase, psize, ptr);
  if (pbase) *pbase = b;
  if (psize) *psize = n;
  return CUDA_SUCCESS;
}

static void fix_attribute(CUpointer_attribute a, void *data, uint64_t b, uint64_t n) {
  if (a == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) *(CUdeviceptr *)data = b;
  else if (a == CU_POINTER_ATTRIBUTE_RANGE_SIZE) *(size_t *)data = n;
}

static CUresult w_PointerGetAttribute(void *data, CUpointer_attribute a, CUdeviceptr ptr) {
  CUresult r = real.PointerGetAttribute[0](data, a, ptr);
  uint64_t b, n;
  if (r == CUDA_SUCCESS && data && live_range(ptr, &b, &n)) fix_attribute(a, data, b, n);
  return r;
}

static CUresult w_PointerGetAttributes(unsigned count, CUpointer_attribute *a, void **data, CUdeviceptr ptr) {
  CUresult r = real.PointerGetAttributes[0](count, a, data, ptr);
  uint64_t b, n;
  if (r == CUDA_SUCCESS && live_range(ptr, &b, &n))
    for (unsigned i = 0; i < count; i++)
      if (data[i]) fix_attribute(a[i], data[i], b, n);
  return r;
}

const rt_hook rt_hooks_query[] = {RT_DRIVER_QUERY(RT_HOOK_ROW) RT_HOOK_END};
