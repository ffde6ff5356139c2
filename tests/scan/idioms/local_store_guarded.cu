// Idiom: a kernel fills small local arrays from one element read from memory
// and indexes with them at once (compute-score's Bloom filter: hash1[i] =
// word >> 19, then bits[hash1[i] >> 5]): the load of hash1[i] reads what the
// thread just stored, so hash1[i] >> 5 < 2^8 whatever the word is, and the
// 256-word filter is never overrun. The buggy twin (local_store.cu) shifts
// the word one bit less.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

#ifndef SHIFT
#define SHIFT 19
#endif
#define VEC 4

__global__ void score(const unsigned *words, const unsigned *bits, unsigned *out, int n) {
  unsigned hash1[VEC], hash2[VEC];
  bool hit[VEC];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n) return;
  unsigned sum = 0;
  for (int i = 0; i < VEC; i++) {
    unsigned w = words[gid * VEC + i];
    hash1[i] = w >> SHIFT;
    hash2[i] = (w >> 8) & 0x1fff;
    hit[i] = ((bits[hash1[i] >> 5] >> (hash1[i] & 31)) & 1) && ((bits[hash2[i] >> 5] >> (hash2[i] & 31)) & 1);
    if (hit[i]) sum += hash1[i];
  }
  out[gid] = sum;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  unsigned *words, *bits, *out;
  cudaMalloc(&words, n * VEC * sizeof(unsigned));
  cudaMalloc(&bits, 256 * sizeof(unsigned));
  cudaMalloc(&out, n * sizeof(unsigned));
  score<<<(n + 255) / 256, 256>>>(words, bits, out, n);
  cudaFree(words);
  cudaFree(bits);
  cudaFree(out);
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in
