// The harness every workload of the performance suite uses: argument parsing,
// CUDA-event timing (median of repetitions after warm-up), a deterministic
// checksum of the result, and one line per kernel with its registers and
// occupancy. bench/run.sh runs each workload natively, under gsan and under
// compute-sanitizer, and reads only the lines this header prints:
//   bench <name> ms <median> reps <n> checksum <16 hex digits>
//   kernel <name> regs <n> occupancy <active warps per SM> block <threads> smem <bytes>
//   valid <0|1>
//   memory <bytes of device memory in use when the result was reported>
// The checksum must be bit-identical between runs (no float atomics, fixed
// reduction orders): run.sh compares gsan's with the native one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
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
static inline void bench_kernel(const char *name, const void *func, int block, size_t smem) {
  cudaFuncAttributes attr;
  BENCH_CHECK(cudaFuncGetAttributes(&attr, func));
  int blocks = 0;
  BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block, smem));
  printf("kernel %s regs %d occupancy %d block %d smem %zu\n", name, attr.numRegs,
         blocks * ((block + 31) / 32), block, smem);
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
