// Idiom: cudaMalloc3D with make_cudaExtent and a kernel taking the cudaPitchedPtr, walking
// slices and rows by the pitch (CUDA programming guide; HeCBench's pitch benchmark). The
// slice pitch is computed with the depth instead of the height: past the end when the
// volume is deeper than it is high.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale3d(cudaPitchedPtr p, int width, int height, int depth, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < width && y < height && z < depth) {
    char *base = (char *)p.ptr;
    size_t slicePitch = p.pitch * depth;
    float *row = (float *)(base + z * slicePitch + y * p.pitch);
    // CHECK: malloc3d.cu:[[@LINE+1]]:5: warning: out-of-bounds write to 'row' [gsan-scan-oob]
    row[x] *= s;
    // CHECK: note: witness:
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
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
