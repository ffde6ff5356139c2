// Idiom: device pointers in the fields of a struct passed to the kernel by value (a struct
// of arrays, common in particle and mesh codes in HeCBench). The velocity array is sized
// for the cells, not for the particles, which can outnumber them.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

struct Particles {
  float *pos;
  float *vel;
  int count;
};

__global__ void advance(Particles p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: struct_ptrs.cu:[[@LINE+1]]:32: warning: out-of-bounds read of 'p.vel' [gsan-scan-oob]
  if (i < p.count) p.pos[i] += p.vel[i] * dt;
  // np = 15, ncells = 6: thread 8 is a particle (8 < 15) but reads vel[8] of 6 floats
  // CHECK: note: witness: np=15, ncells=6, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=8: index 8 >= size 6
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int np = atoi(argv[1]), ncells = atoi(argv[2]);
  if (np < 1 || np > (1 << 22) || ncells < 1 || ncells > (1 << 22)) return 1;
  Particles p;
  p.count = np;
  cudaMalloc(&p.pos, np * sizeof(float));
  cudaMalloc(&p.vel, ncells * sizeof(float));
  cudaMemset(p.vel, 0, ncells * sizeof(float));
  advance<<<(np + 255) / 256, 256>>>(p, 0.1f);
  cudaFree(p.pos);
  cudaFree(p.vel);
  return 0;
}
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
