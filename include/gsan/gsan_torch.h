/* PyTorch's allocator entry points in libgsan, for
 * torch.cuda.memory.CUDAPluggableAllocator (docs/frameworks.md):
 *
 *   alloc = torch.cuda.memory.CUDAPluggableAllocator(
 *       'libgsan.so', 'gsan_torch_malloc', 'gsan_torch_free')
 *   torch.cuda.memory.change_current_allocator(alloc)
 *
 * in a program run by `gsan run` (libgsan preloaded; 'libgsan.so' finds the
 * preloaded one by its soname). Each tensor is then its own slot of gsan's
 * arena on its device, made and freed in stream order as cudaMallocAsync and
 * cudaFreeAsync are under gsan: exact bounds, and a freed tensor's memory is
 * a freed slot. The stream is CUDA's cudaStream_t (= CUstream), spelt as the
 * struct both name so that neither header is needed here. */
#ifndef GSAN_TORCH_H
#define GSAN_TORCH_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;

/* size bytes on device, ordered on stream; NULL for size 0, and on failure
 * (a negative size, a device that does not exist, no memory, libgsan not
 * interposing the driver), with a one-line message saying which. */
void *gsan_torch_malloc(ssize_t size, int device, struct CUstream_st *stream);

/* Frees ptr once the work queued on stream so far is done. NULL is ignored;
 * size is not needed (gsan knows each allocation's). A pointer that is not a
 * live allocation (a second free, an interior pointer) is reported as
 * double-free or invalid-free and left alone. */
void gsan_torch_free(void *ptr, ssize_t size, int device, struct CUstream_st *stream);

#ifdef __cplusplus
}
#endif

#endif
