// Not a table: an initialised local array that the program also writes gives
// no value to its reads, whichever way the write is spelt: an element
// assigned, incremented or added to, through a pointer to the array or to an
// element, through a reference, by a range-for over references, by memcpy, by
// a function it is passed to; and a const table read as bytes through a
// cast pointer is not read as its elements (a byte of 256 is not 256). Each size below can be anything, so each
// cudaMemset of that many floats into 512 stays an unknown that says where
// the value came from, never proved in bounds; only `fixed`, which nothing
// writes, gives its values (and its memset is proved).
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static void set_from_env(int *t) { t[0] = atoi(getenv("N")); }

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int v = atoi(argv[2]);
  int c = atoi(argv[1]) % 2;
  if (c < 0) return 1;
  float *d;
  cudaMalloc(&d, 512 * sizeof(float));
  int fixed[2] = {128, 512};
  int assigned[2] = {128, 256};
  assigned[1] = v;
  int through_ptr[2] = {128, 256};
  int *p = through_ptr;
  p[1] = v;
  int incremented[2] = {128, 512};
  incremented[1]++;
  int added[2] = {128, 256};
  added[0] += v;
  int by_ref[2] = {128, 256};
  int &r = by_ref[1];
  r = v;
  int by_elem_ptr[2] = {128, 256};
  int *q = &by_elem_ptr[0];
  *q = v;
  int by_range_for[2] = {128, 256};
  for (int &x : by_range_for) x *= v;
  int by_memcpy[2] = {128, 256};
  int src[2] = {v, v};
  memcpy(by_memcpy, src, sizeof by_memcpy);
  int by_call[2] = {128, 256};
  set_from_env(by_call);
  const int by_bytes[2] = {256, 512};
  const unsigned char *b = (const unsigned char *)by_bytes;
  cudaMemset(d, 0, fixed[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide whether the set of 'd' by cudaMemset stays in bounds: the value is read from host memory (line [[@LINE+1]])
  cudaMemset(d, 0, assigned[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, through_ptr[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, incremented[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, added[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, by_ref[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, by_elem_ptr[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, by_range_for[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, by_memcpy[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, by_call[c] * sizeof(float));
  // CHECK: size_table_written.cu:[[@LINE+1]]:14: remark: cannot decide {{.*}} host memory (line [[@LINE+1]])
  cudaMemset(d, 0, b[c] * 4 * sizeof(float));
  cudaFree(d);
  return 0;
}
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 10 unknown in
