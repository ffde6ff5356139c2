// alloc_latency.cu -- host-side latency of cudaMalloc and cudaFree.
//
// For each size (default 256 B, 64 KiB, 2 MiB, 1 GiB) it measures, after a
// warm-up:
//   malloc_us        one cudaMalloc (one buffer allocated, then freed)
//   free_us          the cudaFree of that buffer
//   batch_malloc_us  K cudaMallocs in a row, the batch's time divided by K
//   batch_free_us    then the K cudaFrees, the batch's time divided by K
// K is 1000 up to 64 KiB, 64 up to 2 MiB, 4 above, and never more than keeps
// K * size within 20 GiB. Each figure is the median over --reps repetitions,
// in microseconds.
//
// Output on stdout, one line per size, fields in this order (bench/alloc.sh
// reads them by name):
//   size=256 reps=11 batch=1000 malloc_us=1.234 free_us=2.345 batch_malloc_us=... batch_free_us=...
// Anything else goes to stderr. Exit status: 0, 1 on a CUDA or clock error
// (one line on stderr), 2 on bad usage.
//
// Timing: wall time on the host with clock_gettime(CLOCK_MONOTONIC) around
// each call (each batch). cudaEvent timing cannot be used: events time work
// on a stream, and cudaMalloc/cudaFree are host API calls, not stream work.
//
// The program launches no kernels; under `gsan run` its allocations are
// served by libgsan's arena, so a plain nvcc build is enough:
//   nvcc -O2 -arch=native -o build/bench/alloc_latency bench/alloc_latency.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

static const size_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
static const size_t TOTAL_LIMIT = 20 * GiB; // most memory a batch may hold
static const int WARMUP = 3;                // untimed single cycles per size

static void usage(FILE *f) {
  fputs("usage: alloc_latency [--reps N] [--sizes A,B,...] [--help]\n"
        "\n"
        "Median host latency, in microseconds, of one cudaMalloc, one cudaFree, and of\n"
        "cudaMalloc/cudaFree in a batch of K buffers (per call), for each size.\n"
        "  --reps N        repetitions per measurement (default 11)\n"
        "  --sizes LIST    sizes in bytes, comma separated; a k, m or g suffix means\n"
        "                  KiB, MiB, GiB (default 256,65536,2097152,1073741824)\n"
        "  --help          this text\n"
        "Batch size K: 1000 up to 64 KiB, 64 up to 2 MiB, 4 above, capped so that\n"
        "K * size <= 20 GiB. Output: one line per size,\n"
        "  size=B reps=N batch=K malloc_us=X free_us=X batch_malloc_us=X batch_free_us=X\n",
        f);
}

// CALL failed with E: one line, exit status 1
static void fail(const char *call, cudaError_t e) {
  fprintf(stderr, "alloc_latency: %s failed: %s (%s)\n", call, cudaGetErrorString(e), cudaGetErrorName(e));
  exit(1);
}

// nanoseconds on the monotonic clock
static int64_t now_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
    fprintf(stderr, "alloc_latency: clock_gettime(CLOCK_MONOTONIC) failed: %s\n", strerror(errno));
    exit(1);
  }
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *do_malloc(size_t size) {
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, size);
  if (e != cudaSuccess) {
    char call[64];
    snprintf(call, sizeof call, "cudaMalloc(%zu bytes)", size);
    fail(call, e);
  }
  if (!p) {
    fprintf(stderr, "alloc_latency: cudaMalloc(%zu bytes) returned success and a null pointer\n", size);
    exit(1);
  }
  return p;
}

static void do_free(void *p, size_t size) {
  cudaError_t e = cudaFree(p);
  if (e != cudaSuccess) {
    char call[64];
    snprintf(call, sizeof call, "cudaFree (of %zu bytes)", size);
    fail(call, e);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// "256", "64k", "2M", "1g": bytes; 0 when malformed, zero or too large
static size_t parse_size(const char *s, const char **end) {
  if (*s < '0' || *s > '9') return 0;
  errno = 0;
  char *e;
  unsigned long long v = strtoull(s, &e, 10);
  if (errno) return 0;
  unsigned long long mul = 1;
  switch (*e) {
  case 'k': case 'K': mul = KiB; e++; break;
  case 'm': case 'M': mul = MiB; e++; break;
  case 'g': case 'G': mul = GiB; e++; break;
  default: break;
  }
  *end = e;
  if (v == 0 || v > TOTAL_LIMIT / mul) return 0;
  return (size_t)(v * mul);
}

// the value of option NAME at argv[*i] ("NAME V" or "NAME=V"), stepping *i
// past it; NULL when argv[*i] is another option. A missing value: usage error.
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0) return NULL;
  if (a[n] == '=') return a + n + 1;
  if (a[n] != 0) return NULL;
  if (*i + 1 >= argc) {
    fprintf(stderr, "alloc_latency: %s needs a value\n", name);
    exit(2);
  }
  return argv[++*i];
}

static int batch_for(size_t size) {
  size_t k = size <= 64 * KiB ? 1000 : size <= 2 * MiB ? 64 : 4;
  if (k > TOTAL_LIMIT / size) k = TOTAL_LIMIT / size; // parse_size keeps size <= TOTAL_LIMIT
  return (int)(k ? k : 1);
}

int main(int argc, char **argv) {
  int reps = 11;
  std::vector<size_t> sizes;
  const char *size_list = "256,65536,2097152,1073741824";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if ((val = opt_value(argc, argv, &i, "--reps"))) {
      char *e;
      errno = 0;
      long r = strtol(val, &e, 10);
      if (errno || *e || e == val || r < 1 || r > 1000000) {
        fprintf(stderr, "alloc_latency: --reps %s: expected a whole number from 1 to 1000000\n", val);
        return 2;
      }
      reps = (int)r;
    } else if ((val = opt_value(argc, argv, &i, "--sizes"))) {
      size_list = val;
    } else {
      fprintf(stderr, "alloc_latency: unknown argument '%s' (try --help)\n", a);
      return 2;
    }
  }
  for (const char *s = size_list;;) {
    const char *e = s;
    size_t v = parse_size(s, &e);
    if (!v || (*e != ',' && *e != 0)) {
      fprintf(stderr, "alloc_latency: --sizes %s: expected sizes in bytes from 1 to %zu, comma separated\n",
              size_list, TOTAL_LIMIT);
      return 2;
    }
    sizes.push_back(v);
    if (!*e) break;
    s = e + 1;
  }

  // the context, created before anything is timed
  cudaError_t e = cudaFree(0);
  if (e != cudaSuccess) fail("cudaFree(0) (creating the context)", e);
  int dev = 0;
  cudaDeviceProp prop;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess) fail("cudaGetDevice", e);
  if ((e = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess) fail("cudaGetDeviceProperties", e);
  fprintf(stderr, "alloc_latency: device %d: %s; %d reps; median microseconds per call, host wall time\n", dev,
          prop.name, reps);

  for (size_t si = 0; si < sizes.size(); si++) {
    size_t size = sizes[si];
    int k = batch_for(size);
    std::vector<void *> buf((size_t)k);
    std::vector<double> t_malloc, t_free, t_bmalloc, t_bfree;

    // warm-up, untimed: a few single cycles and one batch of this size
    for (int w = 0; w < WARMUP; w++) do_free(do_malloc(size), size);
    for (int j = 0; j < k; j++) buf[j] = do_malloc(size);
    for (int j = 0; j < k; j++) do_free(buf[j], size);

    for (int r = 0; r < reps; r++) {
      // (a), (b): one allocation, then its free, each timed alone
      int64_t t0 = now_ns();
      void *p = do_malloc(size);
      int64_t t1 = now_ns();
      do_free(p, size);
      int64_t t2 = now_ns();
      t_malloc.push_back((double)(t1 - t0) / 1e3);
      t_free.push_back((double)(t2 - t1) / 1e3);

      // (c): K allocations, then K frees in the order allocated; per call
      t0 = now_ns();
      for (int j = 0; j < k; j++) buf[j] = do_malloc(size);
      t1 = now_ns();
      for (int j = 0; j < k; j++) do_free(buf[j], size);
      t2 = now_ns();
      t_bmalloc.push_back((double)(t1 - t0) / 1e3 / k);
      t_bfree.push_back((double)(t2 - t1) / 1e3 / k);
    }
    printf("size=%zu reps=%d batch=%d malloc_us=%.3f free_us=%.3f batch_malloc_us=%.3f batch_free_us=%.3f\n", size,
           reps, k, median(t_malloc), median(t_free), median(t_bmalloc), median(t_bfree));
    fflush(stdout);
  }
  return 0;
}
