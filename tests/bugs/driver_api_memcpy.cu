// A driver-API program linked with -lcuda: cuMemcpyHtoD past the end of a
// cuMemAlloc'd buffer. Only libgsan's exported names see these calls.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: cuMemcpyHtoD of 1028 bytes
// CHECK: main {{.*}}driver_api_memcpy.cu:22
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
