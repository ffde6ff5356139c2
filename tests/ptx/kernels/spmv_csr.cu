// CSR sparse matrix-vector product: scalar (thread per row) and vector (warp per
// row with shuffle reduction) kernels, indirect x[col[j]] gathers via __ldg.
#include <cuda_runtime.h>

template <typename T>
__global__ void spmv_csr_scalar(int nrows, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const T* __restrict__ vals,
                                const T* __restrict__ x, T* __restrict__ y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        T sum = T(0);
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
            sum += vals[j] * x[col_idx[j]];
        y[r] = sum;
    }
}

__global__ void spmv_csr_vector(int nrows, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const float* __restrict__ vals,
                                const float* __restrict__ x, float* __restrict__ y,
                                float alpha, float beta)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (warp >= nrows) return;
    int start = __ldg(&row_ptr[warp]), end = __ldg(&row_ptr[warp + 1]);
    float sum = 0.0f;
    for (int j = start + lane; j < end; j += 32)
        sum += __ldg(&vals[j]) * __ldg(&x[__ldg(&col_idx[j])]);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0)
        y[warp] = alpha * sum + (beta != 0.0f ? beta * y[warp] : 0.0f);
}

// Transposed SpMV (y += A^T x) scattering with atomics.
__global__ void spmv_csr_transpose(int nrows, const int* row_ptr, const int* col_idx,
                                   const double* vals, const double* x, double* y)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    double xr = x[r];
    for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j)
        atomicAdd(&y[col_idx[j]], vals[j] * xr);
}

template __global__ void spmv_csr_scalar<float>(int, const int*, const int*, const float*, const float*, float*);
template __global__ void spmv_csr_scalar<double>(int, const int*, const int*, const double*, const double*, double*);
