// The few CUDA spellings the clang corpus kernels need, without the CUDA
// headers (clang 14 does not know the installed CUDA 13): compiled with
// clang++ -x cuda --cuda-device-only -nocudainc -nocudalib.
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __noinline__ __attribute__((noinline))
static __device__ inline int tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ inline int ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }
static __device__ inline int ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
static __device__ inline void sync_threads() { __nvvm_bar_sync(0); }
