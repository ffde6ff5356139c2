/* A driver-API program linked with -lcuda (against the fake libcuda.so.1):
 * it calls cuMemAlloc and friends directly, so only libgsan's exported names
 * stand between it and the driver. Run under gsan run. */
#include <cuda.h>
#include <stdio.h>

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
  return 0;
}
