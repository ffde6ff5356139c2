// Idiom: a class whose constructor cudaMallocs and whose method launches the kernel; the
// guarded twin of class_members.cu: the buffer holds rows rows of ld_ floats.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK-NOT: warning:
// CHECK: gsan scan: 0 findings, 0 unknown in 1 access
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *m, int rows, int cols, int ld, float v) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) m[r * ld + c] = v;
}

class Matrix {
 public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), ld_((cols + 3) / 4 * 4) {
    cudaMalloc(&data_, (size_t)rows * ld_ * sizeof(float));
  }
  ~Matrix() { cudaFree(data_); }
  void set(float v) {
    dim3 block(16, 16), grid((cols_ + 15) / 16, (rows_ + 15) / 16);
    fill<<<grid, block>>>(data_, rows_, cols_, ld_, v);
  }

 private:
  float *data_;
  int rows_, cols_, ld_;
};

int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096) return 1;
  Matrix m(rows, cols);
  m.set(1.0f);
  return 0;
}
