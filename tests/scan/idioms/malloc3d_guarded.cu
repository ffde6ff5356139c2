// Idiom: cudaMalloc3D and a kernel walking the cudaPitchedPtr by its pitch; the guarded twin
// of malloc3d.cu: a slice is pitch * height bytes.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale3d(cudaPitchedPtr p, int width, int height, int depth, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < width && y < height && z < depth) {
    char *base = (char *)p.ptr;
    size_t slicePitch = p.pitch * height;
    float *row = (float *)(base + z * slicePitch + y * p.pitch);
    row[x] *= s;
  }
}

int main(int argc, char **argv) {
  if (argc < 4) return 1;
  int w = atoi(argv[1]), h = atoi(argv[2]), d = atoi(argv[3]);
  if (w < 1 || h < 1 || d < 1 || w > 512 || h > 512 || d > 512) return 1;
  cudaExtent extent = make_cudaExtent(w * sizeof(float), h, d);
  cudaPitchedPtr p;
  cudaMalloc3D(&p, extent);
  dim3 block(8, 8, 4), grid((w + 7) / 8, (h + 7) / 8, (d + 3) / 4);
  scale3d<<<grid, block>>>(p, w, h, d, 2.0f);
  cudaFree(p.ptr);
  return 0;
}
