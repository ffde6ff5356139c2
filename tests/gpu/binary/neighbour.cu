// Binary mode: an overflow that lands in another live allocation. Two
// 100-byte cudaMallocs; the kernel writes at a + 520. In cudaMalloc's own
// layout (b at a + 512 on the H100: the native run prints the distance) that
// is b[8]: live memory, which compute-sanitizer's memcheck cannot tell from
// b's own (the native run shows b changed). Under gsan each 100-byte
// allocation has a 128-byte slot, taken in order and not reused, so a + 520
// lands in a slot no allocation holds: gsan run --binary reports it, as an
// overflow of the live allocation nearest below it (as ASan names the chunk
// beside a redzone: rt_binary_beside), and b is untouched. An access is
// checked by its address alone, so a write that lands inside b's own slot
// would not be caught (docs/binary.md).
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %t | %FileCheck --check-prefix=NATIVE %s
// NATIVE: b - a = 512
// NATIVE: b[8] after the kernel: 7 (overwritten)
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 %gsan run --binary --opt halt_on_error=0 -- %t
// RUN: %FileCheck %s < %t.out
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK-NEXT: WRITE of size 4
// CHECK-NEXT: #0 write_at(char*, long) at SASS offset 0x{{[0-9a-f]+}}
// CHECK-NEXT: is located {{[0-9]+}} bytes after 100-byte region
// CHECK: b[8] after the kernel: 0 (untouched)
#include "binary.h"

__global__ void write_at(char *a, long off) { *(int *)(a + off) = 7; }

int main() {
  char *a, *b;
  CHECK_CUDA(cudaMalloc(&a, 100));
  CHECK_CUDA(cudaMalloc(&b, 100));
  CHECK_CUDA(cudaMemset(b, 0, 100));
  printf("b - a = %lld\n", (long long)(b - a));
  write_at<<<1, 1>>>(a, 520);
  CHECK_CUDA(cudaDeviceSynchronize());
  char host[100];
  CHECK_CUDA(cudaMemcpy(host, b, 100, cudaMemcpyDeviceToHost));
  printf("b[8] after the kernel: %d (%s)\n", host[8], host[8] ? "overwritten" : "untouched");
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  return 0;
}
