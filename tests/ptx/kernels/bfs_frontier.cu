// Level-synchronous BFS frontier expansion over a CSR graph: atomicCAS to claim
// vertices, atomicAdd to append to the next frontier, plus a bitmap-based variant.
#include <cuda_runtime.h>

__global__ void bfs_expand(const int* __restrict__ row_ptr, const int* __restrict__ adj,
                           const int* __restrict__ frontier, int frontier_size,
                           int* __restrict__ next_frontier, int* __restrict__ next_size,
                           int* __restrict__ dist, int* __restrict__ parent, int level)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= frontier_size) return;
    int u = frontier[tid];
    for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
        int v = adj[e];
        if (atomicCAS(&dist[v], -1, level + 1) == -1) {
            parent[v] = u;
            int pos = atomicAdd(next_size, 1);
            next_frontier[pos] = v;
        }
    }
}

// Top-down step with a visited bitmap and warp-aggregated frontier append.
__global__ void bfs_bitmap_step(const int* __restrict__ row_ptr, const int* __restrict__ adj,
                                const unsigned* __restrict__ cur, unsigned* __restrict__ next,
                                unsigned* __restrict__ visited, int* __restrict__ level_of,
                                int nverts, int level, int* __restrict__ changed)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    bool active = u < nverts && (cur[u >> 5] >> (u & 31)) & 1u;
    int found = 0;
    if (active) {
        for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
            int v = adj[e];
            unsigned bit = 1u << (v & 31);
            if (visited[v >> 5] & bit) continue;
            unsigned old = atomicOr(&visited[v >> 5], bit);
            if (!(old & bit)) {
                atomicOr(&next[v >> 5], bit);
                level_of[v] = level + 1;
                ++found;
            }
        }
    }
    unsigned any = __ballot_sync(0xffffffffu, found > 0);
    if ((threadIdx.x & 31) == 0 && any)
        atomicExch(changed, 1);
}
