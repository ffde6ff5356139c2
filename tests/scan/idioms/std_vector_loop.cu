// Idiom: std::vector filled in loops (HeCBench's segsort, flip): push_back
// in a loop changes the vector, so after the loop its size is not known (no
// finding from the empty vector it was before); element writes v[i] = x
// leave the size as it was, so a vector built with n elements and filled
// that way is still known to hold n.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: std_vector_loop.cu:29:14: remark: cannot decide whether the copy to 'd_seg' by cudaMemcpy stays in bounds: 'seg' has the value the loop at line 22 leaves
// CHECK: std_vector_loop.cu:29:21: remark: cannot decide whether the copy from 'seg.data()' by cudaMemcpy stays in bounds: 'seg' has the value the loop at line 22 leaves
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 2 unknown in 4 accesses
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  std::vector<int> seg;
  for (int off = 0; off < n; off += 3) seg.push_back(off);
  std::vector<float> v(n);
  for (int i = 0; i < n; i++) v[i] = 0.5f * i;
  int *d_seg;
  float *d_v;
  cudaMalloc((void **)&d_seg, n * sizeof(int));
  cudaMalloc((void **)&d_v, n * sizeof(float));
  cudaMemcpy(d_seg, seg.data(), seg.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d_seg);
  cudaFree(d_v);
  return 0;
}
