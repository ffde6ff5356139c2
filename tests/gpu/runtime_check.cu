// The runtime's parts on a GPU before interposition exists: the arena on the
// driver's VMM calls, the ring drained by rt_ring, site tables read from the
// loaded module, reports printed by rt_report. Kernels from loader_kernels.cu,
// instrumented by gsan ptx. One scenario per process (a trap ends the context).
//   runtime_check INSTR.ptx clean|overflow|uaf|neighbor|shared|double_free
extern "C" {
#include "../../src/runtime/rt_arena.h"
#include "../../src/runtime/rt_report.h"
#include "../../src/runtime/rt_ring.h"
#include "../../src/runtime/rt_vmm_cuda.h"
}
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    CUresult r_ = (x);                                                                     \
    if (r_ != CUDA_SUCCESS) {                                                              \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, r_);               \
      exit(3);                                                                             \
    }                                                                                      \
  } while (0)

static rt_arena *arena;
static rt_ring ring;
static rt_site_table *sites;
static rt_log logger; /* rt_log_init in main */

static void sink(void *, const gsan_record *rec) {
  rt_site s;
  if (rt_sites_get(sites, rec->site, &s) < 0) {
    printf("record for unknown site %u\n", rec->site);
    return;
  }
  rt_alloc_info info;
  memset(&info, 0, sizeof info);
  rt_region reg = {rec->base, rec->size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0};
  int state = RT_SLOT_LIVE;
  if (s.root == GSAN_ROOT_VARIABLE) {
    reg.name = s.root_name;
    reg.space = s.root_space;
  } else if (rt_arena_find(arena, rec->base, &info) == RT_OK) {
    state = info.state;
    reg.base = info.base;
    reg.size = info.size;
  }
  rt_err_device e = {rt_classify_device(&s, rec, state), *rec, s, reg, 0, 0};
  rt_report_scope *sc = rt_report_begin(&logger, e.kind, RT_REPORT_GOES_ON);
  if (rt_report_admit(sc)) rt_report_device(&logger, &e);
  rt_report_end(sc);
}

static std::string slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  std::string s;
  char b[65536];
  size_t n;
  while ((n = fread(b, 1, sizeof b, f)) > 0) s.append(b, n);
  fclose(f);
  return s;
}

static CUresult launch(CUmodule m, const char *name, unsigned grid, unsigned block, std::vector<void *> args) {
  CUfunction f;
  CK(cuModuleGetFunction(&f, m, name));
  CUresult r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, 0, args.data(), 0);
  return r == CUDA_SUCCESS ? cuCtxSynchronize() : r;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s INSTR.ptx SCENARIO\n", argv[0]);
    return 2;
  }
  std::string ptx = slurp(argv[1]), sc = argv[2];
  CK(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  rt_log_init(&logger, stdout, 0, 0);
  // the arena on the real VMM, with the default layout: 16 TiB at the hint
  rt_cuda_api api = {cuMemAddressReserve, cuMemAddressFree, cuMemCreate, cuMemRelease, cuMemMap,
                     cuMemUnmap,          cuMemSetAccess,   cuMemcpyHtoD, cuMemGetAllocationGranularity,
                     cuCtxSynchronize};
  rt_vmm vmm;
  CK((CUresult)rt_vmm_cuda(&vmm, &api, 0));
  rt_arena_params p = rt_arena_default_params(0);
  rt_status st = rt_arena_create(&vmm, &p, &arena);
  if (st != RT_OK) { printf("arena: %s (%d)\n", rt_status_name(st), rt_arena_last_error(arena)); return 1; }
  unsigned char c[GSAN_CTX_BYTES] = {};
  rt_arena_ctx(arena, c);
  uint64_t base;
  memcpy(&base, c, 8);
  printf("arena at 0x%llx (granule %llu)\n", (unsigned long long)base, (unsigned long long)vmm.granule);
  // the ring: host-mapped records, device-side control block
  void *ring_host;
  CUdeviceptr ring_dev, ring_ctl;
  CK(cuMemHostAlloc(&ring_host, rt_ring_bytes(4096), CU_MEMHOSTALLOC_DEVICEMAP));
  memset(ring_host, 0, rt_ring_bytes(4096));
  rt_ring_init(&ring, ring_host, 4096);
  CK(cuMemHostGetDevicePointer(&ring_dev, ring_host, 0));
  CK(cuMemAlloc(&ring_ctl, 8));
  CK(cuMemsetD8(ring_ctl, 0, 8));
  memcpy(c + GSAN_CTX_RING, &ring_dev, 8);
  memcpy(c + GSAN_CTX_RING_CTL, &ring_ctl, 8);
  CUmodule m;
  CK(cuModuleLoadData(&m, ptx.c_str()));
  CUdeviceptr gctx, gsites;
  size_t bytes;
  CK(cuModuleGetGlobal(&gctx, &bytes, m, GSAN_CTX_SYMBOL));
  CK(cuMemcpyHtoD(gctx, c, sizeof c));
  // the site table, copied out while the context is alive
  size_t at = ptx.find(GSAN_SITES_PREFIX);
  std::string name = ptx.substr(at, ptx.find('[', at) - at);
  CK(cuModuleGetGlobal(&gsites, &bytes, m, name.c_str()));
  std::vector<unsigned char> blob(bytes);
  CK(cuMemcpyDtoH(blob.data(), gsites, bytes));
  const char *why;
  sites = rt_sites_parse(blob.data(), bytes, &why);
  if (!sites) { printf("site table: %s\n", why); return 1; }

  const int n = 1000;
  uint64_t x, y, z;
  if (rt_arena_alloc(arena, n * 4, &x) || rt_arena_alloc(arena, n * 4, &y) || rt_arena_alloc(arena, n * 4, &z)) return 1;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)i;
  CK(cuMemcpyHtoD(x, h.data(), n * 4));
  CK(cuMemcpyHtoD(y, h.data(), n * 4));
  CUdeviceptr dx = x, dy = y, dz = z;
  int nn = n, k = 0;
  CUresult r = CUDA_SUCCESS;
  if (sc == "clean") {
    r = launch(m, "vec_add", (n + 255) / 256, 256, {&dx, &dy, &dz, &nn});
    std::vector<float> out(n);
    CK(cuMemcpyDtoH(out.data(), dz, n * 4));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += out[i] != 2.0f * i;
    printf("clean: vec_add on arena memory, %d wrong results\n", bad);
  } else if (sc == "overflow") {
    r = launch(m, "vec_add_oob", (n + 255) / 256, 256, {&dx, &dy, &dz, &nn});
  } else if (sc == "uaf") {
    rt_arena_free(arena, x, NULL);
    r = launch(m, "copy", (n + 255) / 256, 256, {&dx, &dz, &nn});
  } else if (sc == "neighbor") {
    k = 1024;  // x[i + 1024] lands in y: another live allocation
    r = launch(m, "copy_shifted", (n + 255) / 256, 256, {&dx, &dz, &nn, &k});
  } else if (sc == "shared") {
    k = 3;
    r = launch(m, "shared_overflow", 1, 64, {&dz, &k});
  } else if (sc == "double_free") {
    rt_alloc_info info;
    rt_arena_free(arena, x, &info);
    st = rt_arena_free(arena, x, &info);
    rt_region reg = {info.base, info.size, NULL, GSAN_SPACE_GLOBAL, NULL, NULL, 0};
    rt_err_free e = {st == RT_DOUBLE_FREE ? RT_KIND_DOUBLE_FREE : RT_KIND_INVALID_FREE, "cuMemFree", x, NULL, reg};
    rt_report_scope *rs = rt_report_begin(&logger, e.kind, RT_REPORT_GOES_ON);
    if (rt_report_admit(rs)) rt_report_free(&logger, &e);
    rt_report_end(rs);
  } else {
    fprintf(stderr, "unknown scenario %s\n", sc.c_str());
    return 2;
  }
  const char *rn = "";
  cuGetErrorName(r, &rn);
  printf("launch: %s\n", rn);
  // a trapped context cannot be drained further: this is the final drain
  unsigned got = rt_ring_drain(&ring, r != CUDA_SUCCESS, sink, NULL);
  printf("%s: %u device report(s), %u printed\n", sc.c_str(), got, logger.reports);
  return 0;
}
