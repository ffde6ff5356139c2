// SCuBA's sosfilt: one dynamic shared buffer is carved into three partitions
// by pointer arithmetic. Writing s_zi one element further (i + 1) stays inside
// the buffer, so a runtime checker sees nothing, but the last thread's last
// write lands on the first element of s_sos. With sections = 13, width = 7:
// s_zi starts at float 13 (byte 52), s_sos at float 13 + 91 (byte 416);
// thread 12, i = 6 writes s_zi[12 * 7 + 6 + 1] = s_zi[91], byte 52 + 364.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
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
    // CHECK: dynshm_partition.cu:[[@LINE+1]]:5: warning: write to 's_zi' overflows partition 's_zi' into 's_sos', another partition of 'smem' [gsan-scan-partition-oob]
    s_zi[tx * width + i + 1] += 1.0f;
  // CHECK: dynshm_partition.cu:[[@LINE-8]]:10: note: partition 's_zi' starts here
  // CHECK: dynshm_partition.cu:[[@LINE-8]]:10: note: partition 's_sos' starts here
  // CHECK: dynshm_partition.cu:[[@LINE-12]]:27: note: dynamic shared memory 'smem' allocated here with size (sections * 6 + sections + sections * width) * 4 bytes
  // CHECK: note: kernel 'sosfilt' launched here
  // CHECK: note: witness: sections=13, width=7, blockDim.x=13, threadIdx.x=12, i=6: index 91 of 's_zi' is byte 416 >= 416, where 's_sos' starts
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
// CHECK: gsan scan: 1 finding, 0 unknown in 7 accesses
