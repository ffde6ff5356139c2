// A stand-in for the runtime until libgsan exists: loads plain and
// instrumented PTX with the driver API, sets up an arena and slot tables laid
// out as include/gsan/abi.h describes, fills __gsan_ctx, runs the kernels of
// loader_kernels.cu and reads the ring buffer. One test per process, since a
// trapped context cannot be used again.
//   ptx_loader PLAIN.ptx INSTR.ptx TEST
// TEST: compare | oob_global | oob_shared | uaf | oob_local | recover | oob_merged | oob_neighbor
#include <cuda.h>
#include <gsan/abi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    CUresult r_ = (x);                                                                \
    if (r_ != CUDA_SUCCESS) {                                                         \
      const char *s_ = "";                                                            \
      cuGetErrorName(r_, &s_);                                                        \
      fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #x, s_, r_); \
      exit(3);                                                                        \
    }                                                                                 \
  } while (0)

static const unsigned REGION_SHIFT = 26, MIN_SHIFT = 8, CLASSES = 16, TABLE_SHIFT = 21;
static const unsigned RING_CAP = 1024;

struct Arena {
  CUdeviceptr raw = 0, base = 0, tables = 0, ring_ctl = 0;
  void *ring_host = nullptr;
  CUdeviceptr ring_dev = 0;
  unsigned next[CLASSES] = {};
  uint64_t size() const { return (uint64_t)CLASSES << REGION_SHIFT; }

  void init() {
    CK(cuMemAlloc(&raw, size() + (1ull << REGION_SHIFT)));
    base = (raw + (1ull << REGION_SHIFT) - 1) & ~((1ull << REGION_SHIFT) - 1);
    CK(cuMemAlloc(&tables, (size_t)CLASSES << TABLE_SHIFT));
    CK(cuMemsetD8(tables, 0, (size_t)CLASSES << TABLE_SHIFT));
    CK(cuMemAlloc(&ring_ctl, 8));
    CK(cuMemsetD8(ring_ctl, 0, 8));
    size_t ring_bytes = GSAN_RING_HEADER_BYTES + (size_t)RING_CAP * GSAN_RECORD_BYTES;
    CK(cuMemHostAlloc(&ring_host, ring_bytes, CU_MEMHOSTALLOC_DEVICEMAP));
    memset(ring_host, 0, ring_bytes);
    ((uint32_t *)ring_host)[0] = RING_CAP;
    CK(cuMemHostGetDevicePointer(&ring_dev, ring_host, 0));
  }
  CUdeviceptr entry(CUdeviceptr p) {
    uint64_t off = p - base, k = off >> REGION_SHIFT;
    uint64_t slot = (off & ((1ull << REGION_SHIFT) - 1)) >> (k + MIN_SHIFT);
    return tables + (k << TABLE_SHIFT) + slot * 8;
  }
  CUdeviceptr alloc(uint64_t bytes) {
    unsigned k = 0;
    while ((1ull << (k + MIN_SHIFT)) < bytes) k++;
    if (k >= CLASSES) { fprintf(stderr, "allocation too large for the test arena\n"); exit(3); }
    CUdeviceptr p = base + ((uint64_t)k << REGION_SHIFT) + ((uint64_t)next[k]++ << (k + MIN_SHIFT));
    CK(cuMemcpyHtoD(entry(p), &bytes, 8));
    return p;
  }
  void free_(CUdeviceptr p) {
    uint64_t zero = 0;
    CK(cuMemcpyHtoD(entry(p), &zero, 8));
  }
  void fill_ctx(CUmodule m) {
    CUdeviceptr ctx;
    size_t bytes;
    CK(cuModuleGetGlobal(&ctx, &bytes, m, GSAN_CTX_SYMBOL));
    if (bytes != GSAN_CTX_BYTES) { fprintf(stderr, "__gsan_ctx has %zu bytes\n", bytes); exit(3); }
    unsigned char c[GSAN_CTX_BYTES] = {};
    uint64_t v64[] = {base, size(), tables, ring_dev, ring_ctl};
    memcpy(c + GSAN_CTX_ARENA_BASE, &v64[0], 8);
    memcpy(c + GSAN_CTX_ARENA_SIZE, &v64[1], 8);
    memcpy(c + GSAN_CTX_TABLE_BASE, &v64[2], 8);
    memcpy(c + GSAN_CTX_RING, &v64[3], 8);
    memcpy(c + GSAN_CTX_RING_CTL, &v64[4], 8);
    uint32_t v32[] = {REGION_SHIFT, MIN_SHIFT, TABLE_SHIFT, GSAN_ABI_VERSION};
    memcpy(c + GSAN_CTX_REGION_SHIFT, &v32[0], 4);
    memcpy(c + GSAN_CTX_MIN_SHIFT, &v32[1], 4);
    memcpy(c + GSAN_CTX_TABLE_SHIFT, &v32[2], 4);
    memcpy(c + GSAN_CTX_ABI, &v32[3], 4);
    CK(cuMemcpyHtoD(ctx, c, sizeof c));
  }
  std::vector<gsan_record> records() const {
    std::vector<gsan_record> v;
    const gsan_record *r = (const gsan_record *)((const char *)ring_host + GSAN_RING_HEADER_BYTES);
    for (unsigned i = 0; i < RING_CAP; i++)
      if (((volatile const gsan_record *)&r[i])->seq) v.push_back(r[i]);
    return v;
  }
};

static std::string slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(3); }
  std::string s;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  fclose(f);
  return s;
}

static CUmodule load(const std::string &ptx) {
  CUmodule m;
  char log[8192] = {};
  CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *val[] = {log, (void *)(uintptr_t)sizeof log};
  CUresult r = cuModuleLoadDataEx(&m, ptx.c_str(), 2, opt, val);
  if (r != CUDA_SUCCESS) { fprintf(stderr, "module load failed (%d): %s\n", r, log); exit(3); }
  return m;
}

// The site table: find its name in the PTX, copy the blob back, decode one site.
static void print_site(const std::string &ptx, const gsan_record &rec) {
  size_t at = ptx.find(GSAN_SITES_PREFIX);
  size_t end = ptx.find('[', at);
  std::string name = ptx.substr(at, end - at);
  // after a trap the context is gone: decode from the PTX text instead
  std::string init = ptx.substr(ptx.find('{', end) + 1);
  std::vector<unsigned char> b;
  for (const char *s = init.c_str(); *s && *s != '}';) {
    char *e;
    long v = strtol(s, &e, 10);
    if (e == s) { s++; continue; }
    b.push_back((unsigned char)v);
    s = e;
  }
  gsan_sites_header h;
  memcpy(&h, b.data(), sizeof h);
  gsan_site site;
  memcpy(&site, b.data() + sizeof h + (size_t)rec.site * sizeof site, sizeof site);
  const char *str = (const char *)b.data() + h.strings;
  static const char *kinds[] = {"?", "READ", "WRITE", "ATOMIC", "COPY-SRC", "COPY-DST", "BARRIER"};
  static const char *spaces[] = {"?", "global", "shared", "local", "generic", "const"};
  printf("  site %u: %s of size %u in %s space, %s at %s:%u (PTX line %u); module %016llx (table %016llx)\n", rec.site,
         kinds[site.kind < 7 ? site.kind : 0], site.width, spaces[site.space < 6 ? site.space : 0], str + site.func,
         site.file ? str + site.file : "?", site.line, site.ptx_line, (unsigned long long)rec.module_id,
         (unsigned long long)h.module_id);
}

static void print_records(Arena &a, const std::string &ptx) {
  auto recs = a.records();
  printf("  ring: %zu record(s)\n", recs.size());
  for (size_t i = 0; i < recs.size() && i < 4; i++) {
    const gsan_record &r = recs[i];
    printf("  record: addr 0x%llx, bounds [0x%llx, +%llu), offset %lld, thread (%u,%u,%u) block (%u,%u,%u)\n",
           (unsigned long long)r.addr, (unsigned long long)r.base, (unsigned long long)r.size,
           (long long)(r.addr - r.base), r.tid[0], r.tid[1], r.tid[2], r.ctaid[0], r.ctaid[1], r.ctaid[2]);
    print_site(ptx, r);
  }
}

static CUresult launch(CUmodule m, const char *name, unsigned grid, unsigned block, unsigned smem,
                       std::vector<void *> args) {
  CUfunction f;
  CK(cuModuleGetFunction(&f, m, name));
  CUresult r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, smem, 0, args.data(), 0);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  return r;
}

static std::vector<float> randf(size_t n, unsigned seed) {
  std::vector<float> v(n);
  srand(seed);
  for (auto &x : v) x = (float)rand() / RAND_MAX - 0.5f;
  return v;
}

template <class T> static std::vector<T> get(CUdeviceptr p, size_t n) {
  std::vector<T> v(n);
  CK(cuMemcpyDtoH(v.data(), p, n * sizeof(T)));
  return v;
}

// Runs one kernel on the plain and the instrumented module with the same
// inputs and compares the outputs bit for bit.
struct Pair {
  CUmodule plain, inst;
  Arena &a;
};

static int compare(Pair &p) {
  int fails = 0;
  const int n = 1 << 20, len = 1000, m = 4;
  auto ha = randf(n, 1), hb = randf(n, 2);
  std::vector<int> hi(n);
  for (int i = 0; i < n; i++) hi[i] = rand();
  for (int pass = 0; pass < 2; pass++) {
    CUmodule mod = pass ? p.inst : p.plain;
    // every run gets fresh arena allocations, exactly sized
    CUdeviceptr a = p.a.alloc(n * 4), b = p.a.alloc(n * 4), c = p.a.alloc(n * 4), ii = p.a.alloc(n * 4);
    CK(cuMemcpyHtoD(a, ha.data(), n * 4));
    CK(cuMemcpyHtoD(b, hb.data(), n * 4));
    CK(cuMemcpyHtoD(ii, hi.data(), n * 4));
    std::vector<CUdeviceptr> bufs;
    for (int k = 0; k < m; k++) {
      CUdeviceptr q = p.a.alloc(len * 4);
      CK(cuMemcpyHtoD(q, ha.data() + k * len, len * 4));
      bufs.push_back(q);
    }
    CUdeviceptr ptrs = p.a.alloc(m * 8);
    CK(cuMemcpyHtoD(ptrs, bufs.data(), m * 8));
    int nn = n, mm = m, ll = len, zero = 0;
    static std::vector<float> res[2][5];
    static std::vector<int> resi[2];
    CK(launch(mod, "vec_add", n / 256, 256, 0, {&a, &b, &c, &nn}));
    res[pass][0] = get<float>(c, n);
    CK(launch(mod, "stencil_shared", n / 256, 256, 0, {&a, &c, &nn}));
    res[pass][1] = get<float>(c, n);
    CK(launch(mod, "dyn_split", n / 256, 256, 256 * 8, {&a, &c, &nn}));
    res[pass][2] = get<float>(c, n);
    CK(launch(mod, "ptr_chase", n / 256, 256, 0, {&ptrs, &mm, &ll, &c, &nn}));
    res[pass][3] = get<float>(c, n);
    CK(launch(mod, "copy", n / 256, 256, 0, {&b, &c, &nn}));
    res[pass][4] = get<float>(c, n);
    CK(launch(mod, "local_hist", n / 256 / 16, 256, 0, {&ii, &c, &nn, &zero}));
    resi[pass] = get<int>(c, n / 16);
    if (pass == 1) {
      const char *names[] = {"vec_add", "stencil_shared", "dyn_split", "ptr_chase", "copy"};
      for (int k = 0; k < 5; k++) {
        bool same = memcmp(res[0][k].data(), res[1][k].data(), n * 4) == 0;
        printf("  %-16s instrumented == plain: %s\n", names[k], same ? "yes" : "NO");
        fails += !same;
      }
      bool same = resi[0] == resi[1];
      printf("  %-16s instrumented == plain: %s\n", "local_hist", same ? "yes" : "NO");
      fails += !same;
    }
  }
  size_t nrec = p.a.records().size();
  printf("  ring records from correct kernels: %zu\n", nrec);
  return fails + (nrec != 0);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PLAIN.ptx INSTR.ptx compare|oob_global|oob_shared|uaf|oob_local|recover|oob_merged|oob_neighbor\n", argv[0]);
    return 2;
  }
  std::string plain_ptx = slurp(argv[1]), inst_ptx = slurp(argv[2]);
  std::string test = argv[3];
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  Arena a;
  a.init();
  CUmodule plain = load(plain_ptx), inst = load(inst_ptx);
  a.fill_ctx(inst);
  Pair p{plain, inst, a};
  printf("test %s\n", test.c_str());
  if (test == "compare") {
    int f = compare(p);
    printf("%s: %s\n", test.c_str(), f ? "FAIL" : "PASS");
    return f ? 1 : 0;
  }
  const int n = 1000;
  auto h = randf(n + 64, 3);
  CUdeviceptr x = a.alloc(n * 4), y = a.alloc(n * 4), z = a.alloc(n * 4);
  CK(cuMemcpyHtoD(x, h.data(), n * 4));
  CK(cuMemcpyHtoD(y, h.data(), n * 4));
  int nn = n;
  CUresult r;
  bool want_trap = true;
  uint64_t want_addr = 0, want_size = 0;
  if (test == "oob_global" || test == "recover") {
    r = launch(inst, "vec_add_oob", (n + 255) / 256, 256, 0, {&x, &y, &z, &nn});
    want_addr = 1;  // the bad thread touches element n of its arrays
    want_size = n * 4;
    want_trap = test != "recover";
  } else if (test == "oob_shared") {
    int k = 3;
    r = launch(inst, "shared_overflow", 1, 64, 0, {&z, &k});
    want_size = 256;
  } else if (test == "uaf") {
    a.free_(x);
    r = launch(inst, "copy", (n + 255) / 256, 256, 0, {&x, &z, &nn});
  } else if (test == "oob_local") {
    CUdeviceptr ii = a.alloc(n * 4);
    std::vector<int> hi(n, 255);
    CK(cuMemcpyHtoD(ii, hi.data(), n * 4));
    int extra = 1;  // h[255 + 1]: one past the local array
    r = launch(inst, "local_hist", 1, 32, 0, {&ii, &z, &nn, &extra});
  } else if (test == "oob_merged") {
    r = launch(inst, "blur3", (n + 255) / 256, 256, 0, {&x, &z, &nn});
    want_addr = 1;
    want_size = n * 4;
  } else if (test == "oob_neighbor") {
    // x and y are neighbouring 4000-byte allocations in 4096-byte slots:
    // a[i + 1024] for i < 1000 reads y, which is live
    int k = 1024;
    r = launch(inst, "copy_shifted", (n + 255) / 256, 256, 0, {&x, &z, &nn, &k});
    want_size = n * 4;
    printf("  x = [0x%llx, +4000), y = [0x%llx, +4000)\n", (unsigned long long)x, (unsigned long long)y);
  } else {
    fprintf(stderr, "unknown test '%s'\n", test.c_str());
    return 2;
  }
  const char *rname = "";
  cuGetErrorName(r, &rname);
  printf("  launch result: %s (%d)\n", rname, r);
  print_records(a, inst_ptx);
  auto recs = a.records();
  bool ok = !recs.empty();
  if (want_trap) ok = ok && r == CUDA_ERROR_LAUNCH_FAILED;
  else ok = ok && r == CUDA_SUCCESS;
  for (auto &rec : recs) {
    // each record is a real violation: outside [base, base+size), with the expected bounds
    if (rec.addr - rec.base < rec.size) ok = false;
    if (want_size && rec.size != want_size) ok = false;
    if (test == "uaf" && rec.size != 0) ok = false;
    if (want_addr && rec.addr - rec.base != (uint64_t)n * 4) ok = false;
    if (test == "oob_neighbor" && (rec.base != x || rec.addr < y || rec.addr >= y + n * 4)) ok = false;
  }
  // only the one thread whose +1 neighbour leaves the array is reported, once
  if (test == "oob_merged" && recs.size() != 1) ok = false;
  if (test == "recover" && ok) {
    // the bad thread's write was skipped: the kernel finished and the good part is right
    auto out = get<float>(z, n);
    for (int i = 0; i < n; i++)
      if (fabsf(out[i] - 2 * h[i]) > 1e-6f) ok = false;
    printf("  recover: kernel completed, %zu record(s), results of in-bounds threads correct: %s\n", recs.size(),
           ok ? "yes" : "NO");
  }
  printf("%s: %s\n", test.c_str(), ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
