// Launch proofs decide per launch (docs/abi.md, "Launch proofs"): the same
// kernel runs its proven copy while its accesses stay inside, and its checked
// copy from the first launch that would leave them, which then reports the
// exact access. global: a guarded copy whose bound n grows one past the
// allocation; shared: a tile indexed by threadIdx.x launched with one thread
// more than the tile holds; freed: a launch after its buffer was freed.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run --opt verbosity=2 -- %t global > %t.global 2>&1
// RUN: %FileCheck --check-prefix=GLOBAL %s < %t.global
// RUN: not %gsan run --opt verbosity=2 -- %t shared > %t.shared 2>&1
// RUN: %FileCheck --check-prefix=SHARED %s < %t.shared
// RUN: not %gsan run --opt verbosity=2 -- %t freed > %t.freed 2>&1
// RUN: %FileCheck --check-prefix=FREED %s < %t.freed
// GLOBAL: launch of {{.*}}copy_n{{.*}}: proven copy
// GLOBAL: first launch: no error
// GLOBAL: launch of {{.*}}copy_n{{.*}}: launch-bounds copy
// GLOBAL: ERROR: GPUSanitizer: global-buffer-overflow on address
// GLOBAL: WRITE of size 4 at {{.*}} by thread (232,0,0) block (3,0,0)
// GLOBAL: #0 copy_n(float*, float const*, int) at {{.*}}launch_proof_overflow.cu:52
// GLOBAL: is located 0 bytes after 4000-byte region
// GLOBAL-NEXT: allocated by host thread T0 here:
// GLOBAL: main {{.*}}launch_proof_overflow.cu:68
// GLOBAL: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}launch_proof_overflow.cu:52 in copy_n(float*, float const*, int)
// SHARED: launch of {{.*}}reverse{{.*}}: proven copy
// SHARED: first launch: no error
// SHARED: launch of {{.*}}reverse{{.*}}: launch-bounds copy
// SHARED: ERROR: GPUSanitizer: shared-buffer-overflow on address
// SHARED: WRITE of size 4 at {{.*}} by thread (128,0,0) block (0,0,0)
// SHARED: #0 reverse(float*) at {{.*}}launch_proof_overflow.cu:58
// SHARED: is located 0 bytes after 512-byte shared variable 'reverse(float*)::t'
// SHARED: SUMMARY: GPUSanitizer: shared-buffer-overflow {{.*}}launch_proof_overflow.cu:58 in reverse(float*)
// FREED: launch of {{.*}}copy_n{{.*}}: proven copy
// FREED: first launch: no error
// FREED: launch of {{.*}}copy_n{{.*}}: launch-bounds copy
// FREED: ERROR: GPUSanitizer: use-after-free on address
// FREED-NEXT: WRITE of size 4 at {{.*}} by thread ({{[0-9]+}},0,0) block ({{[0-9]+}},0,0)
// FREED: #0 copy_n(float*, float const*, int) at {{.*}}launch_proof_overflow.cu:52
// FREED: is located {{[0-9]+}} bytes inside 4000-byte region
// FREED-NEXT: freed by host thread T0 here:
// FREED: main {{.*}}launch_proof_overflow.cu:78
// FREED: previously allocated by host thread T0 here:
// FREED: main {{.*}}launch_proof_overflow.cu:68
// FREED: SUMMARY: GPUSanitizer: use-after-free {{.*}}launch_proof_overflow.cu:52 in copy_n(float*, float const*, int)
#include <cstdio>
#include <cstring>

__global__ void copy_n(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i % 1000];
    y[i] = v;  // BUG when n > 1000: y holds 1000
  }
}

__global__ void reverse(float *out) {
  __shared__ float t[128];
  t[threadIdx.x] = threadIdx.x;  // BUG with 129 threads
  __syncthreads();
  out[threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);  // in order with gsan's lines on stderr
  const char *mode = argc > 1 ? argv[1] : "global";
  float *x, *y;
  cudaMalloc(&x, 1000 * sizeof(float));
  cudaMalloc(&y, 1000 * sizeof(float));
  cudaMemset(x, 0, 1000 * sizeof(float));
  if (!strcmp(mode, "shared")) {
    reverse<<<1, 128>>>(y);
    printf("first launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    reverse<<<1, 129>>>(y);
  } else {
    copy_n<<<4, 256>>>(y, x, 1000);
    printf("first launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    if (!strcmp(mode, "freed")) {
      cudaFree(y);
      copy_n<<<4, 256>>>(y, x, 1000);
    } else {
      copy_n<<<4, 256>>>(y, x, 1001);
    }
  }
  printf("second launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
