// Idiom: std::vector changed by calls the model does not follow (push_back,
// clear, assign, a function taking it by reference): its size and elements are
// unknown from there on, never a finding; one the model follows beside it
// stays decided.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: std_vector_changed.cu:30:19: remark: cannot decide whether the copy from 'a.data()' by cudaMemcpy stays in bounds: 'a' is changed by 'push_back' at line 26, which the model does not follow
// CHECK: std_vector_changed.cu:31:19: remark: cannot decide whether the copy from 'b.data()' by cudaMemcpy stays in bounds: 'b' is changed by 'assign' at line 28, which the model does not follow
// CHECK: std_vector_changed.cu:32:19: remark: cannot decide whether the copy from 'c.data()' by cudaMemcpy stays in bounds
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 3 unknown in 8 accesses
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

void fill(std::vector<float> &v, int n);

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  std::vector<float> a(n), b(n), c(n), d(n);
  float *dev;
  cudaMalloc((void **)&dev, 2 * n * sizeof(float));
  a.push_back(1.0f);
  b.clear();
  b.assign(2 * n, 0.0f);
  fill(c, 2 * n);
  cudaMemcpy(dev, a.data(), (n + 1) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dev, b.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dev, c.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dev, d.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(dev);
  return 0;
}
