/* Launch bounds (rt_launch.c) against the fake driver, under gsan run: a
 * kernel and its launch-bounds copy are functions the test declares in a
 * fake module or library (fake_add_function), and the fake's launch keeps
 * the function it got and its parameter bytes. The test prints what was
 * launched, whether the kernel's own parameters reached it unchanged, and
 * each entry of __gsan_lb: the allocation its base is, and what its slot
 * table entry holds (read from the fake's device memory, as the copy reads
 * it), or "unchecked" for {0, 0}.
 * Scenario proven: step also has a proven copy (__gsan_lp_) and a facts
 * blob (__gsan_lpf_, a global of the fake's) that the test writes, and each
 * launch prints only which copy it got.
 * Usage: test_launch copy|extra|kernel|fallback|reuse|proven */
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

/* ---- launch proofs (scenario proven) ---- */
static int (*add_global)(uintptr_t, const char *, const void *, size_t);
static int (*set_regs)(const void *, int);
static CUresult *capturing_error;
static int *global_reads;

/* step's facts, as the instrumenter writes them for
 *   int i = blockIdx.x * blockDim.x + threadIdx.x;
 *   if (i < m) p0[i] = ...;
 * (mul.lo.s32, add.s32, then mul.wide.s32 by 4 and add.s64 to the pointer):
 * one fact, bytes [A, A + 4) inside the allocation of parameter word 0,
 * A = p0 + 4 * (ctaid.x * ntid.x + tid.x), under the guard "i < m" (m:
 * step's parameter 3, an int) */
enum { N_CTAID, N_NTID, N_MUL, N_TID, N_I, N_FOUR, N_OFF, N_P0, N_A, N_M, NODES };
typedef struct step_facts {
  gsan_facts_header h;
  gsan_fact_node node[NODES];
  gsan_fact_cond cond[1];
  gsan_fact fact[1];
} step_facts;

static void build_facts(step_facts *b) {
  memset(b, 0, sizeof *b);
  b->h = (gsan_facts_header){GSAN_FACTS_MAGIC, GSAN_ABI_VERSION, NODES, 1, 1, 4};
  gsan_fact_node *x = b->node;
  x[N_CTAID] = (gsan_fact_node){GSAN_FN_SREG, 32, 0, 0, 0, 0, GSAN_SR_CTAID_X};
  x[N_NTID] = (gsan_fact_node){GSAN_FN_SREG, 32, 0, 0, 0, 0, GSAN_SR_NTID_X};
  x[N_MUL] = (gsan_fact_node){GSAN_FN_MUL, 32, 1, 0, N_CTAID, N_NTID, 0};
  x[N_TID] = (gsan_fact_node){GSAN_FN_SREG, 32, 0, 0, 0, 0, GSAN_SR_TID_X};
  x[N_I] = (gsan_fact_node){GSAN_FN_ADD, 32, 1, 0, N_MUL, N_TID, 0};
  x[N_FOUR] = (gsan_fact_node){GSAN_FN_IMM, 32, 1, 0, 0, 0, 4};
  x[N_OFF] = (gsan_fact_node){GSAN_FN_MULWIDE, 64, 1, 0, N_I, N_FOUR, 0};
  x[N_P0] = (gsan_fact_node){GSAN_FN_PARAM, 64, 0, 0, 0, 0, 0};
  x[N_A] = (gsan_fact_node){GSAN_FN_ADD, 64, 0, 0, N_P0, N_OFF, 0};
  x[N_M] = (gsan_fact_node){GSAN_FN_PARAM, 32, 1, 0, 3, 0, 0};
  b->cond[0] = (gsan_fact_cond){N_I, N_M, GSAN_FC_LT, 1, 32, 0};
  b->fact[0] = (gsan_fact){N_A, GSAN_FR_WORD, 1, 0, 0, 0, 4, 0};
}

/* kernel name, its launch-bounds copy and its proven copy (both W = 4), in
 * module or library owner; facts: the blob (NULL: none); lb_regs, lp_regs:
 * the copies' registers per thread (0: the driver does not say) */
static void *declare_regs(uintptr_t owner, int kernel, const char *name, const void *facts, size_t n, int lb_regs,
                          int lp_regs) {
  char copy[128];
  void *k = add_fn(owner, kernel, name, 4, step_off, step_size);
  snprintf(copy, sizeof copy, GSAN_LAUNCH_PREFIX "%s", name);
  void *lb = add_fn(owner, kernel, copy, 5, step_off, step_size);
  snprintf(copy, sizeof copy, GSAN_PROVEN_PREFIX "%s", name);
  void *lp = add_fn(owner, kernel, copy, 5, step_off, step_size);
  if ((lb_regs && set_regs(lb, lb_regs)) || (lp_regs && set_regs(lp, lp_regs))) printf("fake_set_registers failed\n");
  snprintf(copy, sizeof copy, GSAN_FACTS_PREFIX "%s", name);
  if (facts && add_global(owner, copy, facts, n)) printf("fake_add_global %s failed\n", copy);
  return k;
}
static void *declare_proven(uintptr_t owner, int kernel, const char *name, const void *facts, size_t n) {
  return declare_regs(owner, kernel, name, facts, n, 0, 0);
}

/* step launched with grid gx x 1 x 1, block bx x 1 x 1 on stream s; via: 0
 * cuLaunchKernel, 1 cuLaunchKernelEx, 2 cuLaunchCooperativeKernel, 3
 * cuLaunchKernel with the argument buffer of extra (bytes of it) */
static void prove(const char *what, void *f, unsigned gx, unsigned bx, CUstream s, int via, size_t bytes) {
  void *args[] = {&p0, &p1, &n, &m};
  CUlaunchConfig c = {gx, 1, 1, bx, 1, 1, 0, s, NULL, 0};
  unsigned char buf[32] = {0};
  step_bytes(buf);
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes, CU_LAUNCH_PARAM_END};
  CUresult r;
  if (via == 1) r = LaunchEx(&c, (CUfunction)f, args, NULL);
  else if (via == 2) r = LaunchCoop((CUfunction)f, gx, 1, 1, bx, 1, 1, 0, s, args);
  else if (via == 3) r = Launch((CUfunction)f, gx, 1, 1, bx, 1, 1, 0, s, NULL, extra);
  else r = Launch((CUfunction)f, gx, 1, 1, bx, 1, 1, 0, s, args, NULL);
  printf("%s: %d, launched %s, %zu bytes of parameters\n", what, (int)r, fn_name(*launched), *nbytes);
}

static void proven(void) {
  if (!add_global || !set_regs || !capturing_error || !global_reads) {
    printf("no fake_add_global, fake_set_registers, fake_capturing_error or fake_global_reads\n");
    return;
  }
  CUstream capturing = (CUstream)(uintptr_t)0x99; /* the fake's stream that is being captured */
  CUdeviceptr x128, x124, gone;
  printf("cuMemAlloc(128): %d\n", (int)Alloc(&x128, 128));
  printf("cuMemAlloc(124): %d\n", (int)Alloc(&x124, 124));
  printf("cuMemAlloc(128): %d\n", (int)Alloc(&gone, 128));
  printf("cuMemFree: %d\n", (int)Free(gone));
  step_facts good;
  build_facts(&good);
  void *k = declare_proven(0x4400, 0, STEP, &good, sizeof good);
  p1 = allocs[1].p;
  n = 7;

  p0 = x128, m = 32;
  prove("(a) 1x32, 128 bytes, m 32", k, 1, 32, NULL, 0, 0);
  p0 = x124;
  prove("(b) 1x32, 124 bytes, m 32", k, 1, 32, NULL, 0, 0);
  m = 31;
  prove("(b) 1x32, 124 bytes, m 31", k, 1, 32, NULL, 0, 0);
  p0 = allocs[2].p, m = 1000;
  prove("(c) 2x32, 256 bytes, m 1000", k, 2, 32, NULL, 0, 0);
  prove("(c) 3x32, 256 bytes, m 1000", k, 3, 32, NULL, 0, 0);
  m = 64;
  prove("(c) 3x32, 256 bytes, m 64", k, 3, 32, NULL, 0, 0);
  p0 = x124, m = 0;
  prove("4x32, 124 bytes, m 0", k, 4, 32, NULL, 0, 0);
  p0 = x128 + 4, m = 32;
  prove("1x32, 128 bytes from byte 4, m 32", k, 1, 32, NULL, 0, 0);
  m = 31;
  prove("1x32, 128 bytes from byte 4, m 31", k, 1, 32, NULL, 0, 0);
  p0 = 0x7f0000001000ull, m = 32;
  prove("1x32, outside the arena, m 32", k, 1, 32, NULL, 0, 0);
  p0 = gone;
  prove("(d) 1x32, freed, m 32", k, 1, 32, NULL, 0, 0);
  p0 = x128;
  prove("(e) 1x32, 128 bytes, m 32, capturing", k, 1, 32, capturing, 0, 0);
  prove("(a) again", k, 1, 32, NULL, 0, 0);
  *capturing_error = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  prove("(e) 1x32, 128 bytes, m 32, capture status an error", k, 1, 32, NULL, 0, 0);
  *capturing_error = CUDA_SUCCESS;
  prove("(f) extra, 1x32, 128 bytes, m 32", k, 1, 32, NULL, 3, 32);
  p0 = x124;
  prove("(f) extra, 1x32, 124 bytes, m 32", k, 1, 32, NULL, 3, 32);
  m = 31;
  prove("(f) extra, 1x32, 124 bytes, m 31", k, 1, 32, NULL, 3, 32);
  prove("(f) extra of 8 bytes, 124 bytes, m unread", k, 1, 32, NULL, 3, 8);
  p0 = x128, m = 32;
  prove("(g) cuLaunchKernelEx, 1x32, 128 bytes, m 32", k, 1, 32, NULL, 1, 0);
  prove("(g) cuLaunchKernelEx, 2x32, 128 bytes, m 32", k, 2, 32, NULL, 1, 0);
  m = 64;
  prove("(g) cuLaunchKernelEx, 2x32, 128 bytes, m 64", k, 2, 32, NULL, 1, 0);
  m = 32;
  prove("cuLaunchCooperativeKernel, 1x32, 128 bytes, m 32", k, 1, 32, NULL, 2, 0);

  /* a library's CUkernel, its first launch captured: the facts read then
   * serve the launches after */
  void *kk = declare_proven(0x7800, 1, STEP, &good, sizeof good);
  prove("CUkernel, capturing", kk, 1, 32, capturing, 0, 0);
  prove("CUkernel", kk, 1, 32, NULL, 0, 0);
  p0 = x124;
  prove("CUkernel, 124 bytes", kk, 1, 32, NULL, 0, 0);

  /* a proven copy that takes more registers (in a warp's allotment of 8
   * per thread) than the launch-bounds copy is not used */
  void *r1 = declare_regs(0x4600, 0, "_Z5step8PfPKfli", &good, sizeof good, 32, 48);
  void *r2 = declare_regs(0x4600, 0, "_Z5step9PfPKfli", &good, sizeof good, 33, 40);
  void *r3 = declare_regs(0x7900, 1, STEP, &good, sizeof good, 56, 64);
  p0 = x128, m = 32;
  prove("registers 32, proven 48", r1, 1, 32, NULL, 0, 0);
  prove("registers 33, proven 40", r2, 1, 32, NULL, 0, 0);
  prove("CUkernel, registers 56, proven 64", r3, 1, 32, NULL, 0, 0);
  /* a proven copy whose parameters are not the launch-bounds copy's */
  static const size_t other_off[] = {0, 8, 16, 24, 32, 96}, other_size[] = {8, 8, 8, 4, 64, 8};
  void *o = add_fn(0x4700, 0, "_Z6step10PfPKfli", 4, step_off, step_size);
  add_fn(0x4700, 0, GSAN_LAUNCH_PREFIX "_Z6step10PfPKfli", 5, step_off, step_size);
  add_fn(0x4700, 0, GSAN_PROVEN_PREFIX "_Z6step10PfPKfli", 6, other_off, other_size);
  if (add_global(0x4700, GSAN_FACTS_PREFIX "_Z6step10PfPKfli", &good, sizeof good)) printf("fake_add_global failed\n");
  prove("proven copy of other parameters", o, 1, 32, NULL, 0, 0);

  /* (h) facts that do not read: the launch-bounds copy, every time */
  step_facts bad = good;
  bad.h.magic ^= 1;
  void *k2 = declare_proven(0x4500, 0, "_Z5step2PfPKfli", &bad, sizeof bad);
  bad = good;
  bad.h.version = GSAN_ABI_VERSION + 1;
  void *k3 = declare_proven(0x4500, 0, "_Z5step3PfPKfli", &bad, sizeof bad);
  void *k4 = declare_proven(0x4500, 0, "_Z5step4PfPKfli", &good, sizeof good - 4);
  bad = good;
  bad.h.nparams = 5;
  void *k5 = declare_proven(0x4500, 0, "_Z5step5PfPKfli", &bad, sizeof bad);
  bad = good;
  bad.node[N_M].a = 4; /* a parameter step does not have */
  void *k6 = declare_proven(0x4500, 0, "_Z5step6PfPKfli", &bad, sizeof bad);
  void *k7 = declare_proven(0x4500, 0, "_Z5step7PfPKfli", NULL, 0);
  p0 = x128;
  for (int i = 0; i < 2; i++) {
    prove("(h) bad magic", k2, 1, 32, NULL, 0, 0);
    prove("(h) other ABI version", k3, 1, 32, NULL, 0, 0);
    prove("(h) 4 bytes short", k4, 1, 32, NULL, 0, 0);
    prove("(h) other parameters", k5, 1, 32, NULL, 0, 0);
    prove("(h) a node reads parameter 4", k6, 1, 32, NULL, 0, 0);
    prove("(h) no facts", k7, 1, 32, NULL, 0, 0);
  }
  /* once per kernel: step's module and library, step9, and (h)'s five */
  printf("facts blobs read: %d\n", *global_reads);
  /* another module unloaded: gsan forgets every copy, and finds step's again */
  printf("cuModuleUnload: %d\n", (int)ModuleUnload((CUmodule)(uintptr_t)0x4600));
  prove("(a) after an unload", k, 1, 32, NULL, 0, 0);
  p0 = x124;
  prove("(b) after an unload", k, 1, 32, NULL, 0, 0);
  Free(x128);
  Free(x124);
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
  *(void **)&add_global = dlsym(h, "fake_add_global");
  *(void **)&set_regs = dlsym(h, "fake_set_registers");
  *(void **)&capturing_error = dlsym(h, "fake_capturing_error");
  *(void **)&global_reads = dlsym(h, "fake_global_reads");
  const char *sc = argc > 1 ? argv[1] : "copy";
  /* gsan's lines (stderr) and these in the order made */
  if (!strcmp(sc, "proven") || !strcmp(sc, "refused") || !strcmp(sc, "adapt")) setvbuf(stdout, NULL, _IOLBF, 0);
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
  } else if (!strcmp(sc, "proven")) {
    proven();
  } else if (!strcmp(sc, "adapt")) {
    /* which launches need an evaluation of the facts, and when proofs stop */
    step_facts good;
    build_facts(&good);
    p0 = allocs[0].p, p1 = allocs[1].p, m = 32;
    void *args[] = {&p0, &p1, &n, &m};
    void *k = declare_proven(0x4a00, 0, "_Z6stepB1PfPKfli", &good, sizeof good);
    for (int i = 0; i < 40; i++) { /* n, which no fact reads, changes at each launch */
      n = i;
      Launch((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
    }
    printf("n changing, 40 launches: the last ran %s\n", fn_name(*launched));
    void *k2 = declare_proven(0x4a00, 0, "_Z6stepB2PfPKfli", &good, sizeof good);
    for (int i = 0; i < 100; i++) { /* m, which the guard reads, changes at each launch */
      m = 1 + i;
      Launch((CUfunction)k2, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
    }
    printf("m changing, 100 launches: the last ran %s\n", fn_name(*launched));
  } else if (!strcmp(sc, "refused")) {
    /* a block of 1024 threads: a launch-bounds copy of 72 registers a
     * thread does not fit, the kernel itself of 60 does (and runs); a kernel
     * of 80 does not either: refused, said once */
    void *fits = declare_regs(0x4800, 0, "_Z6stepA1PfPKfli", NULL, 0, 72, 0);
    void *not = declare_regs(0x4800, 0, "_Z6stepA2PfPKfli", NULL, 0, 72, 0);
    if (set_regs(fits, 60) || set_regs(not, 80)) printf("fake_set_registers failed\n");
    p0 = allocs[0].p;
    prove("copy of 72 registers, kernel of 60, 1024 threads", fits, 1, 1024, NULL, 0, 0);
    prove("the same, by cuLaunchKernelEx", fits, 1, 1024, NULL, 1, 0);
    prove("copy of 72, kernel of 80, 1024 threads", not, 1, 1024, NULL, 0, 0);
    prove("again", not, 1, 1024, NULL, 0, 0);
    prove("512 threads", not, 1, 512, NULL, 0, 0);
  }
  for (int i = 0; i < 3; i++)
    if (strcmp(sc, "copy") || i != 2) Free(allocs[i].p);
  return 0;
}
