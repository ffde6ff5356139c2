/* The virtual-memory operations the arena is built on. The runtime fills
 * this table with the CUDA driver's VMM calls (cuMemAddressReserve,
 * cuMemCreate, cuMemMap, cuMemSetAccess, cuMemUnmap, cuMemRelease) and its
 * stream writes; the tests fill it with an in-process fake. Every operation
 * returns 0 on success or the driver's error code. */
#ifndef GSAN_RT_VMM_H
#define GSAN_RT_VMM_H

#include <stddef.h>
#include <stdint.h>

typedef struct rt_vmm {
  void *ctx;
  /* reserve size bytes of device VA, preferably at hint; *out = the address */
  int (*reserve)(void *ctx, uint64_t size, uint64_t align, uint64_t hint, uint64_t *out);
  int (*unreserve)(void *ctx, uint64_t addr, uint64_t size);
  /* physical memory of size bytes (a multiple of the granule) on the device */
  int (*create)(void *ctx, uint64_t size, int device, uint64_t *handle);
  int (*release)(void *ctx, uint64_t handle);
  /* map a handle at addr, and give the device read/write access */
  int (*map)(void *ctx, uint64_t addr, uint64_t size, uint64_t handle, int device);
  int (*unmap)(void *ctx, uint64_t addr, uint64_t size);
  /* a slot-table entry: 8 bytes at addr; the only device memory gsan writes
   * once a page is there. Every write and zero is in place, in the order
   * made, before any kernel launched after it reads it. */
  int (*set64)(void *ctx, uint64_t addr, uint64_t value);
  /* 4 bytes at addr (4-aligned), in the same order as set64's writes: the
   * canary word right after an end that is 4- but not 8-aligned */
  int (*set32)(void *ctx, uint64_t addr, uint32_t value);
  /* zeros over a new table page */
  int (*zero)(void *ctx, uint64_t addr, uint64_t size);
  uint64_t granule;   /* allocation granularity: 2 MiB on the H100 */
} rt_vmm;

#endif
