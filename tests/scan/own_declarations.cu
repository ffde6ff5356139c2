// gsan's own CUDA declarations (src/scan/scan_cuda.h) stand in where the
// toolkit's headers are missing (a --cuda-path with no headers) or refused
// (--no-cuda-headers): the program still parses, with <cuda_runtime.h>,
// <cassert> in device code and math functions, and the finding is the same as
// with the toolkit's headers. A copy of the analyzer without its data
// directory shows the declarations are what makes the difference.
// RUN: not %gsan-scan -v %s > %t.real.txt 2> %t.real.err
// RUN: %FileCheck --check-prefix=FINDING %s < %t.real.txt
// RUN: not %gsan-scan -v --cuda-path=%t.nowhere %s > %t.own.txt 2> %t.own.err
// RUN: %FileCheck --check-prefix=FINDING %s < %t.own.txt
// RUN: %FileCheck --check-prefix=OWN %s < %t.own.err
// RUN: not %gsan-scan -v --no-cuda-headers %s > %t.forced.txt 2> %t.forced.err
// RUN: %FileCheck --check-prefix=FINDING %s < %t.forced.txt
// RUN: %FileCheck --check-prefix=FORCED %s < %t.forced.err
// RUN: rm -rf %t.bin && mkdir -p %t.bin && cp %gsan-scan %t.bin/gsan-scan
// RUN: %python %tools/exit_status.py 2 %t.bin/gsan-scan --cuda-path=%t.nowhere %s
// RUN: not %t.bin/gsan-scan --cuda-path=%t.nowhere %s 2> %t.missing.err
// RUN: %FileCheck --check-prefix=MISSING %s < %t.missing.err
// OWN: gsan scan: {{.*}}own_declarations.cu: parsed with gsan's CUDA declarations ({{.*}}/scan_cuda.h): no CUDA headers in {{.*}}.nowhere
// FORCED: gsan scan: {{.*}}own_declarations.cu: parsed with gsan's CUDA declarations ({{.*}}/scan_cuda.h): --no-cuda-headers
// MISSING: gsan scan: {{.*}}own_declarations.cu: not analysed: the file does not parse
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void norm(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i <= n);
  // FINDING: own_declarations.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  a[i] = sqrtf(fabsf(a[i]));
  // FINDING: note: witness: n=15, gridDim.x=1, blockDim.x=128, blockIdx.x=0, threadIdx.x=15: index 15 >= size 15
  // FINDING: own_declarations.cu:[[@LINE-2]]:22: warning: out-of-bounds read of 'a' [gsan-scan-oob]
  // FINDING: gsan scan: 2 findings, 0 unknown in 2 accesses
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  norm<<<(n + 127) / 128, 128>>>(a, n);
  cudaDeviceSynchronize();
  return 0;
}
