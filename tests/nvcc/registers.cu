// A block-wide scan of 1024 threads, one item each, as HeCBench's blockScan
// writes it with CUB: natively 48 registers a thread, instrumented more than
// the 64 that a block of 1024 threads leaves each (tests/nvcc/registers.test).
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <int THREADS, int ITEMS>
__global__ void scan_tile(const int *in, int *out) {
  typedef cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
  typedef cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
  typedef cub::BlockScan<int, THREADS, cub::BLOCK_SCAN_RAKING> Scan;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } tmp;
  int data[ITEMS];
  Load(tmp.load).Load(in + blockIdx.x * THREADS * ITEMS, data);
  __syncthreads();
  int total;
  Scan(tmp.scan).ExclusiveSum(data, data, total);
  __syncthreads();
  Store(tmp.store).Store(out + blockIdx.x * THREADS * ITEMS, data);
  if (threadIdx.x == 0) out[gridDim.x * THREADS * ITEMS + blockIdx.x] = total;
}

template __global__ void scan_tile<1024, 1>(const int *, int *);
