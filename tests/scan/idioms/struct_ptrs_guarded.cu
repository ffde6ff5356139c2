// Idiom: device pointers in the fields of a struct passed by value; the guarded twin of
// struct_ptrs.cu: both arrays hold one float per particle.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 3 accesses
#include <cstdlib>
#include <cuda_runtime.h>

struct Particles {
  float *pos;
  float *vel;
  int count;
};

__global__ void advance(Particles p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.count) p.pos[i] += p.vel[i] * dt;
}

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int np = atoi(argv[1]), ncells = atoi(argv[2]);
  if (np < 1 || np > (1 << 22) || ncells < 1 || ncells > (1 << 22)) return 1;
  Particles p;
  p.count = np;
  cudaMalloc(&p.pos, np * sizeof(float));
  cudaMalloc(&p.vel, np * sizeof(float));
  cudaMemset(p.vel, 0, np * sizeof(float));
  advance<<<(np + 255) / 256, 256>>>(p, 0.1f);
  cudaFree(p.pos);
  cudaFree(p.vel);
  return 0;
}
