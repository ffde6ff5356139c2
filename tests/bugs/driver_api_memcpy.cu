// A driver-API program linked with -lcuda: cuMemcpyHtoD past the end of a
// cuMemAlloc'd buffer. Only libgsan's exported names see these calls.
// EXIT: 1
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: cuMemcpyHtoD of 1028 bytes
// CHECK: main {{.*}}driver_api_memcpy.cu:19
// CHECK: ends 4 bytes after 1024-byte region
// CHECK: copy: 1
#include <cuda.h>
#include <cstdio>
int main() {
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr d;
  static char h[1028];
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
  cuMemAlloc(&d, 1024);
  printf("allocated\n");
  CUresult r = cuMemcpyHtoD(d, h, sizeof h);  // bug: 4 bytes too many
  printf("copy: %d\n", r);
  cuMemFree(d);
  return 0;
}
