// Binary mode, local memory: the patch checks each local access's offset in
// the local window against the window's top, where threads' stacks end. A
// local index that runs megabytes past its array is past every frame:
// reported, the warp stopped before the write. The same kernel in bounds
// first: no report. An index one past the array stays inside the window
// (the thread's stack or one below it) and is not caught in binary mode:
// where each thread's stack starts in the window is the driver's, and the
// patch is not told (docs/binary.md; compute-sanitizer's memcheck knows it).
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary -- %t
// RUN: %FileCheck %s < %t.out
// (the program's own lines come last: its stdout is flushed at exit)
// CHECK: ERROR: GPUSanitizer: local-buffer-overflow on address 0x{{[0-9a-f]+}}
// CHECK-NEXT: WRITE of size 4 at 0x{{[0-9a-f]+}} by thread (0,0,0) block (0,0,0)
// CHECK-NEXT: #0 hist(int const*, int*, int) at SASS offset 0x{{[0-9a-f]+}} (code gsan did not compile, checked by gsan run --binary)
// CHECK-NEXT: is located {{[0-9]+}} bytes after 16777216-byte local variable 'stack of the thread'
// CHECK: SUMMARY: GPUSanitizer: local-buffer-overflow in hist(int const*, int*, int)
// CHECK: in bounds: done
#include "binary.h"

__global__ void hist(const int *in, int *out, int extra) {
  int h[256];
  for (int k = 0; k < 256; k++) h[k] = 0;
  int v = in[threadIdx.x] & 255;
  h[v + extra] = 1;
  int s = 0;
  for (int k = 0; k < 256; k++) s += h[k] * k;
  out[threadIdx.x] = s;
}

int main() {
  int *in, *out, h[32];
  for (int i = 0; i < 32; i++) h[i] = 255;
  CHECK_CUDA(cudaMalloc(&in, sizeof h));
  CHECK_CUDA(cudaMalloc(&out, sizeof h));
  CHECK_CUDA(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  hist<<<1, 32>>>(in, out, 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  printf("in bounds: done\n");
  hist<<<1, 32>>>(in, out, 1 << 22); /* 16 MiB on */
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
