/* Binary mode's records on the CPU: the record gsan's Sanitizer API patch
 * writes for a SASS-only kernel (include/gsan/abi.h, "Binary mode") is
 * decoded without a site table and printed through the same report path as
 * instrumented code's. The lit test (binary.test) holds the output.
 * Usage: test_binary overflow | uaf | json | repeats | plain | shared | local
 *        | heap-overflow | heap-uaf | double-free | invalid-free | probe-ptx */
#include "../../src/runtime/rt_arena.h"
#include "../../src/runtime/rt_binary.h"
#include "../../src/runtime/rt_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_vmm.h"

static const rt_stack alloc_stack = {2, {"cudaMalloc", "main overflow.cu:20"}};
static const rt_stack free_stack = {2, {"cudaFree", "main overflow.cu:24"}};

static void print_leak(void *arg, const rt_leak *l) {
  (void)arg;
  printf("leak: %llu bytes at 0x%llx, allocated by device thread (%u,%u,%u) block (%u,%u,%u)\n",
         (unsigned long long)l->size, (unsigned long long)l->addr, l->dev_allocated->tid[0], l->dev_allocated->tid[1],
         l->dev_allocated->tid[2], l->dev_allocated->ctaid[0], l->dev_allocated->ctaid[1], l->dev_allocated->ctaid[2]);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s overflow|uaf|json|repeats|plain\n", argv[0]);
    return 2;
  }
  const char *sc = argv[1];
  if (!strcmp(sc, "probe-ptx")) { /* the probe kernel's PTX, for ptxas */
    fputs(rt_binary_probe_ptx, stdout);
    return 0;
  }
  static rt_log log;
  rt_log_init(&log, stdout, !strcmp(sc, "json"), 4242);
  /* two kernels launched: the second one fails */
  rt_binary_kernel_index("_Z5firstPf");
  uint32_t k = rt_binary_kernel_index("_Z8overflowPii");
  if (rt_binary_kernel_index("_Z8overflowPii") != k) {
    printf("the same kernel got two indices\n");
    return 1;
  }
  int uaf = !strcmp(sc, "uaf");
  gsan_record rec;
  memset(&rec, 0, sizeof rec);
  rec.module_id = gsan_binary_module(k, uaf ? GSAN_ACCESS_READ : GSAN_ACCESS_WRITE, 2, GSAN_BINARY_GLOBAL);
  rec.site = 0x1f0;
  rec.base = 0x100000004000ull;
  rec.addr = rec.base + (uaf ? 8 : 116);
  rec.size = uaf ? 0 : 100;
  rec.tid[0] = 29, rec.ctaid[0] = 1;
  rt_site s;
  if (!strcmp(sc, "plain")) {
    /* a hashed module id of instrumented code is not binary mode's */
    rec.module_id = 0x1234abcd5678ef01ull;
    printf("plain: %s\n", rt_binary_site(&rec, &s) ? "binary" : "not binary");
    return 0;
  }
  /* shared: a window offset 4 bytes past the block's 1324 bytes (from 0x400);
   * local: past the top of a 1024-byte stack */
  if (!strcmp(sc, "shared")) {
    rec.module_id = gsan_binary_module(k, GSAN_ACCESS_WRITE, 2, GSAN_BINARY_SHARED);
    rec.base = 0x400, rec.size = 1324, rec.addr = 0x400 + 1328;
  } else if (!strcmp(sc, "local")) {
    rec.module_id = gsan_binary_module(k, GSAN_ACCESS_WRITE, 2, GSAN_BINARY_LOCAL);
    rec.base = 0, rec.size = 1024, rec.addr = 1024;
  }
  /* the device heap: a 40-byte block at 0x7f0000001000, allocated by thread
   * (3,0,0) of block (2,0,0), as the patch's malloc callback records it */
  static gsan_bheap_block blocks[GSAN_BHEAP_BLOCKS];
  const uint64_t block = 0x7f0000001000ull;
  gsan_bheap_block *b = &blocks[gsan_bheap_block_slot(block)];
  b->ptr = block, b->size = 40, b->tid[0] = 3, b->ctaid[0] = 2;
  b->state = !strcmp(sc, "heap-uaf") || !strcmp(sc, "double-free") ? GSAN_HEAP_FREED : GSAN_HEAP_LIVE;
  rt_binary_set_heap(0, blocks);
  if (!strcmp(sc, "heap-overflow") || !strcmp(sc, "heap-uaf")) {
    int freed = !strcmp(sc, "heap-uaf");
    rec.module_id = gsan_binary_module(k, GSAN_ACCESS_READ, 3, freed ? GSAN_BINARY_HEAP_FREED : GSAN_BINARY_HEAP);
    rec.base = block, rec.size = 40, rec.addr = block + (freed ? 8 : 40);
  } else if (!strcmp(sc, "double-free") || !strcmp(sc, "invalid-free")) {
    rec.module_id = gsan_binary_module(k, GSAN_ACCESS_FREE, 3, GSAN_BINARY_GLOBAL);
    rec.base = 0, rec.addr = block + (!strcmp(sc, "invalid-free") ? 16 : 0);
    rec.size = !strcmp(sc, "invalid-free") ? GSAN_HEAP_INVALID_FREE : GSAN_HEAP_DOUBLE_FREE;
  }
  if (!rt_binary_site(&rec, &s)) {
    printf("not decoded\n");
    return 1;
  }
  /* as the drain's sink does (rt_drain.c) */
  rt_region reg = {rec.base, uaf ? 100 : rec.size, NULL, GSAN_SPACE_GLOBAL, &alloc_stack, uaf ? &free_stack : NULL, 0, NULL};
  int state = uaf ? RT_SLOT_FREED : RT_SLOT_LIVE;
  rt_dev_origin origin;
  if (s.root != GSAN_ROOT_ARENA) {
    reg.name = s.root_name, reg.space = s.root_space, reg.allocated = NULL;
  } else if (rt_binary_explain(&s, &rec, &reg, &origin, &state)) {
    reg.allocated = NULL;
  }
  rt_report_kind kind = rt_classify_device(&s, &rec, state);
  if (!strcmp(sc, "beside")) {
    /* an arena of 1 KiB slots on the fake VMM, a 1000-byte allocation in
     * one; the read 4 bytes before it lands in the empty slot below */
    fake_vmm *f = fake_vmm_new(2ull << 20);
    rt_vmm ops = fake_vmm_ops(f);
    rt_arena_params p = {0x100000000000ull, 30, 8, 23, 0, 7, 0};
    rt_arena *a;
    uint64_t base;
    if (rt_arena_create(&ops, &p, &a) != RT_OK || rt_arena_alloc(a, 1000, &base) != RT_OK) return 1;
    rec.addr = base - 4, rec.base = base - 1024, rec.size = 0;
    if (rt_binary_beside(&rec, a, &reg)) kind = RT_KIND_GLOBAL_BUFFER_OVERFLOW;
    reg.freed = NULL;
    printf("wild by its address; beside a live allocation: %s\n", rt_report_kind_name(kind));
    rec.addr = base + 3 * 1024; /* two slots past: beside none */
    rt_region none = reg;
    printf("two slots past it: %s\n", rt_binary_beside(&rec, a, &none) ? "beside one" : "beside none");
    rec.addr = base - 4;
    rt_err_device e = {kind, rec, s, reg, 0, 0};
    rt_report_device(&log, &e);
    rt_arena_destroy(a);
    fake_vmm_free(f);
    return 0;
  }
  if (!strcmp(sc, "guard")) {
    /* an index that ran 4 KiB below the arena: the patch reports it (base
     * and size 0) and the drain says where it is (rt_device_guard) */
    fake_vmm *f = fake_vmm_new(2ull << 20);
    rt_vmm ops = fake_vmm_ops(f);
    rt_arena_params p = {0x100000000000ull, 30, 8, 23, 0, 7, 0};
    rt_arena *a;
    if (rt_arena_create(&ops, &p, &a) != RT_OK) return 1;
    rec.addr = 0x100000000000ull - 4096, rec.base = 0, rec.size = 0;
    kind = rt_classify_device(&s, &rec, RT_SLOT_LIVE);
    rt_region none = {0, 0, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0, NULL};
    printf("below the arena: %s, beside %s\n", rt_report_kind_name(kind),
           rt_binary_beside(&rec, a, &none) ? "an allocation" : "none");
    rt_err_device e = {kind, rec, s, none, 0, rt_arena_guard(a, rec.addr)};
    rt_report_device(&log, &e);
    rt_arena_destroy(a);
    fake_vmm_free(f);
    return 0;
  }
  if (!strcmp(sc, "repeats")) {
    rt_err_repeats e = {rt_report_kind_name(kind), &s, 4000, 1};
    rt_report_repeats(&log, &e);
    return 0;
  }
  /* the leaks the heap record gives at exit: the live block */
  if (!strcmp(sc, "heap-overflow")) rt_binary_heap_leaks(print_leak, NULL);
  rt_err_device e = {kind, rec, s, reg, 0, 0};
  rt_report_device(&log, &e);
  return 0;
}
