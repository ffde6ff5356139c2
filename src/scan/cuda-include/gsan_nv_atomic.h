/* gsan_nv_atomic.h: CUDA 12.8's scoped atomics, which nvcc knows without a
 * declaration (its front end defines them) and clang does not: the memory
 * orders and scopes, and the functions as templates. gsan scan includes it
 * with the toolkit's headers as well as with its own declarations. */
#ifndef GSAN_NV_ATOMIC_H
#define GSAN_NV_ATOMIC_H
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER, __NV_THREAD_SCOPE_DEVICE, __NV_THREAD_SCOPE_SYSTEM };
#define GSAN_NV_ATOMIC(op) template <class T> __device__ T __nv_atomic_##op(T *p, T v, int order, int scope = 3);
GSAN_NV_ATOMIC(fetch_add) GSAN_NV_ATOMIC(fetch_sub) GSAN_NV_ATOMIC(fetch_min) GSAN_NV_ATOMIC(fetch_max)
GSAN_NV_ATOMIC(fetch_and) GSAN_NV_ATOMIC(fetch_or) GSAN_NV_ATOMIC(fetch_xor) GSAN_NV_ATOMIC(add) GSAN_NV_ATOMIC(sub)
GSAN_NV_ATOMIC(min) GSAN_NV_ATOMIC(max) GSAN_NV_ATOMIC(and) GSAN_NV_ATOMIC(or) GSAN_NV_ATOMIC(xor) GSAN_NV_ATOMIC(exchange_n)
#undef GSAN_NV_ATOMIC
template <class T> __device__ void __nv_atomic_exchange(T *p, T *v, T *ret, int order, int scope = 3);
template <class T> __device__ T __nv_atomic_load_n(T *p, int order, int scope = 3);
template <class T> __device__ void __nv_atomic_load(T *p, T *ret, int order, int scope = 3);
template <class T> __device__ void __nv_atomic_store_n(T *p, T v, int order, int scope = 3);
template <class T> __device__ void __nv_atomic_store(T *p, T *v, int order, int scope = 3);
template <class T> __device__ bool __nv_atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak, int success, int failure, int scope = 3);
template <class T> __device__ bool __nv_atomic_compare_exchange(T *p, T *expected, T *desired, bool weak, int success, int failure, int scope = 3);

#endif
