/* Launch bounds (rt_launch.c) against the fake driver, under gsan run: a
 * kernel and its launch-bounds copy are functions the test declares in a
 * fake module or library (fake_add_function), and the fake's launch keeps
 * the function it got and its parameter bytes. The test prints what was
 * launched, whether the kernel's own parameters reached it unchanged, and
 * each entry of __gsan_lb: the allocation its base is, and what its slot
 * table entry holds (read from the fake's device memory, as the copy reads
 * it), or "unchecked" for {0, 0}.
 * Usage: test_launch copy|extra|kernel|fallback|reuse */
#define DRV_VERSION 12080
#include "driver.h"

#include <gsan/abi.h>
#include <stdint.h>
#include <string.h>

static CUresult (*Alloc)(CUdeviceptr *, size_t);
static CUresult (*Free)(CUdeviceptr);
static CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                          void **, void **);
static CUresult (*LaunchEx)(const CUlaunchConfig *, CUfunction, void **, void **);
static CUresult (*LaunchCoop)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **);
static CUresult (*ModuleUnload)(CUmodule);
static CUresult (*LibraryUnload)(CUlibrary);
static void *(*add_fn)(uintptr_t, int, const char *, size_t, const size_t *, const size_t *);
static const char *(*fn_name)(const void *);
static const void **launched;
static unsigned char *params;
static size_t *nbytes;
static int (*kread)(uint64_t, void *, size_t);
static int *no_context;

/* the kernel of every scenario: step(float *, const float *, long, int) */
#define STEP "_Z4stepPfPKfli"
static const size_t step_off[] = {0, 8, 16, 24, 32}, step_size[] = {8, 8, 8, 4, 64};

typedef struct named { const char *name; CUdeviceptr p; } named;
static named allocs[4];

/* step and its copy (W = 4) in module or library owner */
static void *declare_step(uintptr_t owner, int kernel) {
  void *k = add_fn(owner, kernel, STEP, 4, step_off, step_size);
  add_fn(owner, kernel, GSAN_LAUNCH_PREFIX STEP, 5, step_off, step_size);
  return k;
}

/* the launch of step with its parameters as kernelParams; via: 0
 * cuLaunchKernel, 1 cuLaunchKernelEx, 2 cuLaunchCooperativeKernel */
static CUdeviceptr p0, p1;
static long n = 7;
static int m = 3;
static CUresult launch_step(void *f, int via) {
  void *args[] = {&p0, &p1, &n, &m};
  CUlaunchConfig c = {1, 1, 1, 32, 1, 1, 0, NULL, NULL, 0};
  if (via == 1) return LaunchEx(&c, (CUfunction)f, args, NULL);
  if (via == 2) return LaunchCoop((CUfunction)f, 1, 1, 1, 32, 1, 1, 0, NULL, args);
  return Launch((CUfunction)f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
}

/* step's parameter bytes as the driver lays them out */
static void step_bytes(unsigned char out[28]) {
  memcpy(out, &p0, 8);
  memcpy(out + 8, &p1, 8);
  memcpy(out + 16, &n, 8);
  memcpy(out + 24, &m, 4);
}

static void show(const char *what, CUresult r) {
  printf("%s: %d, launched %s, %zu bytes of parameters\n", what, (int)r, fn_name(*launched), *nbytes);
  if (strncmp(fn_name(*launched), GSAN_LAUNCH_PREFIX, strlen(GSAN_LAUNCH_PREFIX))) return;
  unsigned char want[28];
  step_bytes(want);
  printf("  step's parameters intact: %s\n", memcmp(params, want, 28) ? "no" : "yes");
  for (unsigned w = 0; w < 4; w++) {
    gsan_launch_entry e;
    memcpy(&e, params + 32 + 16 * w, sizeof e);
    if (!e.base && !e.entry) {
      printf("  word %u: unchecked\n", w);
      continue;
    }
    const char *base = "(another address)";
    for (int i = 0; i < 4; i++)
      if (allocs[i].name && allocs[i].p == e.base) base = allocs[i].name;
    uint64_t size = 0;
    int ok = e.entry && kread(e.entry, &size, 8) == 0;
    printf("  word %u: base %s, entry %s %llu\n", w, base, ok ? "holds" : "unreadable", (unsigned long long)size);
  }
}

/* the kernels whose copies do not fit: each launched as itself */
static void fallback(void) {
  p0 = allocs[0].p;
  p1 = allocs[1].p;
  static const struct {
    const char *name, *why;
    size_t n, off[6], size[6];
  } bad[] = {
      {"_Z2k1v", "a parameter of another size", 5, {0, 8, 16, 24, 32}, {8, 4, 8, 4, 64}},
      {"_Z2k2v", "two parameters more", 6, {0, 8, 16, 24, 32, 96}, {8, 8, 8, 4, 64, 16}},
      {"_Z2k3v", "__gsan_lb not 8-aligned", 5, {0, 8, 16, 24, 36}, {8, 8, 8, 4, 64}},
      {"_Z2k4v", "__gsan_lb over step's last parameter", 5, {0, 8, 16, 24, 24}, {8, 8, 8, 4, 64}},
      {"_Z2k5v", "__gsan_lb not whole entries", 5, {0, 8, 16, 24, 32}, {8, 8, 8, 4, 40}},
      {"_Z2k6v", "past GSAN_LAUNCH_MAX_BYTES", 5, {0, 8, 16, 24, 32}, {8, 8, 8, 4, 4080}},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    void *k = add_fn(0x4100 + i, 0, bad[i].name, 4, step_off, step_size);
    char copy[64];
    snprintf(copy, sizeof copy, GSAN_LAUNCH_PREFIX "%s", bad[i].name);
    add_fn(0x4100 + i, 0, copy, bad[i].n, bad[i].off, bad[i].size);
    show(bad[i].why, launch_step(k, 0));
  }
  show("no copy", launch_step(add_fn(0x4200, 0, "_Z2k7v", 4, step_off, step_size), 0));
  void *k = declare_step(0x4300, 0);
  *no_context = 1;
  show("no current context", launch_step(k, 0));
  *no_context = 0;
  show("with a context again", launch_step(k, 0));
}

int main(int argc, char **argv) {
  void *h = drv_open();
  if (!h) return 2;
  CUresult (*Init)(unsigned) = get("cuInit");
  Init(0);
  *(void **)&Alloc = get("cuMemAlloc");
  *(void **)&Free = get("cuMemFree");
  *(void **)&Launch = get("cuLaunchKernel");
  *(void **)&LaunchEx = get("cuLaunchKernelEx");
  *(void **)&LaunchCoop = get("cuLaunchCooperativeKernel");
  *(void **)&ModuleUnload = get("cuModuleUnload");
  *(void **)&LibraryUnload = get("cuLibraryUnload");
  *(void **)&add_fn = dlsym(h, "fake_add_function");
  *(void **)&fn_name = dlsym(h, "fake_function_name");
  *(void **)&launched = dlsym(h, "fake_launched");
  *(void **)&params = dlsym(h, "fake_launch_params");
  *(void **)&nbytes = dlsym(h, "fake_launch_bytes");
  *(void **)&kread = dlsym(h, "fake_kernel_read");
  *(void **)&no_context = dlsym(h, "fake_no_context");
  const char *sc = argc > 1 ? argv[1] : "copy";
  static const size_t sizes[] = {4000, 65536, 256};
  static const char *const names[] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    allocs[i].name = names[i];
    printf("cuMemAlloc(%zu): %d\n", sizes[i], (int)Alloc(&allocs[i].p, sizes[i]));
  }
  if (!strcmp(sc, "copy")) {
    void *k = declare_step(0x4000, 0);
    /* an interior pointer, a pointer outside the arena; scalars after */
    p0 = allocs[0].p + 100;
    p1 = 0x7f0000001000ull;
    show("cuLaunchKernel", launch_step(k, 0));
    p1 = allocs[1].p + 65535;
    show("cuLaunchKernelEx", launch_step(k, 1));
    Free(allocs[2].p);
    p1 = allocs[2].p;
    show("cuLaunchCooperativeKernel, c freed", launch_step(k, 2));
  } else if (!strcmp(sc, "extra")) {
    void *k = declare_step(0x4000, 0);
    p0 = allocs[0].p;
    p1 = allocs[1].p + 8;
    unsigned char buf[32] = {0};
    step_bytes(buf);
    size_t size = sizeof buf;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    show("extra buffer", Launch((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
    printf("  bytes 28-31: %u %u %u %u\n", params[28], params[29], params[30], params[31]);
    size = 8; /* a buffer that ends after the first word */
    show("8-byte buffer", Launch((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
    int zero = 1;
    for (int i = 8; i < 32; i++) zero &= params[i] == 0;
    printf("  first 8 bytes given: %s, then zeros to __gsan_lb: %s\n", memcmp(params, buf, 8) ? "no" : "yes",
           zero ? "yes" : "no");
    void *odd[] = {(void *)(uintptr_t)0x7, buf, CU_LAUNCH_PARAM_END};
    show("unknown extra key", Launch((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, odd));
  } else if (!strcmp(sc, "kernel")) {
    /* cudart's launch of a library's CUkernel, cast to a CUfunction */
    void *k = declare_step(0x7700, 1);
    p0 = allocs[1].p + 4;
    p1 = allocs[0].p;
    show("CUkernel", launch_step(k, 0));
  } else if (!strcmp(sc, "fallback")) {
    fallback();
  } else if (!strcmp(sc, "reuse")) {
    /* an unloaded module's handles given out again, to a module with no copy */
    p0 = allocs[0].p;
    p1 = allocs[1].p;
    void *k = declare_step(0x4000, 0);
    show("module", launch_step(k, 0));
    printf("cuModuleUnload: %d\n", (int)ModuleUnload((CUmodule)(uintptr_t)0x4000));
    void *again = add_fn(0x4001, 0, STEP, 4, step_off, step_size);
    printf("same handle: %s\n", again == k ? "yes" : "no");
    show("module loaded again", launch_step(again, 0));
    void *kk = declare_step(0x7700, 1);
    show("library", launch_step(kk, 0));
    printf("cuLibraryUnload: %d\n", (int)LibraryUnload((CUlibrary)(uintptr_t)0x7700));
    again = add_fn(0x7701, 1, STEP, 4, step_off, step_size);
    printf("same handle: %s\n", again == kk ? "yes" : "no");
    show("library loaded again", launch_step(again, 0));
  }
  for (int i = 0; i < 3; i++)
    if (strcmp(sc, "copy") || i != 2) Free(allocs[i].p);
  return 0;
}
