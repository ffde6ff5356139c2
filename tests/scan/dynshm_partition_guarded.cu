// The guarded twin of dynshm_partition.cu: every write to s_zi stays in its
// partition (index below sections * width).
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 7 accesses
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sosfilt(const float *zi, const float *sos, float *out, int sections, int width) {
  extern __shared__ float smem[];
  float *s_out = smem;
  float *s_zi = s_out + sections;
  float *s_sos = s_zi + sections * width;
  int tx = threadIdx.x;
  for (int i = 0; i < width; i++)
    s_zi[tx * width + i] = zi[tx * width + i];
  for (int i = 0; i < width; i++)
    s_zi[tx * width + i] += 1.0f;
  for (int k = 0; k < 6; k++) s_sos[tx * 6 + k] = sos[tx * 6 + k];
  __syncthreads();
  out[tx] = s_out[tx];
}

int main(int argc, char **argv) {
  int sections = atoi(argv[1]);
  int width = atoi(argv[2]);
  if (sections < 1 || sections > 64 || width < 2 || width > 8) return 1;
  float *zi, *sos, *out;
  cudaMalloc(&zi, sections * width * sizeof(float));
  cudaMalloc(&sos, sections * 6 * sizeof(float));
  cudaMalloc(&out, sections * sizeof(float));
  size_t shm = (sections + sections * width + sections * 6) * sizeof(float);
  sosfilt<<<1, sections, shm>>>(zi, sos, out, sections, width);
  return 0;
}
