// Device function pointers: a __device__ table of activation functions selected at
// run time, a pointer passed through a struct, and an indirect call in a loop.
#include <cuda_runtime.h>

typedef float (*act_fn)(float);
typedef int (*combine_fn)(int, int);

__device__ float act_relu(float x) { return x > 0.0f ? x : 0.0f; }
__device__ float act_sigmoid(float x) { return 1.0f / (1.0f + __expf(-x)); }
__device__ float act_tanh(float x) { return tanhf(x); }
__device__ float act_gelu(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678f)); }

__device__ int comb_add(int a, int b) { return a + b; }
__device__ int comb_max(int a, int b) { return a > b ? a : b; }
__device__ int comb_xor(int a, int b) { return a ^ b; }

__device__ act_fn d_acts[4] = { act_relu, act_sigmoid, act_tanh, act_gelu };
__device__ combine_fn d_combs[3] = { comb_add, comb_max, comb_xor };

struct Layer {
    const float* in;
    float* out;
    int n;
    int act;
};

__global__ void apply_activation(Layer L)
{
    act_fn f = d_acts[L.act & 3];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < L.n; i += gridDim.x * blockDim.x)
        L.out[i] = f(L.in[i]);
}

__global__ void per_element_activation(const float* x, const int* which, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = d_acts[which[i] & 3](x[i]);      // divergent indirect call
}

__global__ void fold_rows(const int* __restrict__ m, int cols, int op, int* __restrict__ out)
{
    combine_fn f = d_combs[op % 3];
    const int* row = m + (size_t)blockIdx.x * cols;
    if (threadIdx.x == 0) {
        int acc = row[0];
        for (int j = 1; j < cols; ++j)
            acc = f(acc, row[j]);
        out[blockIdx.x] = acc;
    }
}
