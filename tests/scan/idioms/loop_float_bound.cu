// Idiom: a loop whose bound is a double (HeCBench's henry: the atom count
// passed to a device function as double natoms, for (int i = 0; i < natoms;
// i++)): the model does not follow comparisons of floating-point values, so
// the condition does not bound the counter. Its accesses are unknowns with
// that reason, never findings (they were: the counter went unbounded); an
// access that needs no bound stays decided.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: loop_float_bound.cu:19:36: remark: cannot decide whether the read of 'a' stays in bounds: the condition of the loop at line 19 does not bound 'i' as the model follows it
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 1 unknown in 3 accesses
#include <cstdlib>
#include <fstream>
#include <cuda_runtime.h>

__device__ double sum(const double *a, double n) {
  double s = a[0];
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

__global__ void total(const double *a, double *out, int n) { out[threadIdx.x] = sum(a, n); }

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  std::ifstream f(argv[1]);
  int n;
  f >> n;
  if (n < 1 || n > 1000) return 1;
  double *a, *out;
  cudaMalloc((void **)&a, n * sizeof(double));
  cudaMalloc((void **)&out, 32 * sizeof(double));
  total<<<1, 32>>>(a, out, n);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
