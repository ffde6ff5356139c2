// Idiom: a small class owning a device buffer: the constructor cudaMallocs, a method
// launches the kernel, the destructor frees (common in C++ CUDA codes). Rows are padded to
// a multiple of 4 floats (ld_), but the constructor allocates rows * cols, too little
// whenever cols is not a multiple of 4.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fill(float *m, int rows, int cols, int ld, float v) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  // CHECK: class_members.cu:[[@LINE+1]]:29: warning: out-of-bounds write to 'm' [gsan-scan-oob]
  if (r < rows && c < cols) m[r * ld + c] = v;
  // e.g. rows = 2, cols = 1: ld = 4, 2 floats allocated, thread (0, 1) writes m[4]
  // CHECK: note: witness:
}

class Matrix {
 public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), ld_((cols + 3) / 4 * 4) {
    cudaMalloc(&data_, (size_t)rows * cols * sizeof(float));
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
// CHECK: gsan scan: 1 finding, 0 unknown in 1 access
