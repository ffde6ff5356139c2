// The CUDA side of the frameworks tests' PyTorch extension (built by
// torch.utils.cpp_extension.load with gsan nvcc as its nvcc: ext_common.py).
// Plain CUDA, no PyTorch headers: oob_ext.cpp hands it raw pointers and
// PyTorch's current stream. The line numbers of the two bugs are in the CHECK
// lines of ext_oob.py and ext_uaf.py.
#include <cuda_runtime.h>

__global__ void fill(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)i;
}

__global__ void fill_past(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = (float)i;  // BUG: i == n is one past the end
}

__global__ void copy_from(const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];  // src may be a freed tensor's address (ext_uaf.py)
}

static unsigned blocks(int n) { return (unsigned)(n + 256) / 256; }

void launch_fill(float *out, int n, cudaStream_t s) { fill<<<blocks(n), 256, 0, s>>>(out, n); }
void launch_fill_past(float *out, int n, cudaStream_t s) { fill_past<<<blocks(n), 256, 0, s>>>(out, n); }
void launch_copy_from(const float *src, float *dst, int n, cudaStream_t s) {
  copy_from<<<blocks(n), 256, 0, s>>>(src, dst, n);
}
