// Binary mode, local memory: the patch checks each local access's offset in
// the local window against where the thread's stack starts, which libgsan
// measures once per device under the patches (a probe kernel whose frame is
// one 16-byte array; docs/binary.md): an access there or past it is past
// every frame of the thread. The same kernel in bounds first: no report.
// Then h[256], one past the kernel's one array (its whole frame: the first
// byte past the frames), and an index megabytes on: each reported, the warp
// stopped before the write.
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary -- %t 1
// RUN: %FileCheck --check-prefixes=CHECK,ONE %s < %t.out
// RUN: %python %tools/exit_status.py --output %t.far 1 timeout 120 %gsan run --binary -- %t 4194304
// RUN: %FileCheck --check-prefixes=CHECK,FAR %s < %t.far
// (the program's own lines come last: its stdout is flushed at exit)
// CHECK: ERROR: GPUSanitizer: local-buffer-overflow on address 0x{{[0-9a-f]+}}
// CHECK-NEXT: WRITE of size 4 at 0x{{[0-9a-f]+}} by thread (0,0,0) block (0,0,0)
// CHECK-NEXT: #0 hist(int const*, int*, int) at SASS offset 0x{{[0-9a-f]+}} (code gsan did not compile, checked by gsan run --binary)
// ONE-NEXT: is located 0 bytes after {{[0-9]+}}-byte local variable 'stack of the thread'
// FAR-NEXT: is located {{[0-9]+}} bytes after {{[0-9]+}}-byte local variable 'stack of the thread'
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

int main(int argc, char **argv) {
  int extra = argc > 1 ? atoi(argv[1]) : 1;
  int *in, *out, h[32];
  for (int i = 0; i < 32; i++) h[i] = 255;
  CHECK_CUDA(cudaMalloc(&in, sizeof h));
  CHECK_CUDA(cudaMalloc(&out, sizeof h));
  CHECK_CUDA(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  hist<<<1, 32>>>(in, out, 0);
  CHECK_CUDA(cudaDeviceSynchronize());
  printf("in bounds: done\n");
  hist<<<1, 32>>>(in, out, extra); /* h[255 + extra] */
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
