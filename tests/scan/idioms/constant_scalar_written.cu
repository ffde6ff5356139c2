// Not a constant: globals with an initialiser that the unit also writes — a
// __constant__ set by cudaMemcpyToSymbol, a static host global assigned in
// another function, a __device__ variable a kernel stores to, a static one
// incremented — are not taken for their initial value, so no access that
// depends on one is proved in bounds by it (without the writes each would
// be: constant_scalar_guarded.cu). A device global is then what memory holds
// (an index read from memory and not validated, as for any loaded value), N
// is what configure() sets (atoi of the first argument: negative sizes
// overflow), and M is a global whose value is not known.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__constant__ int mask = 15;
__device__ int dev_mask = 15;
static int N = 4096;
static int M = 4096;

__global__ void histo(const int *v, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: constant_scalar_written.cu:[[@LINE+2]]:25: warning: the index of the atomic access to 'bins' is read from memory and not validated [gsan-scan-unvalidated-index]
  // CHECK: note: witness: {{.*}}mask=16: index 16 >= size 16
  if (i < n) atomicAdd(&bins[i & mask], 1);
}

__global__ void histo2(int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: constant_scalar_written.cu:[[@LINE+2]]:25: warning: the index of the atomic access to 'bins' is read from memory and not validated [gsan-scan-unvalidated-index]
  // CHECK: note: witness: {{.*}}dev_mask=16: index 16 >= size 16
  if (i < n) atomicAdd(&bins[i & dev_mask], 1);
}

__global__ void widen() { dev_mask = 31; }

static void configure(int n) { N = n; }

int main(int argc, char **argv) {
  int wide = 31;
  // CHECK: constant_scalar_written.cu:[[@LINE+1]]:3: remark: cannot decide whether the use of 'mask' by cudaMemcpyToSymbol stays in bounds
  cudaMemcpyToSymbol(mask, &wide, sizeof(int));
  if (argc > 1) configure(atoi(argv[1]));
  M++;
  int *v, *bins;
  cudaMalloc(&v, 4096 * sizeof(int));
  cudaMalloc(&bins, 16 * sizeof(int));
  // CHECK: constant_scalar_written.cu:[[@LINE+2]]:14: warning: out-of-bounds set of 'v' by cudaMemset [gsan-scan-oob]
  // CHECK: note: witness: atoi(argv[1])=-{{[0-9]+}}: {{[0-9]+}} bytes > size 16384 bytes
  cudaMemset(v, 0, N * sizeof(int));
  // CHECK: constant_scalar_written.cu:[[@LINE+1]]:14: remark: cannot decide whether the set of 'v' by cudaMemset stays in bounds: 'M' is a global variable whose value is not known here
  cudaMemset(v, 0, M * sizeof(int));
  widen<<<1, 1>>>();
  histo<<<16, 256>>>(v, bins, 4096);
  histo2<<<16, 256>>>(bins, 4096);
  cudaFree(v);
  cudaFree(bins);
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 3 findings, 2 unknown in 8 accesses
