// The harness every workload of the performance suite uses: argument parsing,
// CUDA-event timing (median of repetitions after warm-up), a deterministic
// checksum of the result, and one line per kernel with its registers and
// occupancy. bench/run.sh runs each workload natively, under gsan and under
// compute-sanitizer, and reads only the lines this header prints:
//   bench <name> ms <median> reps <n> checksum <16 hex digits>
//   kernel <name> regs <n> occupancy <active warps per SM> block <threads> smem <bytes>
//   copy <name> <lb|lp> regs <n> occupancy <active warps per SM>   (under gsan: the
//     kernel's launch-bounds and proven copies, which its launches run instead)
//   valid <0|1>
//   memory <bytes of device memory in use when the result was reported>
// The checksum must be bit-identical between runs (no float atomics, fixed
// reduction orders): run.sh compares gsan's with the native one.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <dlfcn.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define BENCH_CHECK(call)                                                         \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
              cudaGetErrorString(e_));                                            \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

struct bench_args {
  int reps = 11;   // timed repetitions (median reported)
  int warmup = 2;  // untimed repetitions before
};

// --reps N and --warmup N; anything else is an error naming the argument.
static inline bench_args bench_parse(int argc, char **argv) {
  bench_args a;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc) a.reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) a.warmup = atoi(argv[++i]);
    else {
      fprintf(stderr, "%s: unknown argument '%s' (usage: %s [--reps N] [--warmup N])\n",
              argv[0], argv[i], argv[0]);
      exit(2);
    }
  }
  if (a.reps < 1 || a.warmup < 0) {
    fprintf(stderr, "%s: --reps must be >= 1 and --warmup >= 0\n", argv[0]);
    exit(2);
  }
  return a;
}

// Runs rep() warmup times untimed, then reps times, each timed with CUDA events
// on the default stream; returns the median in milliseconds. rep() must
// restore its inputs if it consumes them (so every repetition does equal work).
template <class F>
static inline double bench_time(const bench_args &a, F rep) {
  for (int i = 0; i < a.warmup; i++) rep();
  BENCH_CHECK(cudaDeviceSynchronize());
  BENCH_CHECK(cudaGetLastError());
  cudaEvent_t t0, t1;
  BENCH_CHECK(cudaEventCreate(&t0));
  BENCH_CHECK(cudaEventCreate(&t1));
  std::vector<double> ms;
  for (int i = 0; i < a.reps; i++) {
    BENCH_CHECK(cudaEventRecord(t0));
    rep();
    BENCH_CHECK(cudaEventRecord(t1));
    BENCH_CHECK(cudaEventSynchronize(t1));
    BENCH_CHECK(cudaGetLastError());
    float m = 0;
    BENCH_CHECK(cudaEventElapsedTime(&m, t0, t1));
    ms.push_back(m);
  }
  BENCH_CHECK(cudaEventDestroy(t0));
  BENCH_CHECK(cudaEventDestroy(t1));
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  return n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
}

// FNV-1a over raw bytes: the result's exact bits.
static inline uint64_t bench_hash(const void *p, size_t n, uint64_t h = 1469598103934665603ull) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

// Copies n elements of a device array to the host and hashes them.
template <class T>
static inline uint64_t bench_hash_device(const T *d, size_t n, uint64_t h = 1469598103934665603ull) {
  std::vector<T> host(n);
  BENCH_CHECK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return bench_hash(host.data(), n * sizeof(T), h);
}

// Registers and occupancy (resident warps per SM) of one kernel at its launch
// configuration; under gsan these are the instrumented kernel's.
// A driver entry point through cudart (the workloads do not link libcuda), at
// this toolkit's version: cuKernelGetName and cuKernelGetLibrary came with 12.4
// and 12.5, and an older version finds no entry point for them.
template <typename F> static inline F bench_driver(const char *sym) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion(sym, &p, CUDART_VERSION, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess)
    return nullptr;
  return (F)p;
}

// Under gsan (docs/abi.md), a launch of func runs its launch-bounds copy
// (__gsan_lb_<name>) or its proven copy (__gsan_lp_<name>), found beside it:
// in its library (cudart loads modules as libraries: the kernel's CUkernel,
// cuLibraryGetKernel, then the copy's function in this context), else in its
// module. Their registers and occupancy, one line each that exists.
static inline void bench_copies(const char *name, const void *func, int block, size_t smem) {
  // only under gsan run (libgsan preloaded, its public gsan_torch_malloc in
  // reach): natively the look-ups fail, and compute-sanitizer counts each
  // failed driver call as an error of the workload's
  if (!dlsym(RTLD_DEFAULT, "gsan_torch_malloc")) return;
  auto kernel_name = bench_driver<CUresult (*)(const char **, CUkernel)>("cuKernelGetName");
  auto kernel_library = bench_driver<CUresult (*)(CUlibrary *, CUkernel)>("cuKernelGetLibrary");
  auto library_kernel = bench_driver<CUresult (*)(CUkernel *, CUlibrary, const char *)>("cuLibraryGetKernel");
  auto kernel_function = bench_driver<CUresult (*)(CUfunction *, CUkernel)>("cuKernelGetFunction");
  auto func_name = bench_driver<CUresult (*)(const char **, CUfunction)>("cuFuncGetName");
  auto func_module = bench_driver<CUresult (*)(CUmodule *, CUfunction)>("cuFuncGetModule");
  auto module_function = bench_driver<CUresult (*)(CUfunction *, CUmodule, const char *)>("cuModuleGetFunction");
  auto get_attr = bench_driver<CUresult (*)(int *, CUfunction_attribute, CUfunction)>("cuFuncGetAttribute");
  auto occupancy = bench_driver<CUresult (*)(int *, CUfunction, int, size_t)>("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  if (!get_attr || !occupancy) return;
  const char *mangled = nullptr;
  CUlibrary lib = nullptr;
  CUmodule mod = nullptr;
  cudaKernel_t k;
  cudaFunction_t f;
  bool in_library = kernel_name && kernel_library && library_kernel && kernel_function &&
                    cudaGetKernel(&k, func) == cudaSuccess && kernel_name(&mangled, (CUkernel)k) == CUDA_SUCCESS &&
                    kernel_library(&lib, (CUkernel)k) == CUDA_SUCCESS;
  if (!in_library) {
    lib = nullptr;
    if (!func_name || !func_module || !module_function || cudaGetFuncBySymbol(&f, func) != cudaSuccess ||
        func_name(&mangled, (CUfunction)f) != CUDA_SUCCESS || func_module(&mod, (CUfunction)f) != CUDA_SUCCESS)
      return;
  }
  const char *kinds[2][2] = {{"lb", "__gsan_lb_"}, {"lp", "__gsan_lp_"}};
  for (auto &kd : kinds) {
    std::vector<char> want(strlen(kd[1]) + strlen(mangled) + 1);
    snprintf(want.data(), want.size(), "%s%s", kd[1], mangled);
    CUfunction c = nullptr;
    CUkernel ck;
    if (lib ? library_kernel(&ck, lib, want.data()) != CUDA_SUCCESS || kernel_function(&c, ck) != CUDA_SUCCESS
            : module_function(&c, mod, want.data()) != CUDA_SUCCESS)
      continue;
    int regs = 0, blocks = 0;
    if (get_attr(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, c) != CUDA_SUCCESS || occupancy(&blocks, c, block, smem) != CUDA_SUCCESS)
      continue;
    printf("copy %s %s regs %d occupancy %d\n", name, kd[0], regs, blocks * ((block + 31) / 32));
  }
}

static inline void bench_kernel(const char *name, const void *func, int block, size_t smem) {
  cudaFuncAttributes attr;
  BENCH_CHECK(cudaFuncGetAttributes(&attr, func));
  int blocks = 0;
  BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block, smem));
  printf("kernel %s regs %d occupancy %d block %d smem %zu\n", name, attr.numRegs,
         blocks * ((block + 31) / 32), block, smem);
  bench_copies(name, func, block, smem);
}

static inline void bench_report(const char *name, double ms, const bench_args &a, uint64_t sum,
                                bool valid) {
  printf("bench %s ms %.4f reps %d checksum %016llx\n", name, ms, a.reps,
         (unsigned long long)sum);
  printf("valid %d\n", valid ? 1 : 0);
  // device-wide, with the workload's buffers still live: under gsan the
  // difference to the native run is everything gsan's memory costs
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) printf("memory %zu\n", total_b - free_b);
}

// A value in [0, 1) from an index (integer hash), the same on every run: the
// workloads' deterministic inputs.
static inline float bench_unit_hash(uint32_t i) {
  i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16;
  return (float)(i >> 8) * (1.0f / 16777216.0f);
}

// A value in [-1, 1) from an index and a seed (integer hash, exact
// arithmetic), the same on every run.
static inline float bench_signed_hash(uint32_t i, uint32_t seed) {
  uint32_t h = i * 0x9E3779B1u ^ seed;
  h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
  return (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

// splitmix64: a fixed-seed generator of 64-bit draws (advances s).
static inline uint64_t bench_splitmix64(uint64_t &s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The CPU check of one element C[r][c] of a GEMM C = A * B (row-major, A is
// M x K, B is K x N) against a reference in double: false when it is off by
// more than 1e-3 of sum |a_k b_k| (the dot product's scale), which is reported
// on stderr, naming the program, when report is set (callers: the first miss).
static inline bool bench_gemm_element_ok(const char *name, const float *A, const float *B,
                                         const float *C, int N, int K, int r, int c, bool report) {
  double ref = 0, scale = 0;
  for (int k = 0; k < K; k++) {
    double p = (double)A[(size_t)r * K + k] * (double)B[(size_t)k * N + c];
    ref += p; scale += fabs(p);
  }
  if (fabs((double)C[(size_t)r * N + c] - ref) > 1e-3 * scale) {
    if (report) fprintf(stderr, "%s: C[%d][%d] = %g, expected %g\n", name, r, c, C[(size_t)r * N + c], ref);
    return false;
  }
  return true;
}

// Copies the w x h box at (x0, y0) of a grid with rows of pitch floats into
// dst, packed (rows of w): the stencils' CPU references cut their dependency
// cone out of the initial grid with it, and the checked box out of the cone.
static inline void bench_copy_box2d(const float *src, size_t pitch, int x0, int y0, int w, int h,
                                    float *dst) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) dst[(size_t)y * w + x] = src[(size_t)(y0 + y) * pitch + (x0 + x)];
}

// The same for the w x h x d box at (x0, y0, z0) of a grid whose planes are
// plane floats apart (dst packed: planes of w x h).
static inline void bench_copy_box3d(const float *src, size_t pitch, size_t plane, int x0, int y0,
                                    int z0, int w, int h, int d, float *dst) {
  for (int z = 0; z < d; z++)
    bench_copy_box2d(src + (size_t)(z0 + z) * plane, pitch, x0, y0, w, h, dst + (size_t)z * w * h);
}

// The device buffers of a stencil that ping-pongs between cur and nxt:
// pristine holds init (bytes long), for every repetition to restore cur from,
// and cur and nxt start as copies of it.
static inline void bench_alloc_pingpong(const void *init, size_t bytes, float **pristine,
                                        float **cur, float **nxt) {
  BENCH_CHECK(cudaMalloc(pristine, bytes));
  BENCH_CHECK(cudaMalloc(cur, bytes));
  BENCH_CHECK(cudaMalloc(nxt, bytes));
  BENCH_CHECK(cudaMemcpy(*pristine, init, bytes, cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(*cur, *pristine, bytes, cudaMemcpyDeviceToDevice));
  BENCH_CHECK(cudaMemcpy(*nxt, *pristine, bytes, cudaMemcpyDeviceToDevice));
}
