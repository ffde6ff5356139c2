// cudaMemcpy3D from the host with one slice more than cudaMalloc3D gave: the
// last slice lies past the allocation; refused, and the call returns an error.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: memcpy-param-overflow on address
// CHECK: cuMemcpy3D{{.*}}
// CHECK: #{{[0-9]+}} main {{.*}}memcpy3d_overflow.cu:22
// CHECK: copy3d: invalid argument
#include <cstdio>
int main() {
  const size_t w = 64, h = 4, d = 3;  // floats per row, rows, slices
  static float host[w * h * (d + 1)];
  cudaPitchedPtr dev;
  cudaMalloc3D(&dev, make_cudaExtent(w * sizeof(float), h, d));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, h);
  p.dstPtr = dev;
  p.extent = make_cudaExtent(w * sizeof(float), h, d + 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaError_t e = cudaMemcpy3D(&p);  // BUG: d + 1 slices into a d-slice allocation
  printf("copy3d: %s\n", cudaGetErrorString(e));
  cudaFree(dev.ptr);
  return 0;
}
