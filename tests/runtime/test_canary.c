/* Canaries and guard gaps (rt_canary.c) against the fake driver, under gsan
 * run: a "kernel" gsan did not instrument is a cuLaunchKernel whose function
 * is its name (the fake's cuFuncGetName gives it back), and its write past
 * an allocation's end is the fake's fake_kernel_write into mapped memory.
 * Usage: test_canary clean|layout|reads|free|odd|sync|exit|monitor|late|stream|fault|churn|limit|reset-unseen|reset-unseen-exit */
#include "driver.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


static CUresult (*Alloc)(CUdeviceptr *, size_t);
static CUresult (*Free)(CUdeviceptr);
static CUresult (*Sync)(void);
static CUresult (*SetD8)(CUdeviceptr, unsigned char, size_t);
static CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                          void **, void **);
static int (*kwrite)(uint64_t, const void *, size_t);
static int (*kread)(uint64_t, void *, size_t);
static int (*mapped)(uint64_t);

/* a launch of the kernel called name, with p as its pointer parameter */
static CUresult launch(const char *name, CUdeviceptr p) {
  int n = 1000;
  void *args[] = {&p, &n};
  return Launch((CUfunction)(uintptr_t)name, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
}

/* what the uninstrumented kernel "overflow(float*, int)" does: one byte
 * written `past` bytes after the end of the size-byte allocation at p */
static void overflow(CUdeviceptr p, size_t size, size_t past) {
  unsigned char v = 0;
  printf("launch: %d\n", launch("_Z8overflowPfi", p));
  kwrite(p + size + past, &v, 1);
}

int main(int argc, char **argv) {
  void *h = drv_open();
  if (!h) return 2;
  CUresult (*Init)(unsigned) = get("cuInit");
  Init(0);
  *(void **)&Alloc = get("cuMemAlloc");
  *(void **)&Free = get("cuMemFree");
  *(void **)&Sync = get("cuCtxSynchronize");
  *(void **)&SetD8 = get("cuMemsetD8");
  *(void **)&Launch = get("cuLaunchKernel");
  *(void **)&kwrite = dlsym(h, "fake_kernel_write");
  *(void **)&kread = dlsym(h, "fake_kernel_read");
  *(void **)&mapped = dlsym(h, "fake_mapped");
  const char *sc = argc > 1 ? argv[1] : "clean";
  CUdeviceptr a = 0;
  printf("cuMemAlloc(4000): %d\n", Alloc(&a, 4000));
  if (!strcmp(sc, "clean")) {
    /* sizes of every layout: small classes, an exact power of two, a large
     * class with slack, granule multiples; each set whole, used by kernels */
    static const size_t sizes[] = {1, 7, 256, 4096, 65536, 3u << 20, 2u << 20, 4u << 20};
    CUdeviceptr p[8];
    for (int i = 0; i < 8; i++) {
      Alloc(&p[i], sizes[i]);
      SetD8(p[i], 0xff, sizes[i]);
    }
    for (int k = 0; k < 50; k++) launch("_Z5cleanPfi", p[k % 8]);
    /* a kernel writing its allocation's last byte, as a correct one may */
    unsigned char v = 0xee;
    kwrite(p[1] + sizes[1] - 1, &v, 1);
    printf("sync: %d\n", Sync());
    for (int i = 0; i < 8; i++) printf("free of %zu: %d\n", sizes[i], Free(p[i]));
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "layout")) {
    /* the canary right after a 4000-byte allocation; none after 3 bytes of
     * a 7-byte one (the word is 8-aligned); a 2 MiB allocation ends at an
     * unmapped gap, a 3 MiB one has 1 MiB of slack */
    /* the fake fills new memory with 0xa5: a canary is anything else */
    const uint64_t fill = 0xa5a5a5a5a5a5a5a5ull;
    uint64_t w[4] = {0, 0, 0, 0};
    CUdeviceptr b, c, d;
    Alloc(&b, 2u << 20);
    Alloc(&c, 3u << 20);
    Alloc(&d, 7);
    CUdeviceptr e, f;
    Alloc(&e, 4004);
    Alloc(&f, 4001);
    /* the words are gathered with the slot-table entries: on the device
     * before the next launch */
    launch("_Z4noopPfi", a);
    kread(a + 4000, w, 32);
    printf("4000 bytes: canary words at the end: %s\n", w[0] != fill && w[3] != fill && w[0] != w[1] ? "yes" : "NO");
    printf("2 MiB: last byte mapped: %s, the byte after: %s\n", mapped(b + (2u << 20) - 1) ? "yes" : "no",
           mapped(b + (2u << 20)) ? "mapped" : "unmapped");
    kread(c + (3u << 20), w, 8);
    printf("3 MiB: the byte after mapped: %s, canary there: %s\n", mapped(c + (3u << 20)) ? "yes" : "no",
           w[0] != fill ? "yes" : "NO");
    kread(d + 8, w, 8);
    printf("7 bytes: canary from byte 8: %s\n", w[0] != fill ? "yes" : "NO");
    uint32_t h4 = 0, z4 = 0;
    kread(e + 4004, &h4, 4);
    kread(f + 4001, &z4, 3);
    printf("4004 bytes: canary from byte 4004: %s; 4001 bytes: bytes 4001-4003 left as they were: %s\n",
           h4 != (uint32_t)fill ? "yes" : "NO", z4 == 0xa5a5a5 ? "yes" : "NO");
    kread(f + 4004, &h4, 4);
    printf("4001 bytes: canary from byte 4004: %s\n", h4 != (uint32_t)fill ? "yes" : "NO");
    Free(b), Free(c), Free(d), Free(e), Free(f);
    Free(a);
  } else if (!strcmp(sc, "reads")) {
    /* what the checks cost: no read for allocations no kernel ran after */
    int *reads = dlsym(h, "fake_dtoh_reads");
    CUdeviceptr p[100];
    for (int i = 0; i < 100; i++) Alloc(&p[i], 64);
    for (int i = 0; i < 100; i++) Free(p[i]);
    printf("100 frees, no launch: %d reads\n", *reads);
    for (int i = 0; i < 100; i++) Alloc(&p[i], 64);
    launch("_Z5cleanPfi", p[0]);
    for (int i = 0; i < 100; i++) Free(p[i]);
    printf("100 frees after a launch: %d reads\n", *reads);
    Sync();
    printf("a synchronisation with nothing launched since: %d reads\n", *reads);
    Free(a);
  } else if (!strcmp(sc, "free")) {
    overflow(a, 4000, 3);
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "many")) {
    /* 300 other kernels launched first: the overflowing one is still named */
    static char names[300][16];
    for (int k = 0; k < 300; k++) {
      snprintf(names[k], sizeof names[k], "_Z4k%03dPfi", k);
      launch(names[k], a);
    }
    overflow(a, 4000, 2);
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "ordered")) {
    /* a free in stream order: the canary is read back once the stream has
     * passed the free (here, at exit), without a wait of its own */
    CUresult (*AllocAsync)(CUdeviceptr *, size_t, CUstream) = get("cuMemAllocAsync");
    CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync");
    CUstream s = (CUstream)(uintptr_t)0x77;
    CUdeviceptr o;
    printf("cuMemAllocAsync(4000): %d\n", AllocAsync(&o, 4000, s));
    overflow(o, 4000, 5);
    printf("cuMemFreeAsync: %d\n", FreeAsync(o, s));
    printf("nothing reported before its stream passed the free\n");
    fflush(stdout);
  } else if (!strcmp(sc, "odd")) {
    /* one float past an odd count of them: the 4 bytes right after the end */
    CUdeviceptr o;
    Alloc(&o, 1001 * 4);
    overflow(o, 4004, 0);
    printf("free: %d\n", Free(o));
  } else if (!strcmp(sc, "sync")) {
    overflow(a, 4000, 9);
    printf("sync: %d\n", Sync());
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "exit")) {
    overflow(a, 4000, 0);
    printf("leaving it allocated\n");
  } else if (!strcmp(sc, "monitor")) {
    /* 70 newer allocations push a out of the recently used list: the
     * launch's pointer parameter brings it back */
    CUdeviceptr more[70];
    for (int i = 0; i < 70; i++) Alloc(&more[i], 64);
    overflow(a, 4000, 1);
    printf("no synchronisation for 300 ms\n");
    fflush(stdout);
    usleep(300000);
    printf("awake\n");
    fflush(stdout);
    Free(a);
  } else if (!strcmp(sc, "late")) {
    /* a kernel still running when the monitor looks: its canary is intact
     * then and broken after (the late write); the free must still read it */
    printf("launch: %d\n", launch("_Z8overflowPfi", a));
    fflush(stdout);
    usleep(300000);
    unsigned char v = 0;
    kwrite(a + 4000 + 2, &v, 1);
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "stream")) {
    /* a kernel on one stream, a wait for another: the canary is intact at
     * the wait and broken after (the kernel still runs); the free must still
     * read it */
    CUresult (*StreamSync)(CUstream) = get("cuStreamSynchronize");
    printf("launch: %d\n", launch("_Z8overflowPfi", a));
    CUdeviceptr other;
    Alloc(&other, 64);
    printf("free(other): %d\n", Free(other));
    printf("cuStreamSynchronize(other): %d\n", StreamSync((CUstream)0x42));
    fflush(stdout);
    unsigned char v = 0;
    kwrite(a + 4000 + 3, &v, 1);
    printf("free: %d\n", Free(a));
  } else if (!strcmp(sc, "churn")) {
    /* a granule's worth of 64 KiB allocations freed at once unmaps it while
     * the last canary words for it may still be gathered: every later call
     * must still succeed (on the H100 the next batch of writes was refused) */
    int bad = 0;
    for (int round = 0; round < 40; round++) {
      CUdeviceptr q[40];
      for (int i = 0; i < 40; i++) bad += Alloc(&q[i], 65536) != CUDA_SUCCESS;
      for (int i = 0; i < 40; i++) bad += Free(q[i]) != CUDA_SUCCESS;
    }
    bad += launch("_Z5cleanPfi", a) != CUDA_SUCCESS;
    bad += Sync() != CUDA_SUCCESS;
    printf("churn: %d failed calls\n", bad);
    Free(a);
  } else if (!strcmp(sc, "limit")) {
    /* a host API report (a double free, refused), then a broken canary
     * found at a free: report_limit and halt_on_error apply to both */
    CUdeviceptr d;
    Alloc(&d, 64);
    Free(d);
    printf("second free: %d\n", Free(d));
    overflow(a, 4000, 3);
    printf("free: %d\n", Free(a));
    printf("done\n");
  } else if (!strcmp(sc, "reset-unseen-exit")) {
    /* the same reset, and the program ends at once: gsan's checks at exit
     * must leave the old context alone too */
    CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync");
    CUdeviceptr b;
    Alloc(&b, 64);
    printf("launch: %d\n", launch("_Z5cleanPfi", a));
    printf("cuMemFreeAsync: %d\n", FreeAsync(b, (CUstream)0x42));
    ((int *)dlsym(h, "fake_ctx_gen"))[0]++;
    printf("reset unseen; exiting\n");
  } else if (!strcmp(sc, "reset-unseen")) {
    /* device 0's context reset as cudart resets it, past gsan's hook (the
     * fake's generation bumped) while a kernel's allocation waits for a
     * check and a stream-ordered free for its event: the monitor must leave
     * the old context's stream and events alone (the fake aborts on them)
     * until the program's next call finds the new context */
    CUresult (*FreeAsync)(CUdeviceptr, CUstream) = get("cuMemFreeAsync");
    CUdeviceptr b, c;
    Alloc(&b, 64);
    printf("launch: %d\n", launch("_Z5cleanPfi", a));
    printf("cuMemFreeAsync: %d\n", FreeAsync(b, (CUstream)0x42));
    ((int *)dlsym(h, "fake_ctx_gen"))[0]++;
    printf("reset unseen; no call for 300 ms\n");
    fflush(stdout);
    usleep(300000);
    printf("awake\n");
    fflush(stdout);
    printf("cuMemAlloc after the reset: %d\n", Alloc(&c, 100));
    printf("its free: %d\n", Free(c));
  } else if (!strcmp(sc, "fault")) {
    CUdeviceptr big;
    printf("cuMemAlloc(2 MiB): %d\n", Alloc(&big, 2u << 20));
    printf("launch: %d\n", launch("_Z8past_gapPfi", big));
    *(int *)dlsym(h, "fake_illegal_address") = 1;
    printf("sync: %d\n", Sync());
  }
  return 0;
}
