// The guarded twin of data_index.cu: offsets and neighbours are checked
// against the sizes they index before they are used.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 5 accesses
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void push(const int *nindex, const int *nlist, int *data1, const int *data2, int numv, int nume) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < numv) {
    int beg = nindex[i], end = nindex[i + 1];
    if (beg < 0 || end > nume) return;
    for (int j = beg; j < end; j++) {
      int neighbor = nlist[j];
      if (neighbor < 0 || neighbor >= numv) continue;
      atomicMin(&data1[neighbor], data2[i]);
    }
  }
}

int main(int argc, char **argv) {
  int numv, nume;
  FILE *f = fopen(argv[1], "rb");
  if (!f || fscanf(f, "%d %d", &numv, &nume) != 2) return 1;
  if (numv < 1 || numv > 1000000 || nume < 1 || nume > 10000000) return 1;
  int *nindex, *nlist, *data1, *data2;
  cudaMalloc(&nindex, (numv + 1) * sizeof(int));
  cudaMalloc(&nlist, nume * sizeof(int));
  cudaMalloc(&data1, numv * sizeof(int));
  cudaMalloc(&data2, numv * sizeof(int));
  push<<<(numv + 255) / 256, 256>>>(nindex, nlist, data1, data2, numv, nume);
  return 0;
}
