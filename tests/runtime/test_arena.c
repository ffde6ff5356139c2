/* Tests of the arena allocator against the fake VMM. device_lookup() below
 * is the lookup of docs/abi.md done on the host over the fake's memory: the
 * same arithmetic the instrumented PTX performs, so these tests hold the
 * allocator to the contract the instrumenter relies on. */
#include "../../src/runtime/rt_arena.h"
#include "fake_vmm.h"

#include <gsan/abi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MiB (1ull << 20)
static const uint64_t GRANULE = 2 * MiB;

static rt_arena_params small_params(uint64_t seed) {
  /* 1 GiB regions, classes from 256 B to 1 GiB */
  rt_arena_params p = {0x100000000000ull, 30, 8, 23, 0, seed, 0};
  return p;
}

typedef struct env { fake_vmm *f; rt_vmm ops; rt_arena *a; unsigned char ctx[GSAN_CTX_BYTES]; } env;

static void env_open(env *e, rt_arena_params p) {
  e->f = fake_vmm_new(GRANULE);
  e->ops = fake_vmm_ops(e->f);
  rt_status st = rt_arena_create(&e->ops, &p, &e->a);
  CHECK(st == RT_OK, "create: %s", rt_status_name(st));
  memset(e->ctx, 0, sizeof e->ctx);
  if (e->a) rt_arena_ctx(e->a, e->ctx);
}

static void env_close(env *e) {
  rt_arena_destroy(e->a);
  CHECK(fake_vmm_created_bytes(e->f) == 0, "physical memory left after destroy: %llu",
        (unsigned long long)fake_vmm_created_bytes(e->f));
  CHECK(fake_vmm_mappings(e->f) == 0, "mappings left after destroy: %d", fake_vmm_mappings(e->f));
  CHECK(fake_vmm_errors(e->f) == 0, "VMM misuse: %d", fake_vmm_errors(e->f));
  fake_vmm_free(e->f);
}

static uint64_t rd64(const unsigned char *c, int off) { uint64_t v; memcpy(&v, c + off, 8); return v; }
static uint32_t rd32(const unsigned char *c, int off) { uint32_t v; memcpy(&v, c + off, 4); return v; }

/* docs/abi.md, "The arena lookup"; returns 0, or -1 when the table read faults */
static int device_lookup(env *e, uint64_t p, uint64_t *base, uint64_t *size) {
  uint64_t ab = rd64(e->ctx, GSAN_CTX_ARENA_BASE), as = rd64(e->ctx, GSAN_CTX_ARENA_SIZE);
  uint64_t tb = rd64(e->ctx, GSAN_CTX_TABLE_BASE);
  uint32_t rs = rd32(e->ctx, GSAN_CTX_REGION_SHIFT), ms = rd32(e->ctx, GSAN_CTX_MIN_SHIFT);
  uint32_t ts = rd32(e->ctx, GSAN_CTX_TABLE_SHIFT);
  uint64_t off = p - ab;
  if (off >= as) {
    *base = 0;
    *size = GSAN_UNCHECKED_SIZE;
    return 0;
  }
  uint64_t k = off >> rs, c = k + ms, slot = (off & ((1ull << rs) - 1)) >> c;
  int ok;
  *size = fake_vmm_read64(e->f, tb + (k << ts) + slot * 8, &ok);
  *base = p & ~((1ull << c) - 1);
  return ok ? 0 : -1;
}

/* the device check for an access of w bytes at p */
static int device_check_passes(env *e, uint64_t p, uint64_t w) {
  uint64_t base, size;
  if (device_lookup(e, p, &base, &size) < 0) return -1;
  int64_t cnt = (int64_t)size - (int64_t)(w - 1);
  if (cnt < 0) cnt = 0;
  return p - base < (uint64_t)cnt;
}

static void test_sizes(void) {
  env e;
  env_open(&e, small_params(1));
  static const uint64_t sizes[] = {1, 255, 256, 257, 4000, 4096, 65536, 2 * MiB - 1, 2 * MiB, 2 * MiB + 1, 100 * MiB};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    uint64_t s = sizes[i], p;
    rt_status st = rt_arena_alloc(e.a, s, &p);
    CHECK(st == RT_OK, "alloc %llu: %s", (unsigned long long)s, rt_status_name(st));
    if (st != RT_OK) continue;
    rt_alloc_info in;
    CHECK(rt_arena_find(e.a, p + s - 1, &in) == RT_OK && in.base == p && in.size == s && in.state == RT_SLOT_LIVE,
          "find from the last byte of %llu", (unsigned long long)s);
    CHECK(p % 256 == 0 && p % in.slot_size == 0, "alignment of %llu: %llx", (unsigned long long)s, (unsigned long long)p);
    uint64_t base, size;
    CHECK(device_lookup(&e, p + s / 2, &base, &size) == 0 && base == p && size == s,
          "device lookup of %llu from its middle: base %llx size %llu", (unsigned long long)s, (unsigned long long)base,
          (unsigned long long)size);
    CHECK(device_check_passes(&e, p, 1) == 1 && device_check_passes(&e, p + s - 1, 1) == 1,
          "first and last byte of %llu", (unsigned long long)s);
    CHECK(device_check_passes(&e, p + s, 1) == 0, "one past the end of %llu", (unsigned long long)s);
    CHECK(device_check_passes(&e, p + s - 1, 2) == 0, "2 bytes straddling the end of %llu", (unsigned long long)s);
    CHECK(device_check_passes(&e, p - 1, 1) != 1, "one before %llu", (unsigned long long)s);
    CHECK(rt_arena_range_ok(e.a, p, s) && !rt_arena_range_ok(e.a, p, s + 1) && !rt_arena_range_ok(e.a, p + s, 1),
          "host range checks of %llu", (unsigned long long)s);
    CHECK(fake_vmm_is_mapped(e.f, p) && fake_vmm_is_mapped(e.f, p + s - 1), "backing of %llu", (unsigned long long)s);
  }
  uint64_t base, size;
  CHECK(device_lookup(&e, 0x1000, &base, &size) == 0 && base == 0 && size == GSAN_UNCHECKED_SIZE,
        "a pointer outside the arena is unchecked");
  env_close(&e);
}

/* rt_arena_entry: what a launch hands the kernel's launch-bounds copy
 * (rt_launch.c) must be the base and table entry the device lookup finds */
static void test_entry(void) {
  env e;
  env_open(&e, small_params(9));
  uint64_t tb = rd64(e.ctx, GSAN_CTX_TABLE_BASE), ts = rd32(e.ctx, GSAN_CTX_TABLE_SHIFT);
  static const uint64_t sizes[] = {1, 256, 4000, 65536, 3 * MiB};
  uint64_t p[5];
  for (size_t i = 0; i < 5; i++) {
    CHECK(rt_arena_alloc(e.a, sizes[i], &p[i]) == RT_OK, "alloc %llu", (unsigned long long)sizes[i]);
    uint64_t at[] = {p[i], p[i] + sizes[i] / 2, p[i] + sizes[i] - 1, p[i] + sizes[i]};
    for (size_t j = 0; j < 4; j++) {
      rt_alloc_info in;
      uint64_t base = 0, entry = 0, dbase, dsize;
      CHECK(rt_arena_find(e.a, at[j], &in) == RT_OK, "find %llx", (unsigned long long)at[j]);
      CHECK(rt_arena_entry(e.a, at[j], &base, &entry) == 1, "entry of %llx", (unsigned long long)at[j]);
      CHECK(base == in.base && entry == tb + ((uint64_t)in.cls << ts) + in.slot * 8,
            "entry of %llu-byte allocation at +%llu: base %llx entry %llx, find says base %llx class %u slot %llu",
            (unsigned long long)sizes[i], (unsigned long long)(at[j] - p[i]), (unsigned long long)base,
            (unsigned long long)entry, (unsigned long long)in.base, in.cls, (unsigned long long)in.slot);
      int ok;
      uint64_t v = fake_vmm_read64(e.f, entry, &ok);
      CHECK(device_lookup(&e, at[j], &dbase, &dsize) == 0 && ok && v == dsize && base == dbase,
            "entry of %llx reads %llu, the device lookup %llu", (unsigned long long)at[j], (unsigned long long)v,
            (unsigned long long)dsize);
    }
  }
  /* a freed allocation keeps its slot's entry, which now reads 0 */
  uint64_t base, entry;
  rt_arena_free(e.a, p[2], NULL);
  int ok;
  CHECK(rt_arena_entry(e.a, p[2] + 8, &base, &entry) == 1 && base == p[2] && fake_vmm_read64(e.f, entry, &ok) == 0,
        "freed: base %llx entry %llx", (unsigned long long)base, (unsigned long long)entry);
  uint64_t ab = rd64(e.ctx, GSAN_CTX_ARENA_BASE), as = rd64(e.ctx, GSAN_CTX_ARENA_SIZE);
  uint64_t outside[] = {0, 0x1000, ab - 1, ab + as, ~0ull};
  for (size_t i = 0; i < 5; i++) {
    rt_alloc_info in;
    CHECK(rt_arena_entry(e.a, outside[i], &base, &entry) == 0 && rt_arena_find(e.a, outside[i], &in) == RT_NOT_OURS,
          "outside: %llx", (unsigned long long)outside[i]);
  }
  env_close(&e);
}

static void test_invalid(void) {
  env e;
  env_open(&e, small_params(2));
  uint64_t p;
  CHECK(rt_arena_alloc(e.a, 0, &p) == RT_INVALID_VALUE && p == 0, "size 0 is invalid, like cuMemAlloc");
  CHECK(rt_arena_alloc(e.a, 1ull << 31, &p) == RT_OUT_OF_MEMORY && p == 0, "larger than the largest class");
  CHECK(rt_arena_alloc(e.a, 1000, &p) == RT_OK, "alloc");
  rt_alloc_info in;
  uint64_t nb, ns;
  CHECK(device_lookup(&e, p + 1024 * 64, &nb, &ns) == 0 && ns == 0,
        "a slot never allocated reads as size 0 (table pages are zeroed; fresh memory is not)");
  CHECK(rt_arena_free(e.a, p + 8, &in) == RT_INVALID_FREE, "interior pointer");
  CHECK(rt_arena_free(e.a, p + 1024 * 64, &in) == RT_INVALID_FREE, "a slot never allocated");
  CHECK(rt_arena_free(e.a, 0x1000, &in) == RT_NOT_OURS, "outside the arena");
  CHECK(rt_arena_free(e.a, p, &in) == RT_OK && in.size == 1000, "free");
  CHECK(rt_arena_free(e.a, p, &in) == RT_DOUBLE_FREE, "double free");
  CHECK(rt_arena_find(e.a, p + 10, &in) == RT_OK && in.state == RT_SLOT_FREED && in.size == 1000,
        "a freed slot keeps what it held, for the report");
  uint64_t base, size;
  CHECK(device_lookup(&e, p + 10, &base, &size) == 0 && size == 0, "device sees a freed slot as size 0");
  CHECK(device_check_passes(&e, p, 1) == 0, "use after free fails the check");
  env_close(&e);
}

static void test_no_reuse(void) {
  env e;
  env_open(&e, small_params(3));
  enum { N = 2000 };
  static uint64_t seen[N];
  int dup = 0;
  for (int i = 0; i < N; i++) {
    uint64_t p;
    CHECK(rt_arena_alloc(e.a, 1000, &p) == RT_OK, "alloc %d", i);
    for (int j = 0; j < i; j++) dup += seen[j] == p;
    seen[i] = p;
    rt_arena_free(e.a, p, NULL);
  }
  CHECK(dup == 0, "%d addresses handed out twice", dup);
  env_close(&e);
}

static void count_live(void *arg, const rt_alloc_info *info) { (void)info; ++*(int *)arg; }

/* the device heap's runs (rt_heap.c): consecutive slots, mapped, table
 * entries 0 until the device's malloc writes them; not the host's to hand
 * out, free or report as leaks */
static void test_heap_runs(void) {
  env e;
  env_open(&e, small_params(4));
  uint64_t before, first, after, base, size;
  CHECK(rt_arena_alloc(e.a, 1000, &before) == RT_OK, "alloc before the run");
  CHECK(rt_arena_reserve_run(e.a, 2, 64, &first) == RT_OK && first == before + 1024, "run of 64 1-KiB slots: %llx",
        (unsigned long long)first);
  CHECK(fake_vmm_is_mapped(e.f, first) && fake_vmm_is_mapped(e.f, first + 64 * 1024 - 1), "the run is backed");
  CHECK(device_lookup(&e, first + 5 * 1024 + 3, &base, &size) == 0 && base == first + 5 * 1024 && size == 0,
        "its table entries are 0 until a device malloc");
  rt_alloc_info in;
  CHECK(rt_arena_find(e.a, first + 63 * 1024, &in) == RT_OK && in.state == RT_SLOT_DEVHEAP, "found as the heap's");
  CHECK(rt_arena_free(e.a, first, &in) == RT_INVALID_FREE, "a host free of a heap slot is invalid");
  CHECK(rt_arena_alloc(e.a, 1000, &after) == RT_OK && after == first + 64 * 1024, "the next alloc is past the run");
  int live = 0;
  rt_arena_foreach_live(e.a, count_live, &live);
  CHECK(live == 2, "heap slots are no leaks: %d live", live);
  CHECK(rt_arena_reserve_run(e.a, 2, 1ull << 30, &first) == RT_OUT_OF_MEMORY && first == 0, "a run too long");
  CHECK(rt_arena_reserve_run(e.a, 23, 1, &first) == RT_INVALID_VALUE, "a class beyond the last");
  CHECK(rt_arena_class_shift(e.a, 2) == 10 && rt_arena_classes(e.a) == 23, "class shift and count");
  rt_arena_free(e.a, before, NULL);
  rt_arena_free(e.a, after, NULL);
  /* past a wrap of its class (1024 slots of 1 MiB), a run's slot is not
   * handed out: its blocks belong to the device */
  uint64_t slot, p;
  CHECK(rt_arena_reserve_run(e.a, 12, 1, &slot) == RT_OK, "run of one 1-MiB slot");
  int taken = 0;
  for (int i = 0; i < 1100; i++) {
    CHECK(rt_arena_alloc(e.a, 600 << 10, &p) == RT_OK, "alloc %d", i);
    taken += p == slot;
    rt_arena_free(e.a, p, NULL);
  }
  CHECK(taken == 0, "the run's slot was handed out %d times", taken);
  env_close(&e);
}

static void test_physical(void) {
  env e;
  env_open(&e, small_params(4));
  /* 8192 slots of 256 B fill one granule: at most two granules (the start is
   * random) plus one table granule */
  static uint64_t ps[8192];
  for (int i = 0; i < 8192; i++) rt_arena_alloc(e.a, 200, &ps[i]);
  rt_arena_stats st;
  rt_arena_get_stats(e.a, &st);
  CHECK(st.mapped_data_bytes <= 2 * GRANULE && st.mapped_table_bytes == GRANULE,
        "small allocations share granules: data %llu table %llu", (unsigned long long)st.mapped_data_bytes,
        (unsigned long long)st.mapped_table_bytes);
  CHECK(st.live_allocs == 8192 && st.live_bytes == 8192 * 200, "live accounting");
  for (int i = 0; i < 8192; i++) rt_arena_free(e.a, ps[i], NULL);
  rt_arena_get_stats(e.a, &st);
  CHECK(st.mapped_data_bytes <= GRANULE, "freed granules are unmapped (%llu left)",
        (unsigned long long)st.mapped_data_bytes);
  CHECK(st.spare_data_bytes >= GRANULE && st.spare_data_bytes <= 4 * GRANULE,
        "and kept as spares: %llu bytes", (unsigned long long)st.spare_data_bytes);
  /* the emptied granules' memory backs the class's next ones: 8192 more
   * slots, on addresses never used, need no new physical memory */
  uint64_t created = fake_vmm_created_bytes(e.f);
  for (int i = 0; i < 8192; i++) rt_arena_alloc(e.a, 200, &ps[i]);
  CHECK(fake_vmm_created_bytes(e.f) == created, "spare granules mapped again: %llu bytes created, %llu before",
        (unsigned long long)fake_vmm_created_bytes(e.f), (unsigned long long)created);
  for (int i = 0; i < 8192; i++) rt_arena_free(e.a, ps[i], NULL);
  /* a large allocation maps only what its size needs: the rest of its slot
   * is an unmapped guard */
  uint64_t p;
  CHECK(rt_arena_alloc(e.a, 5 * MiB, &p) == RT_OK, "alloc 5 MiB");
  CHECK(fake_vmm_is_mapped(e.f, p + 6 * MiB - 1) && !fake_vmm_is_mapped(e.f, p + 6 * MiB),
        "5 MiB maps 3 granules of its 8 MiB slot");
  rt_arena_free(e.a, p, NULL);
  CHECK(!fake_vmm_is_mapped(e.f, p), "free unmaps a large allocation");
  /* the memory of a 2-4 MiB allocation is kept (unmapped) for the next one
   * of its size, as cudaMalloc would keep it; larger memory is released */
  uint64_t q, r;
  CHECK(rt_arena_alloc(e.a, 3 * MiB, &q) == RT_OK, "alloc 3 MiB");
  created = fake_vmm_created_bytes(e.f);
  rt_arena_free(e.a, q, NULL);
  CHECK(!fake_vmm_is_mapped(e.f, q) && fake_vmm_created_bytes(e.f) == created,
        "a freed 3 MiB allocation is unmapped, its memory kept");
  CHECK(rt_arena_alloc(e.a, 3 * MiB + 5, &r) == RT_OK && r != q && fake_vmm_created_bytes(e.f) == created &&
            fake_vmm_is_mapped(e.f, r + 4 * MiB - 1),
        "the next one of that size maps the kept memory at its own slot");
  rt_arena_free(e.a, r, NULL);
  created = fake_vmm_created_bytes(e.f);
  CHECK(rt_arena_alloc(e.a, 5 * MiB, &p) == RT_OK, "alloc 5 MiB again");
  rt_arena_free(e.a, p, NULL);
  CHECK(fake_vmm_created_bytes(e.f) == created, "6 MiB of memory is released at free, not kept");
  env_close(&e);
}

static void test_out_of_memory(void) {
  env e;
  env_open(&e, small_params(5));
  uint64_t p;
  rt_arena_stats before, after;
  rt_arena_get_stats(e.a, &before);
  fake_vmm_fail_create_after(e.f, 0);
  CHECK(rt_arena_alloc(e.a, 64 * MiB, &p) == RT_OUT_OF_MEMORY && p == 0, "the driver's out of memory comes through");
  CHECK(rt_arena_last_error(e.a) == 2, "last error is CUDA_ERROR_OUT_OF_MEMORY");
  rt_arena_get_stats(e.a, &after);
  CHECK(after.live_allocs == before.live_allocs && after.mapped_data_bytes == before.mapped_data_bytes,
        "a failed allocation leaves nothing behind");
  /* the table granule succeeds, the data granule fails: the table stays, the slot does not */
  fake_vmm_fail_create_after(e.f, 1);
  CHECK(rt_arena_alloc(e.a, 300, &p) == RT_OUT_OF_MEMORY, "failure on the data granule");
  fake_vmm_fail_create_after(e.f, -1);
  CHECK(rt_arena_alloc(e.a, 300, &p) == RT_OK, "recovers once memory is there");
  env_close(&e);
  /* a class runs out of slots, then wraps to a freed one */
  rt_arena_params q = {0x100000000000ull, 21, 8, 14, 0, 6, 0};
  env_open(&e, q);
  uint64_t a1, a2, a3;
  CHECK(rt_arena_alloc(e.a, MiB - 256, &a1) == RT_OK && rt_arena_alloc(e.a, MiB - 256, &a2) == RT_OK, "both 1 MiB slots");
  CHECK(rt_arena_alloc(e.a, MiB - 256, &a3) == RT_OUT_OF_MEMORY, "the class is full");
  rt_arena_free(e.a, a1, NULL);
  CHECK(rt_arena_alloc(e.a, MiB - 256, &a3) == RT_OK && a3 == a1, "after a wrap the freed slot is reused");
  /* a kept slot (a CUDA graph's memory) stays live through frees */
  uint64_t kp;
  rt_alloc_info ki;
  CHECK(rt_arena_alloc(e.a, 100, &kp) == RT_OK && rt_arena_keep(e.a, kp) == RT_OK, "keep a live slot");
  CHECK(rt_arena_free(e.a, kp, &ki) == RT_KEPT && ki.kept && ki.state == RT_SLOT_LIVE, "a kept slot's free changes nothing");
  CHECK(rt_arena_keep(e.a, kp + 8) == RT_INVALID_FREE, "only an allocation's base is kept");
  /* a power of two takes the next class: its end pointer stays in its slot */
  rt_alloc_info in, end;
  CHECK(rt_arena_alloc(e.a, 4096, &a2) == RT_OK, "4096 bytes");
  CHECK(rt_arena_find(e.a, a2 + 4095, &in) == RT_OK && rt_arena_find(e.a, a2 + 4096, &end) == RT_OK &&
            in.base == a2 && end.base == a2 && end.slot_size == 8192,
        "one past the end of 4096 bytes is in the same 8192-byte slot");
  env_close(&e);
}

static void test_placement(void) {
  env e1, e2, e3;
  env_open(&e1, small_params(11));
  env_open(&e2, small_params(12));
  uint64_t p1, p2;
  rt_arena_alloc(e1.a, 512, &p1);
  rt_arena_alloc(e2.a, 512, &p2);
  uint64_t b1 = rd64(e1.ctx, GSAN_CTX_ARENA_BASE), b2 = rd64(e2.ctx, GSAN_CTX_ARENA_BASE);
  CHECK(p1 - b1 != p2 - b2, "different seeds start classes at different slots");
  CHECK(b1 == 0x100000000000ull, "the hint is used when granted");
  /* a region below the arena and one above it: reserved, never mapped */
  uint64_t region = 1ull << small_params(11).region_shift, size = rd64(e1.ctx, GSAN_CTX_ARENA_SIZE), rb, rs;
  CHECK(fake_vmm_reservation(e1.f, b1 - 1, &rb, &rs) && rb == b1 - region && rs == size + 2 * region,
        "the reservation holds a region below the arena and one above it");
  CHECK(rt_arena_guard(e1.a, b1 - 4) && rt_arena_guard(e1.a, b1 - region) && rt_arena_guard(e1.a, b1 + size) &&
            rt_arena_guard(e1.a, b1 + size + region - 1),
        "an address in either region is in the guard");
  CHECK(!rt_arena_guard(e1.a, b1) && !rt_arena_guard(e1.a, p1) && !rt_arena_guard(e1.a, b1 - region - 1) &&
            !rt_arena_guard(e1.a, b1 + size + region) && !rt_arena_guard(NULL, b1 - 4),
        "the arena itself and what lies past the guard are not");
  CHECK(!fake_vmm_is_mapped(e1.f, b1 - 4) && !fake_vmm_is_mapped(e1.f, b1 + size), "nothing is mapped in the guard");
  env_close(&e1);
  env_close(&e2);
  e3.f = fake_vmm_new(GRANULE);
  fake_vmm_deny_hint(e3.f, 1);
  e3.ops = fake_vmm_ops(e3.f);
  rt_arena_params p = small_params(13);
  CHECK(rt_arena_create(&e3.ops, &p, &e3.a) == RT_OK, "create without the hint");
  rt_arena_ctx(e3.a, e3.ctx);
  uint64_t b3 = rd64(e3.ctx, GSAN_CTX_ARENA_BASE), q;
  CHECK(b3 != 0x100000000000ull && b3 % (1ull << 30) == 0, "a refused hint still gives a region-aligned base");
  CHECK(rt_arena_alloc(e3.a, 777, &q) == RT_OK && device_check_passes(&e3, q + 776, 1) == 1, "works there");
  CHECK(rd32(e3.ctx, GSAN_CTX_ABI) == GSAN_ABI_VERSION, "ctx carries the ABI version");
  env_close(&e3);
}

/* ---- many host threads ---- */
typedef struct shared {
  env *e;
  pthread_mutex_t lock;
  uint64_t *live;     /* all live pointers, for duplicate detection */
  int nlive, cap, dups, errors;
} shared;

static void live_add(shared *s, uint64_t p) {
  pthread_mutex_lock(&s->lock);
  for (int i = 0; i < s->nlive; i++) s->dups += s->live[i] == p;
  if (s->nlive == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 1024;
    s->live = realloc(s->live, (size_t)s->cap * sizeof *s->live);
  }
  s->live[s->nlive++] = p;
  pthread_mutex_unlock(&s->lock);
}

static void live_del(shared *s, uint64_t p) {
  pthread_mutex_lock(&s->lock);
  for (int i = 0; i < s->nlive; i++)
    if (s->live[i] == p) { s->live[i] = s->live[--s->nlive]; break; }
  pthread_mutex_unlock(&s->lock);
}

static void *worker(void *arg) {
  shared *s = arg;
  uint64_t mine[32] = {0}, x = (uint64_t)(uintptr_t)&mine;
  for (int i = 0; i < 4000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int j = (int)((x >> 33) % 32);
    if (mine[j]) {
      live_del(s, mine[j]);
      if (rt_arena_free(s->e->a, mine[j], NULL) != RT_OK) __atomic_fetch_add(&s->errors, 1, __ATOMIC_RELAXED);
      mine[j] = 0;
    } else {
      uint64_t size = 1 + ((x >> 40) % (3 * MiB));
      if (rt_arena_alloc(s->e->a, size, &mine[j]) != RT_OK) __atomic_fetch_add(&s->errors, 1, __ATOMIC_RELAXED);
      else live_add(s, mine[j]);
    }
  }
  for (int j = 0; j < 32; j++)
    if (mine[j]) {
      live_del(s, mine[j]);
      rt_arena_free(s->e->a, mine[j], NULL);
    }
  return NULL;
}

static void test_threads(void) {
  env e;
  env_open(&e, small_params(7));
  shared s = {&e, PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, 0};
  pthread_t t[8];
  for (int i = 0; i < 8; i++) pthread_create(&t[i], NULL, worker, &s);
  for (int i = 0; i < 8; i++) pthread_join(t[i], NULL);
  rt_arena_stats st;
  rt_arena_get_stats(e.a, &st);
  CHECK(s.errors == 0 && s.dups == 0, "8 threads: %d errors, %d addresses live twice", s.errors, s.dups);
  CHECK(st.live_allocs == 0 && st.live_bytes == 0 && st.allocs == st.frees, "all freed: %llu live",
        (unsigned long long)st.live_allocs);
  free(s.live);
  env_close(&e);
}

/* a free in stream order: retired, then released */
static rt_status qfree(env *e, uint64_t p) {
  uint64_t entry;
  rt_status st = rt_arena_retire(e->a, p, NULL, &entry);
  if (st != RT_OK) return st;
  e->ops.set64(e->ops.ctx, entry, 0); /* the caller's write, on the free's stream */
  return rt_arena_release(e->a, p);
}

/* released slots held mapped and reused oldest first once the quarantine is
 * half full (rt_arena.c, "Freed slots"); rt_arena_free's never */
static void test_quarantine(void) {
  env e;
  rt_arena_params p = small_params(8);
  p.quarantine = 64 * MiB;
  env_open(&e, p);
  uint64_t a, b, x, base, size;
  /* below half the quarantine: fresh slots, the freed ones still mapped and
   * their entries saying freed */
  CHECK(rt_arena_alloc(e.a, 1000, &a) == RT_OK && qfree(&e, a) == RT_OK, "small alloc and free");
  CHECK(rt_arena_alloc(e.a, 1000, &b) == RT_OK && b != a, "not reused below half the quarantine");
  CHECK(fake_vmm_is_mapped(e.f, a) && device_lookup(&e, a, &base, &size) == 0 && size == 0,
        "a freed slot stays mapped, its entry 0");
  CHECK(qfree(&e, a) == RT_DOUBLE_FREE && rt_arena_free(e.a, a, NULL) == RT_DOUBLE_FREE,
        "a held slot freed again is a double free");
  CHECK(rt_arena_alloc(e.a, 5 * MiB, &x) == RT_OK && rt_arena_free(e.a, x, NULL) == RT_OK &&
            !fake_vmm_is_mapped(e.f, x),
        "rt_arena_free unmaps at once, quarantine or not");
  qfree(&e, b);
  /* large slots: 5 MiB maps 3 granules; six of them freed hold 36 MiB */
  uint64_t big[6];
  for (int i = 0; i < 6; i++) CHECK(rt_arena_alloc(e.a, 5 * MiB, &big[i]) == RT_OK, "alloc 5 MiB #%d", i);
  for (int i = 0; i < 6; i++) qfree(&e, big[i]);
  rt_arena_stats st;
  rt_arena_get_stats(e.a, &st);
  CHECK(st.held_bytes == 36 * MiB + 2 * 1024, "held: %llu", (unsigned long long)st.held_bytes);
  uint64_t calls = fake_vmm_map_calls(e.f), created = fake_vmm_created_bytes(e.f);
  CHECK(rt_arena_alloc(e.a, 5 * MiB - 100, &x) == RT_OK && x == big[0], "the oldest freed slot of the class reused");
  CHECK(fake_vmm_map_calls(e.f) == calls && fake_vmm_created_bytes(e.f) == created, "with no VMM call");
  CHECK(device_lookup(&e, x, &base, &size) == 0 && size == 5 * MiB - 100, "its entry holds the new size");
  rt_alloc_info in;
  CHECK(rt_arena_find(e.a, big[1], &in) == RT_OK && in.state == RT_SLOT_FREED, "the next one is still freed");
  /* a size of more granules does not take a slot mapped for fewer */
  uint64_t y;
  CHECK(rt_arena_alloc(e.a, 7 * MiB, &y) == RT_OK && y != big[1] && fake_vmm_is_mapped(e.f, y + 8 * MiB - 1),
        "7 MiB takes a fresh slot");
  qfree(&e, y);
  qfree(&e, x);
  uint64_t y2;
  CHECK(rt_arena_alloc(e.a, 7 * MiB, &y2) == RT_OK && y2 == y,
        "a size of more granules takes the first queued slot mapped for as many, behind five that are not");
  rt_arena_find(e.a, big[1], &in);
  CHECK(in.state == RT_SLOT_FREED, "those stay queued");
  qfree(&e, y2);
  /* the quarantine is a bound: churn keeps the held bytes under it */
  for (int i = 0; i < 40; i++) {
    uint64_t z;
    CHECK(rt_arena_alloc(e.a, (uint64_t)(1 + i % 3) * 5 * MiB, &z) == RT_OK, "churn %d", i);
    qfree(&e, z);
    rt_arena_get_stats(e.a, &st);
    CHECK(st.held_bytes <= 64 * MiB, "held %llu past the quarantine", (unsigned long long)st.held_bytes);
  }
  CHECK(st.reused > 0, "churn reuses slots: %llu", (unsigned long long)st.reused);
  env_close(&e);

  /* memory short while the quarantine holds some: it goes back first */
  env_open(&e, p);
  uint64_t m1, m2;
  CHECK(rt_arena_alloc(e.a, 3 * MiB, &m1) == RT_OK && qfree(&e, m1) == RT_OK, "3 MiB held");
  fake_vmm_fail_create_after(e.f, 0);
  CHECK(rt_arena_alloc(e.a, 3 * MiB + 4096, &m2) == RT_OK && m2 != m1 && !fake_vmm_is_mapped(e.f, m1),
        "with no memory to create, the held slot's memory is unmapped and mapped again for the new one");
  fake_vmm_fail_create_after(e.f, -1);
  qfree(&e, m2);
  env_close(&e);

  /* a class whose every other slot is held takes its oldest, however empty
   * the quarantine: 2 slots of 1 MiB in 2 MiB regions */
  rt_arena_params q = {0x100000000000ull, 21, 8, 14, 0, 6, 1ull << 40};
  env_open(&e, q);
  uint64_t c1, c2, c3;
  CHECK(rt_arena_alloc(e.a, 600 << 10, &c1) == RT_OK && qfree(&e, c1) == RT_OK, "first of two");
  CHECK(rt_arena_alloc(e.a, 600 << 10, &c2) == RT_OK && c2 != c1 && qfree(&e, c2) == RT_OK,
        "second of two");
  CHECK(rt_arena_alloc(e.a, 600 << 10, &c3) == RT_OK && c3 == c1, "a full class reuses its oldest");
  qfree(&e, c3);
  env_close(&e);
}

/* the allocation beside an address in no allocation (rt_arena_nearest) */
static void test_nearest(void) {
  env e;
  env_open(&e, small_params(10));
  uint64_t a, b, c;
  rt_alloc_info in;
  /* three slots of 1 KiB in a row; the middle one freed */
  CHECK(rt_arena_alloc(e.a, 1000, &a) == RT_OK && rt_arena_alloc(e.a, 1000, &b) == RT_OK &&
            rt_arena_alloc(e.a, 1000, &c) == RT_OK && b == a + 1024 && c == b + 1024,
        "three slots in a row");
  CHECK(rt_arena_nearest(e.a, a - 4, &in) == RT_OK && in.base == a && in.size == 1000,
        "4 bytes before the first: the first");
  rt_arena_free(e.a, b, NULL);
  CHECK(rt_arena_nearest(e.a, b + 8, &in) == RT_OK && in.base == a, "just past the first's slot: the first");
  CHECK(rt_arena_nearest(e.a, b + 1020, &in) == RT_OK && in.base == c, "just before the third: the third");
  CHECK(rt_arena_nearest(e.a, c + 2048 + 8, &in) == RT_NOT_OURS, "two slots past the last: none");
  CHECK(rt_arena_nearest(e.a, 0x42, &in) == RT_NOT_OURS, "outside the arena: none");
  rt_arena_free(e.a, a, NULL);
  rt_arena_free(e.a, c, NULL);
  env_close(&e);
}

/* frees in two steps (rt_arena_retire, rt_arena_release) */
static void test_retire(void) {
  for (int quarantined = 0; quarantined < 2; quarantined++) {
    env e;
    rt_arena_params p = small_params(9);
    p.quarantine = quarantined ? 64 * MiB : 0;
    env_open(&e, p);
    uint64_t a, b, entry, base, size, e2;
    rt_alloc_info in;
    CHECK(rt_arena_alloc(e.a, 3 * MiB, &a) == RT_OK, "alloc");
    CHECK(rt_arena_retire(e.a, a, &in, &entry) == RT_OK && in.base == a && in.size == 3 * MiB, "retire");
    CHECK(rt_arena_entry(e.a, a, &base, &e2) && e2 == entry, "the entry to write is the slot's");
    CHECK(device_lookup(&e, a, &base, &size) == 0 && size == 3 * MiB, "the arena does not write it");
    CHECK(fake_vmm_is_mapped(e.f, a + 4 * MiB - 1), "the memory stays mapped");
    CHECK(rt_arena_find(e.a, a, &in) == RT_OK && in.state == RT_SLOT_FREED, "freed on the host at once");
    CHECK(rt_arena_retire(e.a, a, NULL, &entry) == RT_DOUBLE_FREE && entry == 0, "retired twice: a double free");
    CHECK(rt_arena_free(e.a, a, NULL) == RT_DOUBLE_FREE, "freed after retiring: a double free");
    CHECK(rt_arena_retire(e.a, a + 8, NULL, &entry) == RT_DOUBLE_FREE, "inside a freed slot: as a free says");
    CHECK(rt_arena_alloc(e.a, 3 * MiB, &b) == RT_OK && b != a, "a retired slot is not handed out");
    CHECK(rt_arena_release(e.a, b) == RT_INVALID_VALUE, "a live slot is not released");
    CHECK(rt_arena_release(e.a, a) == RT_OK, "release");
    CHECK(rt_arena_release(e.a, a) == RT_INVALID_VALUE, "released twice");
    CHECK(fake_vmm_is_mapped(e.f, a) == quarantined, quarantined ? "held in the quarantine" : "unmapped without one");
    rt_arena_free(e.a, b, NULL);
    rt_arena_stats st;
    rt_arena_get_stats(e.a, &st);
    CHECK(st.live_allocs == 0 && st.held_bytes == (quarantined ? 4 * MiB : 0), "counts: live %llu held %llu",
          (unsigned long long)st.live_allocs, (unsigned long long)st.held_bytes);
    /* destroyed with a slot still retired: nothing left behind */
    CHECK(rt_arena_alloc(e.a, 1000, &a) == RT_OK && rt_arena_retire(e.a, a, NULL, &entry) == RT_OK, "retire small");
    env_close(&e);
  }
}

int main(void) {
  struct { const char *name; void (*fn)(void); } tests[] = {
      {"sizes, alignment and the device lookup", test_sizes},
      {"launch entries: base and slot table entry", test_entry},
      {"invalid frees and use after free", test_invalid},
      {"no reuse before a wrap", test_no_reuse},
      {"device-heap runs", test_heap_runs},
      {"physical memory: packing, guards, release", test_physical},
      {"out of memory and class exhaustion", test_out_of_memory},
      {"placement: hint, seeds, ctx", test_placement},
      {"8 host threads", test_threads},
      {"quarantine: freed slots held and reused", test_quarantine},
      {"frees in two steps: retire, release", test_retire},
      {"the allocation nearest to an address in none", test_nearest},
  };
  int passed = 0, failed = 0;
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    int before = failures;
    tests[i].fn();
    if (failures == before) {
      printf("ok - %s\n", tests[i].name);
      passed++;
    } else {
      printf("FAIL - %s\n", tests[i].name);
      failed++;
    }
  }
  printf("%d checks; %d passed, %d failed\n", checks, passed, failed);
  return failed != 0;
}
