// The Python side of the frameworks tests' PyTorch extension: tensors in,
// raw pointers and PyTorch's current stream out to the launchers in
// oob_ext.cu (compiled by gsan nvcc). Compiled by the host compiler.
#include <c10/cuda/CUDAStream.h>
#include <torch/extension.h>

#include <cstdint>

void launch_fill(float *out, int n, cudaStream_t s);
void launch_fill_past(float *out, int n, cudaStream_t s);
void launch_copy_from(const float *src, float *dst, int n, cudaStream_t s);

static void check_tensor(const torch::Tensor &t) {
  TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(),
              "expected a contiguous float32 CUDA tensor");
}

// out[i] = i for every element
static void fill(torch::Tensor out) {
  check_tensor(out);
  launch_fill(out.data_ptr<float>(), (int)out.numel(), c10::cuda::getCurrentCUDAStream());
}

// the same and one element more: the planted out-of-bounds write
static void fill_past(torch::Tensor out) {
  check_tensor(out);
  launch_fill_past(out.data_ptr<float>(), (int)out.numel(), c10::cuda::getCurrentCUDAStream());
}

// n floats read from the device address src (a Python int) into a new tensor
static torch::Tensor copy_from(int64_t src, int64_t n) {
  auto dst = torch::empty({n}, torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA));
  launch_copy_from(reinterpret_cast<const float *>(static_cast<uintptr_t>(src)), dst.data_ptr<float>(), (int)n,
                   c10::cuda::getCurrentCUDAStream());
  return dst;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fill", &fill, "out[i] = i");
  m.def("fill_past", &fill_past, "out[i] = i, and one element past the end (a bug)");
  m.def("copy_from", &copy_from, "n floats from a raw device address");
}
