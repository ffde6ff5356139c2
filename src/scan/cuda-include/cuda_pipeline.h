/* cuda_pipeline.h for gsan scan: the pipeline primitives (cp.async); gsan scan
   models __pipeline_memcpy_async as a write of size bytes at dst and a read of
   size - zfill bytes at src */
#include "../scan_cuda.h"
#ifndef GSAN_SCAN_CUDA_PIPELINE_H
#define GSAN_SCAN_CUDA_PIPELINE_H
__device__ void __pipeline_memcpy_async(void *__restrict__ dst_shared, const void *__restrict__ src_global,
                                        size_t size_and_align, size_t zfill = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t prior);
#endif
