/* Memory that libraries' pools keep until the process ends (CuPy's memory
 * pool, XLA's BFC allocator, RMM's memory resources), against the fake
 * driver, run under gsan run: each allocation is made from a function named
 * as the library's pool frame is (a C name holding the same words), and one
 * from the program itself, which stays a leak. Usage: test_pools */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
static CUresult (*mem_alloc)(CUdeviceptr *, size_t);

/* the frames CuPy's pool and XLA's allocator show (their symbols contain
 * these words: __pyx_f_4cupy_4cuda_6memory_22SingleDeviceMemoryPool__malloc,
 * tsl::BFCAllocator::AllocateRawInternal) */
__attribute__((noinline)) CUdeviceptr cupy_SingleDeviceMemoryPool__malloc(size_t n) {
  CUdeviceptr p = 0;
  mem_alloc(&p, n);
  return p;
}
__attribute__((noinline)) CUdeviceptr tsl_BFCAllocator_AllocateRawInternal(size_t n) {
  CUdeviceptr p = 0;
  mem_alloc(&p, n);
  return p;
}
__attribute__((noinline)) CUdeviceptr program_buffer(size_t n) {
  CUdeviceptr p = 0;
  mem_alloc(&p, n);
  return p;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  void *h = dlopen("libcuda.so.1", RTLD_NOW);
  gpa_fn gpa = h ? (gpa_fn)dlsym(h, "cuGetProcAddress_v2") : NULL;
  if (!gpa) return 1;
  CUresult (*init)(unsigned) = NULL;
  CUdriverProcAddressQueryResult st;
  gpa("cuInit", (void **)&init, 13000, 0, &st);
  gpa("cuMemAlloc", (void **)&mem_alloc, 13000, 0, &st);
  init(0);
  printf("cupy pool block: %s\n", cupy_SingleDeviceMemoryPool__malloc(4096) ? "live" : "FAILED");
  printf("xla bfc region: %s\n", tsl_BFCAllocator_AllocateRawInternal(1 << 20) ? "live" : "FAILED");
  printf("program buffer: %s\n", program_buffer(300) ? "live" : "FAILED");
  return 0;
}
