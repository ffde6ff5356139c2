// Indigo's pushNode: a vertex's neighbour is read from the edge list and used
// as an index without a check. For a malformed graph it can be anything; the
// analyzer reports it as an unvalidated index, not as a proven overflow. The
// CSR offsets read from nindex are unvalidated indices into nlist as well.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void push(const int *nindex, const int *nlist, int *data1, const int *data2, int numv) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < numv) {
    for (int j = nindex[i]; j < nindex[i + 1]; j++) {
      // CHECK: data_index.cu:[[@LINE+1]]:22: warning: the index of the read of 'nlist' is read from memory and not validated [gsan-scan-unvalidated-index]
      int neighbor = nlist[j];
      // CHECK: note: witness: numv=15, nume=9, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=0, j=14, nindex[i]=0, nindex[i + 1]=15: index 14 >= size 9
      // CHECK: data_index.cu:[[@LINE+2]]:18: warning: the index of the atomic access to 'data1' is read from memory and not validated [gsan-scan-unvalidated-index]
      // CHECK: data_index.cu:[[@LINE-3]]:22: note: 'nlist[j]' is read here
      atomicMin(&data1[neighbor], data2[i]);
      // CHECK: note: witness: numv=9, nume=16, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=0, nlist[j]=9: index 9 >= size 9
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
  push<<<(numv + 255) / 256, 256>>>(nindex, nlist, data1, data2, numv);
  return 0;
}
// CHECK: gsan scan: 2 findings, 0 unknown in 5 accesses
