// In-kernel heap: malloc/free per thread and per block (shared pointer to a heap
// buffer), writing through heap memory and checking for allocation failure.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void per_thread_scratch(const int* __restrict__ lens, const float* __restrict__ in,
                                   float* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int len = lens[i];
    float* tmp = (float*)malloc(sizeof(float) * len);
    if (tmp == nullptr) { out[i] = -1.0f; return; }
    for (int k = 0; k < len; ++k)
        tmp[k] = in[(i + k) % n] * (k + 1);
    float s = 0.0f;
    for (int k = len - 1; k >= 0; --k)
        s += tmp[k];
    out[i] = s;
    free(tmp);
}

__global__ void block_shared_heap(const int* __restrict__ in, int* __restrict__ out, int per_block)
{
    __shared__ int* heap_buf;
    if (threadIdx.x == 0)
        heap_buf = (int*)malloc(sizeof(int) * per_block);
    __syncthreads();
    if (heap_buf == nullptr) return;

    const int* src = in + (size_t)blockIdx.x * per_block;
    for (int k = threadIdx.x; k < per_block; k += blockDim.x)
        heap_buf[k] = src[k] * 3;
    __syncthreads();
    for (int k = threadIdx.x; k < per_block; k += blockDim.x)
        out[(size_t)blockIdx.x * per_block + k] = heap_buf[per_block - 1 - k];
    __syncthreads();
    if (threadIdx.x == 0)
        free(heap_buf);
}

struct ListNode { int v; ListNode* next; };

__global__ void build_and_sum_list(const int* vals, int n, long long* out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    ListNode* head = nullptr;
    for (int i = 0; i < n; ++i) {
        ListNode* nd = (ListNode*)malloc(sizeof(ListNode));
        if (!nd) break;
        nd->v = vals[i];
        nd->next = head;
        head = nd;
    }
    long long s = 0;
    while (head) { s += head->v; ListNode* nx = head->next; free(head); head = nx; }
    *out = s;
}
