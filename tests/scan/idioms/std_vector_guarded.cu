// Idiom: host data in std::vector (HeCBench's aidw, segsort, gd...): buffers
// sized by v.size(), filled from v.data(), a launch over v.size() elements;
// a resize, and a copy of the vector. The correct twin of std_vector.cu.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK-NOT: remark:
// CHECK: gsan scan: 0 findings, 0 unknown in 10 accesses
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 24)) return 1;
  std::vector<float> h(n, 1.0f);
  std::vector<float> back(h.size());
  const std::vector<float> &ref = back;
  float *d_in, *d_out;
  cudaMalloc((void **)&d_in, h.size() * sizeof(float));
  cudaMalloc((void **)&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d_in, d_out, (int)h.size());
  cudaMemcpy((void *)ref.data(), d_out, ref.size() * sizeof(float), cudaMemcpyDeviceToHost);
  std::vector<float> copy = back;
  h.resize(n / 2);
  cudaMemcpy(h.data(), d_out, (n / 2) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d_in, copy.data(), copy.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
