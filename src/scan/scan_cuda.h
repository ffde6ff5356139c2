/* scan_cuda.h: the CUDA declarations gsan scan parses with when the toolkit's
 * headers are absent or do not parse (gsan scan --no-cuda-headers forces it).
 * Only what a program's host and device code need to type-check in clang's
 * CUDA mode: the execution-space attributes, the built-in index variables,
 * the vector types, and the runtime and device functions most programs call.
 * Written for gsan; the analyzer knows the functions it models by name. */
#pragma clang system_header
#ifndef GSAN_SCAN_CUDA_H
#define GSAN_SCAN_CUDA_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __CUDACC__ 1
#define GSAN_SCAN_CUDA_DECLS 1

#include <stddef.h>
#include <__clang_cuda_builtin_vars.h>

/* ---- vector types ---- */
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
struct int2 { int x, y; };
struct int3 { int x, y, z; };
struct int4 { int x, y, z, w; };
struct uint2 { unsigned int x, y; };
struct uint4 { unsigned int x, y, z, w; };
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct char4 { signed char x, y, z, w; };
struct uchar4 { unsigned char x, y, z, w; };
__host__ __device__ inline int2 make_int2(int x, int y) { return int2{x, y}; }
__host__ __device__ inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
__host__ __device__ inline float2 make_float2(float x, float y) { return float2{x, y}; }
__host__ __device__ inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
__host__ __device__ inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

/* ---- runtime types ---- */
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorNoDevice = 100,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999
} cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  int major, minor, multiProcessorCount;
};
#define cudaMemAttachGlobal 0x01
#define cudaHostAllocDefault 0x00
#define cudaStreamNonBlocking 0x01

extern "C" {
/* ---- runtime functions ---- */
cudaError_t cudaMalloc(void **p, size_t size);
cudaError_t cudaMallocManaged(void **p, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **p, size_t size);
cudaError_t cudaHostAlloc(void **p, size_t size, unsigned int flags);
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t stream);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaFreeAsync(void *p, cudaStream_t stream);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream = 0);
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream = 0);
cudaError_t cudaMemset(void *p, int value, size_t count);
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream = 0);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
/* what clang's CUDA mode turns <<<grid, block, shared, stream>>> into */
unsigned int __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
}

template <class T> static inline cudaError_t cudaMalloc(T **p, size_t size) { return cudaMalloc((void **)p, size); }
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t size, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, size, flags);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t size) { return cudaMallocHost((void **)p, size); }
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)p, pitch, width, height);
}
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}

/* ---- device functions ---- */
extern "C" {
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __trap(void) __attribute__((noreturn));
__device__ int printf(const char *, ...);
__device__ void *memcpy(void *, const void *, size_t);
__device__ void *memmove(void *, const void *, size_t);
__device__ void *memset(void *, int, size_t);
__device__ void __assertfail(const char *, const char *, unsigned int, const char *, size_t) __attribute__((noreturn));
}
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ void __nanosleep(unsigned int ns);
__device__ unsigned int __isShared(const void *p);
__device__ unsigned int __isGlobal(const void *p);
__device__ unsigned int __ballot_sync(unsigned int mask, int pred);
__device__ unsigned int __activemask(void);
__device__ int __popc(unsigned int);
__device__ int __clz(int);
__device__ int __ffs(int);
#define GSAN_SCAN_SHFL(T)                                                                     \
  __device__ T __shfl_sync(unsigned int mask, T v, int lane, int width = 32);                 \
  __device__ T __shfl_up_sync(unsigned int mask, T v, unsigned int delta, int width = 32);    \
  __device__ T __shfl_down_sync(unsigned int mask, T v, unsigned int delta, int width = 32);  \
  __device__ T __shfl_xor_sync(unsigned int mask, T v, int lane_mask, int width = 32);
GSAN_SCAN_SHFL(int)
GSAN_SCAN_SHFL(unsigned int)
GSAN_SCAN_SHFL(float)
GSAN_SCAN_SHFL(double)
GSAN_SCAN_SHFL(long long)
#undef GSAN_SCAN_SHFL

#define GSAN_SCAN_ATOMIC(T)                             \
  __device__ T atomicAdd(T *address, T val);            \
  __device__ T atomicSub(T *address, T val);            \
  __device__ T atomicExch(T *address, T val);           \
  __device__ T atomicMin(T *address, T val);            \
  __device__ T atomicMax(T *address, T val);            \
  __device__ T atomicAnd(T *address, T val);            \
  __device__ T atomicOr(T *address, T val);             \
  __device__ T atomicXor(T *address, T val);            \
  __device__ T atomicCAS(T *address, T compare, T val);
GSAN_SCAN_ATOMIC(int)
GSAN_SCAN_ATOMIC(unsigned int)
GSAN_SCAN_ATOMIC(unsigned long long)
#undef GSAN_SCAN_ATOMIC
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ float atomicExch(float *address, float val);
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);

template <class T> __device__ T __ldg(const T *p) { return *p; }
template <class T> __device__ T __ldcg(const T *p) { return *p; }
template <class T> __device__ void __stcg(T *p, T v) { *p = v; }

__host__ __device__ inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
__host__ __device__ inline long long min(long long a, long long b) { return a < b ? a : b; }
__host__ __device__ inline long long max(long long a, long long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
/* the overloads nvcc's headers add: floating point, long, and mixed signedness */
__host__ __device__ inline float min(float a, float b) { return a < b ? a : b; }
__host__ __device__ inline float max(float a, float b) { return a > b ? a : b; }
__host__ __device__ inline double min(double a, double b) { return a < b ? a : b; }
__host__ __device__ inline double max(double a, double b) { return a > b ? a : b; }
__host__ __device__ inline long min(long a, long b) { return a < b ? a : b; }
__host__ __device__ inline long max(long a, long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
__host__ __device__ inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
__host__ __device__ inline unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
__host__ __device__ inline unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
__host__ __device__ inline unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
__host__ __device__ inline unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
__host__ __device__ inline unsigned long min(long a, unsigned long b) { return min((unsigned long)a, b); }
__host__ __device__ inline unsigned long max(long a, unsigned long b) { return max((unsigned long)a, b); }
__host__ __device__ inline unsigned long min(unsigned long a, long b) { return min(a, (unsigned long)b); }
__host__ __device__ inline unsigned long max(unsigned long a, long b) { return max(a, (unsigned long)b); }
__host__ __device__ inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
__host__ __device__ inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static __inline__ __device__ float fminf(float a, float b) { return a < b ? a : b; }
static __inline__ __device__ float fmaxf(float a, float b) { return a > b ? a : b; }

/* device versions of the C library's math and assert (the host's come from
   <math.h> and <assert.h>; clang resolves calls by the caller's side) */
#define GSAN_SCAN_MATH1(T, f) static __inline__ __device__ T f(T x) { return x; }
GSAN_SCAN_MATH1(float, sqrtf) GSAN_SCAN_MATH1(float, rsqrtf) GSAN_SCAN_MATH1(float, expf)
GSAN_SCAN_MATH1(float, __expf) GSAN_SCAN_MATH1(float, logf) GSAN_SCAN_MATH1(float, __logf)
GSAN_SCAN_MATH1(float, fabsf) GSAN_SCAN_MATH1(float, sinf) GSAN_SCAN_MATH1(float, cosf)
GSAN_SCAN_MATH1(float, tanhf) GSAN_SCAN_MATH1(float, floorf) GSAN_SCAN_MATH1(float, ceilf)
GSAN_SCAN_MATH1(double, sqrt) GSAN_SCAN_MATH1(double, exp) GSAN_SCAN_MATH1(double, log)
GSAN_SCAN_MATH1(double, fabs) GSAN_SCAN_MATH1(double, floor) GSAN_SCAN_MATH1(double, ceil)
#undef GSAN_SCAN_MATH1
static __inline__ __device__ float powf(float x, float y) { return x + y; }
static __inline__ __device__ double pow(double x, double y) { return x + y; }
static __inline__ __device__ float fmaf(float x, float y, float z) { return x * y + z; }
static __inline__ __device__ void __assert_fail(const char *m, const char *f, unsigned int l, const char *fn) {
  __assertfail(m, f, l, fn, 1);
}


#include "gsan_nv_atomic.h"

#endif
