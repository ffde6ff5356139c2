// Binary mode, the device heap: the patch keeps a record of every in-kernel
// malloc and free (block, size, the thread that allocated it) and checks
// accesses outside gsan's arena against it. One program, a mode per bug:
//  clean: blocks of many sizes written to their last byte and freed: no report;
//  overflow: a write one int past a 40-byte block;
//  uaf: a read of a block another kernel freed;
//  double: a block freed twice; invalid: free of a pointer into a block;
//  leak: a block never freed, reported at exit with its thread.
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.clean 0 timeout 120 %gsan run --binary -- %t clean
// RUN: %FileCheck --check-prefix=CLEAN %s < %t.clean
// CLEAN: clean: no error
// CLEAN-NOT: ERROR
// RUN: %python %tools/exit_status.py --output %t.overflow 1 timeout 120 %gsan run --binary -- %t overflow
// RUN: %FileCheck --check-prefix=OVERFLOW %s < %t.overflow
// OVERFLOW: ERROR: GPUSanitizer: device-heap-buffer-overflow on address 0x{{[0-9a-f]+}}
// OVERFLOW-NEXT: WRITE of size 4 at 0x{{[0-9a-f]+}} by thread (0,0,0) block (0,0,0)
// OVERFLOW-NEXT: #0 overflow(int**) at SASS offset 0x{{[0-9a-f]+}}
// OVERFLOW-NEXT: is located 0 bytes after 40-byte region
// OVERFLOW-NEXT: allocated by device thread (0,0,0) block (0,0,0) here:
// RUN: %python %tools/exit_status.py --output %t.uaf 1 timeout 120 %gsan run --binary -- %t uaf
// RUN: %FileCheck --check-prefix=UAF %s < %t.uaf
// UAF: ERROR: GPUSanitizer: device-heap-use-after-free on address 0x{{[0-9a-f]+}}
// UAF-NEXT: READ of size 4 at 0x{{[0-9a-f]+}} by thread (0,0,0) block (0,0,0)
// UAF-NEXT: #0 use(int**, int*) at SASS offset 0x{{[0-9a-f]+}}
// UAF-NEXT: is located 8 bytes inside 40-byte region
// UAF-NEXT: previously allocated by device thread (0,0,0) block (0,0,0) here:
// RUN: %python %tools/exit_status.py --output %t.double 1 timeout 120 %gsan run --binary -- %t double
// RUN: %FileCheck --check-prefix=DOUBLE %s < %t.double
// DOUBLE: ERROR: GPUSanitizer: device-heap-double-free on address 0x{{[0-9a-f]+}}
// DOUBLE-NEXT: free(0x{{[0-9a-f]+}}) by thread (0,0,0) block (0,0,0)
// DOUBLE-NEXT: #0 release(int**) at SASS offset 0x{{[0-9a-f]+}}
// DOUBLE-NEXT: is located 0 bytes inside 40-byte region
// RUN: %python %tools/exit_status.py --output %t.invalid 1 timeout 120 %gsan run --binary -- %t invalid
// RUN: %FileCheck --check-prefix=INVALID %s < %t.invalid
// INVALID: ERROR: GPUSanitizer: device-heap-invalid-free on address 0x{{[0-9a-f]+}}
// INVALID-NEXT: free(0x{{[0-9a-f]+}}) by thread (0,0,0) block (0,0,0)
// INVALID-NEXT: #0 release_inner(int**) at SASS offset 0x{{[0-9a-f]+}}
// INVALID-NEXT: is not the start of any device-heap block
// RUN: %python %tools/exit_status.py --output %t.leak 1 timeout 120 %gsan run --binary -- %t leak
// RUN: %FileCheck --check-prefix=LEAK %s < %t.leak
// LEAK: ERROR: GPUSanitizer: detected device memory leaks
// LEAK: Leak of 40 byte(s) at 0x{{[0-9a-f]+}} (device heap)
// LEAK-NEXT: allocated by device thread (0,0,0) block (0,0,0) here:
#include "binary.h"
#include <cstring>

__global__ void make(int **slot, int n) {
  int *p = (int *)malloc(n);
  if (p) p[0] = 1;
  *slot = p;
}
__global__ void overflow(int **slot) { (*slot)[10] = 7; }
__global__ void use(int **slot, int *out) { *out = (*slot)[2]; }
__global__ void release(int **slot) { free(*slot); }
__global__ void release_inner(int **slot) { free(*slot + 4); }
__global__ void many(int *out) {
  int n = 1 + (int)(threadIdx.x * 37 % 200);
  char *p = (char *)malloc(n);
  if (!p) return;
  for (int i = 0; i < n; i++) p[i] = (char)i;
  out[threadIdx.x] = p[n - 1];
  free(p);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "clean";
  int **slot, *out;
  CHECK_CUDA(cudaMalloc(&slot, sizeof(int *)));
  CHECK_CUDA(cudaMalloc(&out, 256 * sizeof(int)));
  many<<<4, 256>>>(out);
  make<<<1, 1>>>(slot, 40);
  CHECK_CUDA(cudaDeviceSynchronize());
  if (!strcmp(mode, "overflow")) overflow<<<1, 1>>>(slot);
  if (!strcmp(mode, "uaf")) release<<<1, 1>>>(slot), use<<<1, 1>>>(slot, out);
  if (!strcmp(mode, "double")) release<<<1, 1>>>(slot), release<<<1, 1>>>(slot);
  if (!strcmp(mode, "invalid")) release_inner<<<1, 1>>>(slot);
  if (strcmp(mode, "leak") && strcmp(mode, "double") && strcmp(mode, "uaf")) release<<<1, 1>>>(slot);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", mode, e == cudaSuccess ? "no error" : cudaGetErrorString(e));
  CHECK_CUDA(cudaFree(slot));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
