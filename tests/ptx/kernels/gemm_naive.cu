// Naive GEMM, one thread per output element, templated on element type with
// explicit instantiations (float, double, int) and a transposed-B variant.
#include <cuda_runtime.h>

template <typename T>
__global__ void gemm_naive(int M, int N, int K, const T* __restrict__ A,
                           const T* __restrict__ B, T* __restrict__ C)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;

    T sum = T(0);
    for (int k = 0; k < K; ++k)
        sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = sum;
}

template <typename T>
__global__ void gemm_naive_bt(int M, int N, int K, const T* A, const T* Bt, T* C, T alpha)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        const T* a = A + (size_t)row * K;
        const T* b = Bt + (size_t)col * K;
        T sum = T(0);
        for (int k = 0; k < K; ++k)
            sum += a[k] * b[k];
        C[(size_t)row * N + col] = alpha * sum;
    }
}

template __global__ void gemm_naive<float>(int, int, int, const float*, const float*, float*);
template __global__ void gemm_naive<double>(int, int, int, const double*, const double*, double*);
template __global__ void gemm_naive<int>(int, int, int, const int*, const int*, int*);
template __global__ void gemm_naive_bt<float>(int, int, int, const float*, const float*, float*, float);
template __global__ void gemm_naive_bt<double>(int, int, int, const double*, const double*, double*, double);
