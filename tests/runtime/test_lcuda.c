/* A driver-API program linked with -lcuda (against the fake libcuda.so.1):
 * it calls cuMemAlloc and friends directly, so only libgsan's exported names
 * stand between it and the driver. Run under gsan run. */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

/* what a program built with --default-stream per-thread links */
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned sh, CUstream s, void **args, void **extra);

int main(void) {
  static char buf[8192];
  CUdeviceptr a;
  cuInit(0);
  CUresult r = cuMemAlloc(&a, 4000);
  printf("cuMemAlloc: %d, in the arena: %s\n", r, a >= 0x100000000000ull && a < 0x200000000000ull ? "yes" : "no");
  printf("cuMemcpyHtoD of 4001: %d\n", cuMemcpyHtoD(a, buf, 4001));
  printf("free: %d\n", cuMemFree(a));
  printf("free again: %d\n", cuMemFree(a));
  size_t pitch;
  r = cuMemAllocPitch(&a, &pitch, 100, 2, 4);
  printf("cuMemAllocPitch: %d, pitch %zu, in the arena: %s\n", r, pitch,
         a >= 0x100000000000ull && a < 0x200000000000ull ? "yes" : "no");
  printf("cuMemFreeAsync: %d\n", cuMemFreeAsync(a, NULL));
  r = cuMemAllocAsync(&a, 64, NULL);
  printf("cuMemAllocAsync: %d, in the arena: %s\n", r, a >= 0x100000000000ull && a < 0x200000000000ull ? "yes" : "no");
  printf("cuMemFree of it: %d\n", cuMemFree(a));
  /* a launch through the per-thread symbol is ordered after the table
   * writes that allocation and free queued */
  void *fake = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD); /* the counters are the library's own */
  int *waits = fake ? dlsym(fake, "fake_stream_waits") : NULL, *launches = fake ? dlsym(fake, "fake_launches") : NULL;
  if (!waits || !launches) return 2;
  int w0 = *waits, l0 = *launches;
  r = cuLaunchKernel_ptsz(NULL, 1, 1, 1, 1, 1, 1, 0, (CUstream)(uintptr_t)0x42, NULL, NULL);
  printf("cuLaunchKernel_ptsz: %d, launched after waiting: %s\n", r,
         *launches == l0 + 1 && *waits == w0 + 1 ? "yes" : "NO");
  return 0;
}
