// Binary mode's device side (docs/binary.md): the patches that NVIDIA's
// Sanitizer API inserts into a SASS-only module (sanitizerPatchInstructions,
// one callback per kind of instruction):
// - gsan_binary_access, before every global memory access: the address
//   against gsan's slot tables (the arena lookup of docs/abi.md), or, outside
//   the arena, against the device heap's shadow (gsan_bheap, abi.h);
// - gsan_binary_shared and gsan_binary_local, before every shared and local
//   access: the window offset against the block's shared memory (static and
//   dynamic) and the top of the local window;
// - gsan_binary_copy, before every cp.async: its global source and its
//   shared destination, as above;
// - gsan_binary_malloc after, and gsan_binary_free before, every in-kernel
//   malloc and free: the heap's record kept, a double or invalid free
//   stopped.
// A failure writes the same ring record that instrumented code writes
// (module id and site as abi.h says for binary mode).
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


// Which warps a failed check stops: "If a patch returns SANITIZER_PATCH_ERROR,
// the full warp which the thread belongs to will be exited"
// (sanitizer_patching.h): the bad access (or free) never happens, the rest
// of the grid runs on, and the host reports the record.
static __device__ SanitizerPatchResult fail(const gsan_binary_data *d, uint64_t pc, unsigned kind, uint32_t width,
                                            unsigned space, uint64_t addr, uint64_t base, uint64_t size) {
  const unsigned char *c = d->ctx;
  gsan_record r;
  r.module_id = gsan_binary_module(d->kernel, kind, (unsigned)(__ffs(width ? width : 1) - 1), space);
  r.site = (uint32_t)(pc - d->func_pc);
  r.addr = addr;
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

// ---- the device heap (gsan_bheap, abi.h) ----

static __device__ gsan_bheap *heap_of(const gsan_binary_data *d) { return (gsan_bheap *)d->heap; }

// the slot of page p (an address >> GSAN_BHEAP_PAGE_SHIFT) in the page
// table, added when add is set; -1 when absent (or the table is full)
static __device__ int page_slot(gsan_bheap *h, uint64_t p, int add) {
  uint64_t key = p + 1;
  uint32_t i = gsan_bheap_page_slot(p);
  for (uint32_t n = 0; n < GSAN_BHEAP_PAGES; n++, i = (i + 1) & (GSAN_BHEAP_PAGES - 1)) {
    unsigned long long k = *(volatile unsigned long long *)&h->pages[i];
    if (k == key) return (int)i;
    if (k == 0) {
      if (!add) return -1;
      k = atomicCAS((unsigned long long *)&h->pages[i], 0ull, (unsigned long long)key);
      if (k == 0 || k == key) return (int)i;
    }
  }
  if (add) h->full = 1;
  return -1;
}

// the shadow byte of the granule holding a, or NULL where no block ever was
static __device__ unsigned char *granule(gsan_bheap *h, uint64_t a, int add) {
  int s = page_slot(h, a >> GSAN_BHEAP_PAGE_SHIFT, add);
  return s < 0 ? NULL : &h->shadow[s][(a & ((1u << GSAN_BHEAP_PAGE_SHIFT) - 1)) / GSAN_BHEAP_GRANULE];
}

// the block that starts at ptr, added when add is set; NULL if none
static __device__ gsan_bheap_block *block_at(gsan_bheap *h, uint64_t ptr, int add) {
  gsan_bheap_block *b = (gsan_bheap_block *)h->blocks;
  uint32_t i = gsan_bheap_block_slot(ptr);
  for (uint32_t n = 0; n < GSAN_BHEAP_BLOCKS; n++, i = (i + 1) & (GSAN_BHEAP_BLOCKS - 1)) {
    unsigned long long k = *(volatile unsigned long long *)&b[i].ptr;
    if (k == ptr) return &b[i];
    if (k == 0) {
      if (!add) return NULL;
      k = atomicCAS((unsigned long long *)&b[i].ptr, 0ull, (unsigned long long)ptr);
      if (k == 0 || k == ptr) return &b[i];
    }
  }
  if (add) h->full = 1;
  return NULL;
}

// marks [ptr, ptr + size) with state (GSAN_BHEAP_LIVE or GSAN_BHEAP_FREED)
static __device__ void mark(gsan_bheap *h, uint64_t ptr, uint64_t size, unsigned state) {
  uint64_t n = size ? (size + GSAN_BHEAP_GRANULE - 1) / GSAN_BHEAP_GRANULE : 1;
  for (uint64_t g = 0; g < n; g++) {
    uint64_t left = size - g * GSAN_BHEAP_GRANULE;
    unsigned bytes = size == 0 ? 0 : left >= GSAN_BHEAP_GRANULE ? GSAN_BHEAP_GRANULE : (unsigned)left;
    unsigned char *sh = granule(h, ptr + g * GSAN_BHEAP_GRANULE, 1);
    if (sh) *(volatile unsigned char *)sh = (unsigned char)(state | bytes | (g == 0 ? GSAN_BHEAP_START : 0));
  }
  __threadfence();
}

extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_malloc(void *userdata, uint64_t pc, void *allocatedPtr,
                                                                           uint64_t allocatedSize) {
  (void)pc;
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  gsan_bheap *h = d ? heap_of(d) : NULL;
  uint64_t p = (uint64_t)allocatedPtr;
  if (!h || !p) return SANITIZER_PATCH_SUCCESS;
  gsan_bheap_block *b = block_at(h, p, 1);
  if (b) {
    b->size = allocatedSize;
    b->tid[0] = threadIdx.x, b->tid[1] = threadIdx.y, b->tid[2] = threadIdx.z;
    b->ctaid[0] = blockIdx.x, b->ctaid[1] = blockIdx.y, b->ctaid[2] = blockIdx.z;
    __threadfence_system();
    *(volatile uint32_t *)&b->state = GSAN_HEAP_LIVE;
    __threadfence_system();
  }
  mark(h, p, allocatedSize, GSAN_BHEAP_LIVE);
  atomicMin((unsigned long long *)&h->lo, (unsigned long long)p);
  atomicMax((unsigned long long *)&h->hi, (unsigned long long)(p + allocatedSize));
  return SANITIZER_PATCH_SUCCESS;
}

// A free of a block's start that is live frees it; of a freed block's start
// is a double free; of any other pointer (NULL aside) an invalid free, unless
// a table ran full (the block may be one gsan could not record).
extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_free(void *userdata, uint64_t pc, void *ptr) {
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  gsan_bheap *h = d ? heap_of(d) : NULL;
  uint64_t p = (uint64_t)ptr;
  if (!h || !p) return SANITIZER_PATCH_SUCCESS;
  gsan_bheap_block *b = block_at(h, p, 0);
  if (b) {
    unsigned was = atomicCAS((unsigned *)&b->state, (unsigned)GSAN_HEAP_LIVE, (unsigned)GSAN_HEAP_FREED);
    __threadfence_system();
    if (was == GSAN_HEAP_LIVE) {
      mark(h, p, b->size, GSAN_BHEAP_FREED);
      return SANITIZER_PATCH_SUCCESS;
    }
    if (was == GSAN_HEAP_FREED) return fail(d, pc, GSAN_ACCESS_FREE, 8, GSAN_BINARY_GLOBAL, p, 0, GSAN_HEAP_DOUBLE_FREE);
  }
  if (*(volatile uint32_t *)&h->full) return SANITIZER_PATCH_SUCCESS;
  return fail(d, pc, GSAN_ACCESS_FREE, 8, GSAN_BINARY_GLOBAL, p, 0, GSAN_HEAP_INVALID_FREE);
}

// An access outside the arena, against the heap's shadow: a granule of a
// live block holds its count of bytes; a freed block's granule is a use
// after free; a granule of no block within GSAN_BHEAP_GRANULE * 4 bytes after
// a block is an overflow of that block. Anything else is not the heap's.
static __device__ SanitizerPatchResult heap_check(const gsan_binary_data *d, uint64_t pc, uint64_t a, uint32_t width,
                                                  uint32_t flags) {
  gsan_bheap *h = heap_of(d);
  if (!h) return SANITIZER_PATCH_SUCCESS;
  uint64_t lo = *(volatile uint64_t *)&h->lo, hi = *(volatile uint64_t *)&h->hi;
  if (a < lo || a >= hi + 4 * GSAN_BHEAP_GRANULE) return SANITIZER_PATCH_SUCCESS;
  unsigned char *sh = granule(h, a, 0);
  unsigned g = sh ? *(volatile unsigned char *)sh : 0;
  uint64_t at = a;
  if (g == 0) {
    int back = 1;
    for (; back <= 4 && g == 0; back++) {
      at = (a & ~(uint64_t)(GSAN_BHEAP_GRANULE - 1)) - (uint64_t)back * GSAN_BHEAP_GRANULE;
      sh = granule(h, at, 0);
      g = sh ? *(volatile unsigned char *)sh : 0;
    }
    if (g == 0) return SANITIZER_PATCH_SUCCESS;
  } else {
    unsigned o = (unsigned)(a & (GSAN_BHEAP_GRANULE - 1));
    if ((g & GSAN_BHEAP_LIVE) && o + width <= (g & 31)) return SANITIZER_PATCH_SUCCESS;
  }
  // the block: back to its first granule (bounded: a report, not the common path)
  uint64_t start = at & ~(uint64_t)(GSAN_BHEAP_GRANULE - 1);
  for (int n = 0; n < (1 << 20) && !(g & GSAN_BHEAP_START); n++) {
    start -= GSAN_BHEAP_GRANULE;
    sh = granule(h, start, 0);
    g = sh ? *(volatile unsigned char *)sh : 0;
    if (!g) return SANITIZER_PATCH_SUCCESS;
  }
  gsan_bheap_block *b = block_at(h, start, 0);
  uint64_t size = b ? b->size : 0;
  unsigned space = (g & GSAN_BHEAP_FREED) ? GSAN_BINARY_HEAP_FREED : GSAN_BINARY_HEAP;
  return fail(d, pc, access_kind(flags), width, space, a, start, size);
}

// userdata: the kernel's gsan_binary_data (include/gsan/abi.h), or NULL
// when libgsan has none for it yet (no arena on the device: nothing of
// gsan's to check).
extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_access(void *userdata, uint64_t pc, void *ptr,
                                                                           uint32_t accessSize, uint32_t flags,
                                                                           const void *pData) {
  (void)pData;
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  if (!d || (flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH)) return SANITIZER_PATCH_SUCCESS;
  const unsigned char *c = d->ctx;
  uint64_t a = (uint64_t)ptr, off = a - ctx64(c, GSAN_CTX_ARENA_BASE), asize = ctx64(c, GSAN_CTX_ARENA_SIZE);
  if (off >= asize) {
    // the region below the arena and the one above it are reserved and
    // never mapped (rt_arena.h): an access there, an index that ran off the
    // arena or wrapped, would fault; it is reported instead, with its thread
    uint64_t region = 1ull << ctx32(c, GSAN_CTX_REGION_SHIFT);
    if (asize && off + region < asize + 2 * region)
      return fail(d, pc, access_kind(flags), accessSize, GSAN_BINARY_GLOBAL, a, 0, 0);
    return heap_check(d, pc, a, accessSize, flags);
  }
  uint32_t rshift = ctx32(c, GSAN_CTX_REGION_SHIFT);
  uint64_t k = off >> rshift;
  uint32_t cshift = (uint32_t)k + ctx32(c, GSAN_CTX_MIN_SHIFT);
  uint64_t slot = (off & ((1ull << rshift) - 1)) >> cshift;
  uint64_t size = *(const uint64_t *)(ctx64(c, GSAN_CTX_TABLE_BASE) + (k << ctx32(c, GSAN_CTX_TABLE_SHIFT)) + 8 * slot);
  uint64_t base = a & ~((1ull << cshift) - 1), o = a - base;
  if (o < size && accessSize <= size - o) return SANITIZER_PATCH_SUCCESS;
  return fail(d, pc, access_kind(flags), accessSize, GSAN_BINARY_GLOBAL, a, base, size);
}

// The block's shared memory in the window: from the end of the part the
// system reserves (sm_80 on: %reserved_smem_offset_cap, 1 KiB on the H100;
// checked by tests/gpu/binary) over the kernel's static shared memory, then
// the launch's dynamic part (%dynamic_smem_size), which starts 16-byte
// aligned. The window offset's bits from 24 up name the block of a cluster
// (distributed shared memory): each block's layout is the same. An offset
// below the start (the reserved part) is the system's and not checked.
static __device__ __forceinline__ uint32_t shared_start(void) {
  uint32_t v = 0;
#if __CUDA_ARCH__ >= 800
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v));
#endif
  return v;
}
static __device__ __forceinline__ uint32_t dynamic_shared(void) {
  uint32_t v;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
  return v;
}
static __device__ SanitizerPatchResult shared_check(const gsan_binary_data *d, uint64_t pc, uint32_t offset, uint32_t width,
                                                    unsigned kind) {
  uint32_t o = offset & 0xffffffu, start = shared_start();
  uint32_t end = start + ((d->static_shared + 15u) & ~15u) + dynamic_shared();
  if (o < start || (o <= end && width <= end - o)) return SANITIZER_PATCH_SUCCESS;
  return fail(d, pc, kind, width, GSAN_BINARY_SHARED, o, start, end - start);
}

extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_shared(void *userdata, uint64_t pc, void *ptr,
                                                                           uint32_t accessSize, uint32_t flags,
                                                                           const void *pData) {
  (void)pData;
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  if (!d) return SANITIZER_PATCH_SUCCESS;
  return shared_check(d, pc, (uint32_t)(uint64_t)ptr, accessSize, access_kind(flags));
}

// A thread's stack lies at the top of the local window (its frames below
// the top, the kernel's first); where it starts below the top is the
// driver's, so only an offset at or past the window's top (d->local_top) is
// known to be past every frame. Anything below is not checked.
extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_local(void *userdata, uint64_t pc, void *ptr,
                                                                          uint32_t accessSize, uint32_t flags,
                                                                          const void *pData) {
  (void)pData;
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  uint64_t o = (uint64_t)ptr;
  if (!d || !d->local_top || (o < d->local_top && accessSize <= d->local_top - o)) return SANITIZER_PATCH_SUCCESS;
  return fail(d, pc, access_kind(flags), accessSize, GSAN_BINARY_LOCAL, o, 0, d->local_top);
}

// cp.async: a global read into shared memory
extern "C" __device__ __noinline__ SanitizerPatchResult gsan_binary_copy(void *userdata, uint64_t pc, void *src, uint32_t dst,
                                                                         uint32_t accessSize) {
  const gsan_binary_data *d = (const gsan_binary_data *)userdata;
  if (!d) return SANITIZER_PATCH_SUCCESS;
  if (src && gsan_binary_access(userdata, pc, src, accessSize, SANITIZER_MEMORY_DEVICE_FLAG_READ, NULL) != SANITIZER_PATCH_SUCCESS)
    return SANITIZER_PATCH_ERROR;
  return shared_check(d, pc, dst, accessSize, GSAN_ACCESS_COPY_DST);
}
