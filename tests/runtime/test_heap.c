/* The device heap's runtime side against the fake driver (heap.test): a
 * driver-API program (its functions from cuGetProcAddress, as cudart's) that
 * loads an instrumented module
 * with an in-kernel malloc, raises the heap limit, launches, and then plays
 * the device's part on the heap gsan set up (the fake's device memory is
 * host memory): a malloc by thread (2,0,0) of block (1,0,0), then, by
 * scenario, nothing more (a leak at exit; new heap limits before and after), a
 * second free of the block or a free of no block (the wrapper's records), a
 * write to it after its free (an access record), or a host cuMemFree of it. */
#include <gsan/abi.h>

#include "driver.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MODULE_ID 0x1234abcdull /* heap.test instruments with --module-id=1234abcd */
#define SITE_MALLOC 0           /* tests/ptx/golden/device_heap.ptx: its malloc, heap.cu:2 */
#define SITE_WRITE 1            /* p[threadIdx.x] = 1, heap.cu:3 */
#define SITE_FREE 5             /* free(p), heap.cu:7 */


/* what __gsan_report writes: the next ring slot, seq last */
static void record(unsigned char *ring, uint32_t site, uint64_t addr, uint64_t base, uint64_t size) {
  uint32_t tail;
  memcpy(&tail, ring + GSAN_RING_TAIL, 4);
  gsan_record r = {0, site, MODULE_ID, addr, base, size, {2, 0, 0}, {1, 0, 0}};
  uint32_t cap;
  memcpy(&cap, ring + GSAN_RING_CAPACITY, 4);
  unsigned char *slot = ring + GSAN_RING_HEADER_BYTES + (size_t)(tail & (cap - 1)) * GSAN_RECORD_BYTES;
  memcpy(slot, &r, sizeof r);
  __atomic_store_n((uint32_t *)slot, tail + 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_heap leak|double-free|use-after-free|invalid-free|host-free MODULE.ptx\n");
    return 2;
  }
  const char *sc = argv[1];
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with gsan's reports on stderr */
  if (!drv_open()) return 2;
  CUresult (*cuInit)(unsigned) = get("cuInit");
  CUresult (*cuModuleLoad)(CUmodule *, const char *) = get("cuModuleLoad");
  CUresult (*cuCtxSetLimit)(CUlimit, size_t) = get("cuCtxSetLimit");
  CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *) = get("cuModuleGetGlobal");
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **) = get("cuLaunchKernel");
  CUresult (*cuCtxSynchronize)(void) = get("cuCtxSynchronize");
  if (!cuInit || !cuModuleLoad || !cuCtxSetLimit || !cuModuleGetGlobal || !cuLaunchKernel || !cuCtxSynchronize) return 2;
  cuInit(0);
  CUmodule m;
  CUresult r = cuModuleLoad(&m, argv[2]);
  printf("cuModuleLoad: %d\n", r);
  printf("cuCtxSetLimit(malloc heap, 1 MiB): %d\n", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1u << 20));
  CUdeviceptr g;
  size_t n;
  if (cuModuleGetGlobal(&g, &n, m, GSAN_CTX_SYMBOL) != CUDA_SUCCESS || n != GSAN_CTX_BYTES) return 2;
  unsigned char *ctx = (unsigned char *)g, *ring;
  uint64_t ring_ctl, heap;
  memcpy(&ring_ctl, ctx + GSAN_CTX_RING_CTL, 8);
  memcpy(&ring, ctx + GSAN_CTX_RING, 8);
  memcpy(&heap, (void *)(ring_ctl + GSAN_RING_CTL_HEAP), 8);
  printf("heap before a launch: %s\n", heap ? "set up" : "none");
  printf("cuLaunchKernel: %d\n", cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
  memcpy(&heap, (void *)(ring_ctl + GSAN_RING_CTL_HEAP), 8);
  printf("heap after a launch: %s\n", heap ? "set up" : "none");
  if (!heap) return 1;
  gsan_heap_run *runs = (gsan_heap_run *)heap;
  uint32_t min_shift;
  memcpy(&min_shift, ctx + GSAN_CTX_MIN_SHIFT, 4);
  for (unsigned k = 0; k < GSAN_HEAP_CLASSES; k++)
    if (runs[k].count)
      printf("class %u: %u slots of %llu bytes, aligned: %s\n", k, runs[k].count, 1ull << (k + min_shift),
             runs[k].first % (1ull << (k + min_shift)) == 0 ? "yes" : "NO");
  if (!strcmp(sc, "leak")) {
    /* a new limit before any block is taken: a new heap */
    cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 2u << 20);
    uint64_t again;
    memcpy(&again, (void *)(ring_ctl + GSAN_RING_CTL_HEAP), 8);
    printf("heap after a new limit: %s, with %u slot(s) of 2 MiB\n", again && again != heap ? "a new one" : "the same",
           again ? ((gsan_heap_run *)again)[13].count : 0);
    heap = again;
    runs = (gsan_heap_run *)heap;
  }
  /* the device's malloc(100): class 0 is 256-byte slots */
  gsan_heap_run *run = &runs[0];
  uint32_t idx = run->next++;
  uint64_t p = run->first + ((uint64_t)idx << min_shift);
  gsan_heap_block *b = (gsan_heap_block *)(uintptr_t)run->meta + idx;
  *b = (gsan_heap_block){0, SITE_MALLOC, MODULE_ID, 100, {2, 0, 0}, {1, 0, 0}, {0, 0}};
  ((uint32_t *)(uintptr_t)run->state)[idx] = GSAN_HEAP_LIVE;
  __atomic_store_n(&b->state, GSAN_HEAP_LIVE, __ATOMIC_RELEASE);
  if (!strcmp(sc, "double-free")) {
    ((uint32_t *)(uintptr_t)run->state)[idx] = GSAN_HEAP_FREED;
    __atomic_store_n(&b->state, GSAN_HEAP_FREED, __ATOMIC_RELEASE);
    record(ring, SITE_FREE, p, 0, GSAN_HEAP_DOUBLE_FREE);
  } else if (!strcmp(sc, "use-after-free")) {
    ((uint32_t *)(uintptr_t)run->state)[idx] = GSAN_HEAP_FREED;
    __atomic_store_n(&b->state, GSAN_HEAP_FREED, __ATOMIC_RELEASE);
    record(ring, SITE_WRITE, p + 8, p, 0);
  } else if (!strcmp(sc, "invalid-free")) {
    record(ring, SITE_FREE, 0x5000, 0, GSAN_HEAP_INVALID_FREE); /* no block's start */
  } else if (!strcmp(sc, "leak")) {
    /* once a block is taken the heap stays */
    cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 4u << 20);
    uint64_t again;
    memcpy(&again, (void *)(ring_ctl + GSAN_RING_CTL_HEAP), 8);
    printf("heap after a new limit with a block taken: %s\n", again == heap ? "the same" : "A NEW ONE");
  } else if (strcmp(sc, "host-free")) {
    return 2;
  }
  printf("the device wrote its part\n");
  if (!strcmp(sc, "host-free")) {
    CUresult (*cuMemFree)(CUdeviceptr) = get("cuMemFree");
    printf("cuMemFree of the block: %d\n", cuMemFree ? (int)cuMemFree(p) : -1);
  }
  cuCtxSynchronize(); /* gsan takes the records here */
  printf("done\n");
  return 0;
}
