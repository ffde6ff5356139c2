// An object made by new whose constructor is the program's own is followed
// as a variable is: its members set by the constructor, read through its
// methods (a getter that returns a reference to a member, as LULESH's
// Domain::numNode() does), a new object at each new. The mesh's node count
// sizes an allocation and a launch; the kernel's guard lets one thread past
// the end (a finding, its witness an input), and the guarded twin's does
// not. A second mesh, of a constant size, is an object of its own: its
// kernel's overrun is found at its own size, not at the first mesh's.
// RUN: not %gsan-scan %s > %t.out
// RUN: %FileCheck %s < %t.out
#include <cstdlib>
#include <cuda_runtime.h>

class Mesh {
public:
  Mesh(int edge_elems) {
    int edge_nodes = edge_elems + 1;
    m_num_node = edge_nodes * edge_nodes;
  }
  int &numNode() { return m_num_node; }
private:
  int m_num_node;
};

__global__ void zero_nodes(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: new_object.cu:[[@LINE+2]]:15: warning: out-of-bounds write to 'x' [gsan-scan-oob]
  // CHECK: note: witness: nx={{[0-9]+}}, {{.*}}index {{[0-9]+}} >= size {{[0-9]+}}
  if (i <= n) x[i] = 0.0f;
}

__global__ void zero_nodes_guarded(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.0f;
}

__global__ void last_node(float *x, int n) {
  // CHECK: new_object.cu:[[@LINE+2]]:3: warning: out-of-bounds write to 'x' [gsan-scan-oob]
  // CHECK: note: witness: index 9 of 'u' >= size 9 (4-byte elements: byte 36, size 36 bytes)
  x[n] = 1.0f;
}

int main(int argc, char **argv) {
  int nx = atoi(argv[1]);
  Mesh *mesh = new Mesh(nx);
  Mesh *unit = new Mesh(2);
  int n = mesh->numNode();
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  zero_nodes<<<(n + 255) / 256, 256>>>(x, n);
  zero_nodes_guarded<<<(n + 255) / 256, 256>>>(x, n);
  float *u;
  cudaMalloc(&u, unit->numNode() * sizeof(float));
  last_node<<<1, 1>>>(u, unit->numNode());
  cudaFree(u);
  cudaFree(x);
  delete unit;
  delete mesh;
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 2 findings, 0 unknown in 3 accesses
