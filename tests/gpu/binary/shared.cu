// Binary mode, shared memory: the patch checks each shared access's offset
// in the window against the block's shared memory, the kernel's static part
// (16-byte aligned) and the launch's dynamic part. Each mode runs a correct
// kernel first that touches the first and the last byte of both parts (no
// report: the bounds are exact, not rounded), then its bug:
//  dynamic: one float past the dynamic size given at launch;
//  far: an index far past every shared array (compute-sanitizer's memcheck
//       reports it too).
// REQUIRES: gpu
// RUN: nvcc -O2 -gencode arch=compute_%sm,code=sm_%sm -o %t %s
// RUN: %python %tools/exit_status.py --output %t.clean 0 timeout 120 %gsan run --binary -- %t clean
// RUN: %FileCheck --check-prefix=CLEAN %s < %t.clean
// CLEAN: clean: 1 3 5
// CLEAN-NOT: ERROR
// RUN: %python %tools/exit_status.py --output %t.dyn 1 timeout 120 %gsan run --binary -- %t dynamic
// RUN: %FileCheck --check-prefix=DYN %s < %t.dyn
// DYN: ERROR: GPUSanitizer: shared-buffer-overflow on address 0x{{[0-9a-f]+}}
// DYN-NEXT: WRITE of size 4 at 0x{{[0-9a-f]+}} by thread (63,0,0) block (0,0,0)
// DYN-NEXT: #0 stage(float const*, float*, int) at SASS offset 0x{{[0-9a-f]+}} (code gsan did not compile, checked by gsan run --binary)
// DYN-NEXT: is located 0 bytes after 460-byte shared variable 'static and dynamic shared memory of the block'
// DYN: SUMMARY: GPUSanitizer: shared-buffer-overflow in stage(float const*, float*, int)
// RUN: %python %tools/exit_status.py --output %t.far 1 timeout 120 %gsan run --binary -- %t far
// RUN: %FileCheck --check-prefix=FAR %s < %t.far
// FAR: ERROR: GPUSanitizer: shared-buffer-overflow on address 0x{{[0-9a-f]+}}
// FAR-NEXT: READ of size 4 at 0x{{[0-9a-f]+}} by thread (0,0,0) block (0,0,0)
// FAR-NEXT: #0 far(float*, int) at SASS offset 0x{{[0-9a-f]+}}
// FAR-NEXT: is located {{[0-9]+}} bytes after 512-byte shared variable 'static and dynamic shared memory of the block'
#include "binary.h"
#include <cstring>

// static: 200 bytes (50 ints), rounded to 208; dynamic: 64 floats = 256 bytes
// (464 in all), or 63 floats (460) when one past is the bug
__global__ void stage(const float *in, float *out, int n) {
  __shared__ int counts[50];
  extern __shared__ float buf[];
  if (threadIdx.x < 50) counts[threadIdx.x] = (int)threadIdx.x;
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[n - 1 - threadIdx.x] + (float)counts[threadIdx.x % 50];
}

__global__ void far(float *out, int i) {
  __shared__ float tile[128];
  tile[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = tile[i];
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "clean";
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, 64 * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, 128 * sizeof(float)));
  CHECK_CUDA(cudaMemset(in, 0, 64 * sizeof(float)));
  stage<<<1, 64, 64 * sizeof(float)>>>(in, out, 64);
  far<<<1, 128>>>(out, 127);
  CHECK_CUDA(cudaDeviceSynchronize());
  if (!strcmp(mode, "dynamic")) stage<<<1, 64, 63 * sizeof(float)>>>(in, out, 63);
  if (!strcmp(mode, "far")) far<<<1, 128>>>(out, 5000);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: 1 3 5 (%s)\n", mode, cudaGetErrorString(e));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  return 0;
}
