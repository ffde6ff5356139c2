// A host array filled and read back between calls: OpenCL ports (HeCBench's
// medianfilter) keep their work sizes in size_t arrays, round them up with
// a helper whose body is elsewhere, and make the grid and the block from
// them. The stores are kept across the helper's call (numbers only: it has
// no pointer to the array), so the block is known and the kernel's shared
// tile is proved in bounds; before, every read of the array was "read from
// host memory" (medianfilter: 47 unknowns of 131 accesses to 8). The twin
// hands the array to a function the model does not see between the stores
// and the reads: those are unknown again.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: %FileCheck --check-prefix=SAFE %s < %t.txt
#include <cstddef>
#include <cstdlib>
#include <cuda_runtime.h>

extern "C" size_t round_up(int group, int global); // defined elsewhere
extern "C" void log_sizes(size_t *sizes);           // defined elsewhere

__global__ void tile(const float *in) {
  __shared__ float s[16 * 4];
  // SAFE-NOT: host_array_stores.cu:[[@LINE+1]]
  s[threadIdx.y * 16 + threadIdx.x] = in[0];
}

__global__ void tile_after(const float *in) {
  __shared__ float s[16 * 4];
  // CHECK: host_array_stores.cu:[[@LINE+1]]:3: remark: cannot decide whether the write to 's' stays in bounds: the value is read from host memory (line [[#@LINE+17]]) [gsan-scan-unknown]
  s[threadIdx.y * 16 + threadIdx.x] = in[0];
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int width = atoi(argv[1]), height = atoi(argv[2]);
  if (width < 1 || width > 4096 || height < 1 || height > 4096) return 1;
  float *img;
  cudaMalloc(&img, sizeof(float));
  size_t local[2], global[2];
  local[0] = 16;
  local[1] = 4;
  global[0] = round_up((int)local[0], width);
  global[1] = round_up((int)local[1], height);
  tile<<<dim3(global[0] / local[0], global[1] / local[1]), dim3(local[0], local[1])>>>(img);
  log_sizes(local); // may write it
  tile_after<<<1, dim3(local[0], local[1])>>>(img);
  cudaFree(img);
  return 0;
}
// CHECK: gsan scan: 0 findings, 1 unknown in {{[0-9]+}} accesses
