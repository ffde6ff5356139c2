// Binary mode's device side (docs/binary.md): the patch that NVIDIA's
// Sanitizer API inserts before every global memory access of a SASS-only
// module (sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS,
// module, "gsan_binary_access")). It checks the access by its address alone
// against gsan's slot tables, the arena lookup of docs/abi.md, and on a
// failure writes the same ring record that instrumented code writes.
//
// Built as NVIDIA's MemoryTracker sample builds its patches
// (compute-sanitizer-samples, MemoryTracker/Makefile: "--fatbin
// --keep-device-functions -Xptxas --compile-as-tools-patch"), into
// build/lib/gsan_binary_patch.fatbin, which libgsan hands to
// sanitizerAddPatchesFromFile. The callback has the documented signature of
// SanitizerCallbackMemoryAccess (sanitizer_patching.h) and, as in the
// sample, is extern "C" __device__ __noinline__ so that it keeps its name.
#include <gsan/abi.h>
#include <sanitizer_patching.h>

static __device__ __forceinline__ uint64_t ctx64(const unsigned char *c, int off) {
  return *(const uint64_t *)(c + off);
}
static __device__ __forceinline__ uint32_t ctx32(const unsigned char *c, int off) {
  return *(const uint32_t *)(c + off);
}

// The site's count in the ring's control block, as __gsan_report keeps it
// (docs/abi.md, "Per-site counts"): 1 when this failure is one of the site's
// first GSAN_SITE_RECORDS and goes to the ring; *count is its slot, or NULL
// when the table is full (then every failure records).
static __device__ int first_failures(unsigned char *ctl, uint64_t key, gsan_site_count **count) {
  gsan_site_count *t = (gsan_site_count *)(ctl + GSAN_RING_CTL_SITES);
  uint32_t slot = gsan_site_slot(key);
  *count = NULL;
  for (int i = 0; i < GSAN_SITE_PROBES; i++) {
    gsan_site_count *c = &t[(slot + i) & (GSAN_SITE_SLOTS - 1)];
    unsigned long long k = *(volatile unsigned long long *)&c->key;
    if (k == 0) k = atomicCAS((unsigned long long *)&c->key, 0ull, (unsigned long long)key);
    if (k == 0 || k == key) {
      *count = c;
      return atomicAdd(&c->hits, 1u) < GSAN_SITE_RECORDS;
    }
  }
  return 1;
}

// One record into the ring: a slot is claimed only while the ring has room
// (head - tail < capacity), so a full ring leaves no hole; the record is
// published by its seq, written last, after a system-scope fence. One
// claim per thread: the callback runs per access, not per warp, and only
// the first few failures of a site get here.
static __device__ void put_record(const unsigned char *c, const gsan_record *r) {
  volatile uint32_t *ring = (volatile uint32_t *)ctx64(c, GSAN_CTX_RING);
  unsigned char *ctl = (unsigned char *)ctx64(c, GSAN_CTX_RING_CTL);
  uint32_t *head = (uint32_t *)(ctl + GSAN_RING_CTL_HEAD);
  uint32_t cap = ring[GSAN_RING_CAPACITY / 4], idx;
  for (;;) {
    uint32_t h = *(volatile uint32_t *)head, tail = ring[GSAN_RING_TAIL / 4];
    if (h - tail >= cap) {
      atomicAdd((uint32_t *)(ctl + GSAN_RING_CTL_DROPPED), 1u);
      return;
    }
    if (atomicCAS(head, h, h + 1) == h) {
      idx = h;
      break;
    }
  }
  volatile gsan_record *slot =
      (volatile gsan_record *)((unsigned char *)ring + GSAN_RING_HEADER_BYTES + (size_t)(idx & (cap - 1)) * GSAN_RECORD_BYTES);
  slot->site = r->site;
  slot->module_id = r->module_id;
  slot->addr = r->addr;
  slot->base = r->base;
  slot->size = r->size;
  for (int i = 0; i < 3; i++) {
    slot->tid[i] = r->tid[i];
    slot->ctaid[i] = r->ctaid[i];
  }
  __threadfence_system();
  slot->seq = idx + 1;
  __threadfence_system();
}

static __device__ unsigned access_kind(uint32_t flags) {
  int rd = (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) != 0, wr = (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) != 0;
  // an atomic comes with neither flag or both (and pData NULL)
  if (rd == wr || (flags & SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS)) return GSAN_ACCESS_ATOMIC;
  return wr ? GSAN_ACCESS_WRITE : GSAN_ACCESS_READ;
}

// userdata: the kernel's gsan_binary_data (include/gsan/abi.h), or NULL
// when libgsan has none for it yet (no arena on the device: nothing of
// gsan's to check). On a failed check the warp exits ("If a patch returns
// SANITIZER_PATCH_ERROR, the full warp which the thread belongs to will be
// exited", sanitizer_patching.h): the bad access never happens, the rest of
// the grid runs on, and the host reports the record.
extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_access(void *userdata, uint64_t pc, void *ptr,
                                                                           uint32_t accessSize, uint32_t flags,
                                                                           const void *pData) {
  (void)pData;
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  if (!d || (flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) return SANITIZER_PATCH_SUCCESS;
  const unsigned char *c = d->ctx;
  uint64_t a = (uint64_t)ptr, off = a - ctx64(c, GSAN_CTX_ARENA_BASE);
  if (off >= ctx64(c, GSAN_CTX_ARENA_SIZE)) return SANITIZER_PATCH_SUCCESS; // not the arena's
  uint32_t rshift = ctx32(c, GSAN_CTX_REGION_SHIFT);
  uint64_t k = off >> rshift;
  uint32_t cshift = (uint32_t)k + ctx32(c, GSAN_CTX_MIN_SHIFT);
  uint64_t slot = (off & ((1ull << rshift) - 1)) >> cshift;
  uint64_t size = *(const uint64_t *)(ctx64(c, GSAN_CTX_TABLE_BASE) + (k << ctx32(c, GSAN_CTX_TABLE_SHIFT)) + 8 * slot);
  uint64_t base = a & ~((1ull << cshift) - 1), o = a - base;
  if (o < size && accessSize <= size - o) return SANITIZER_PATCH_SUCCESS;
  gsan_record r;
  r.module_id = gsan_binary_module(d->kernel, access_kind(flags), (unsigned)(__ffs(accessSize) - 1));
  r.site = (uint32_t)(pc - d->func_pc);
  r.addr = a;
  r.base = base;
  r.size = size;
  r.tid[0] = threadIdx.x, r.tid[1] = threadIdx.y, r.tid[2] = threadIdx.z;
  r.ctaid[0] = blockIdx.x, r.ctaid[1] = blockIdx.y, r.ctaid[2] = blockIdx.z;
  unsigned char *ctl = (unsigned char *)ctx64(c, GSAN_CTX_RING_CTL);
  gsan_site_count *count;
  if (first_failures(ctl, gsan_site_key(r.module_id, r.site), &count)) {
    put_record(c, &r);
    if (count) *(volatile uint32_t *)&count->recorded = 1;
  }
  return SANITIZER_PATCH_ERROR;
}
