/* VMM operations on the CUDA driver (rt_vmm_cuda.h). */
#include "rt_vmm_cuda.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* entries gathered before one cuStreamBatchMemOp (which takes fewer than 256) */
#define RT_BATCH 128

typedef struct cuda_vmm {
  rt_cuda_api api;
  int device;
  /* table writes on gsan's stream: how many, how many `ev` covers, how many
   * are known done (a launch with nothing in flight pays two loads); async:
   * left in flight, launches ordered after them */
  int async;
  CUstream stream;
  CUevent ev;
  pthread_mutex_t lock;
  uint64_t queued, recorded, done;
  /* async entry writes not yet on the stream: sent as one batch when a
   * launch needs them, before a page is zeroed, or when the batch is full;
   * one driver call per allocation is what an allocation cost */
  CUstreamBatchMemOpParams batch[RT_BATCH];
  unsigned nbatch;
  int no_batch; /* the driver refused batches: one write per call */
} cuda_vmm;

static CUmemAllocationProp prop_for(int device) {
  CUmemAllocationProp p;
  memset(&p, 0, sizeof p);
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

static int cv_reserve(void *ctx, uint64_t size, uint64_t align, uint64_t hint, uint64_t *out) {
  cuda_vmm *v = ctx;
  CUdeviceptr p = 0;
  CUresult r = v->api.MemAddressReserve(&p, size, align, hint, 0);
  *out = p;
  return r;
}

static int cv_unreserve(void *ctx, uint64_t addr, uint64_t size) {
  return ((cuda_vmm *)ctx)->api.MemAddressFree(addr, size);
}

static int cv_create(void *ctx, uint64_t size, int device, uint64_t *handle) {
  cuda_vmm *v = ctx;
  CUmemAllocationProp p = prop_for(device);
  CUmemGenericAllocationHandle h = 0;
  CUresult r = v->api.MemCreate(&h, size, &p, 0);
  *handle = h;
  return r;
}

static int cv_release(void *ctx, uint64_t handle) { return ((cuda_vmm *)ctx)->api.MemRelease(handle); }

static int cv_map(void *ctx, uint64_t addr, uint64_t size, uint64_t handle, int device) {
  cuda_vmm *v = ctx;
  CUresult r = v->api.MemMap(addr, size, 0, handle, 0);
  if (r != CUDA_SUCCESS) return r;
  CUmemAccessDesc d;
  memset(&d, 0, sizeof d);
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = device;
  d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  r = v->api.MemSetAccess(addr, size, &d, 1);
  if (r != CUDA_SUCCESS) v->api.MemUnmap(addr, size);
  return r;
}

/* Canary words are written into data granules (rt_canary.c), which a free
 * may unmap while they are still gathered or in flight on gsan's stream:
 * seen on the H100, a later batch naming an unmapped address made the
 * driver refuse it (CUDA_ERROR_INVALID_VALUE, returned to the program's
 * cudaMalloc). So writes still gathered for the range are dropped (their
 * memory goes), and writes already on the stream are waited for first. */
static int cv_unmap(void *ctx, uint64_t addr, uint64_t size) {
  cuda_vmm *v = ctx;
  pthread_mutex_lock(&v->lock);
  unsigned kept = 0;
  for (unsigned i = 0; i < v->nbatch; i++) {
    uint64_t a = v->batch[i].writeValue.address;
    if (a >= addr && a - addr < size) continue;
    v->batch[kept++] = v->batch[i];
  }
  v->nbatch = kept;
  CUresult r = CUDA_SUCCESS;
  uint64_t q = __atomic_load_n(&v->queued, __ATOMIC_ACQUIRE);
  if (v->stream && q != __atomic_load_n(&v->done, __ATOMIC_ACQUIRE)) {
    r = v->api.StreamSynchronize(v->stream);
    if (r == CUDA_SUCCESS) __atomic_store_n(&v->done, q - kept, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&v->lock);
  return r == CUDA_SUCCESS ? v->api.MemUnmap(addr, size) : r;
}

/* after a write was queued (r its result): counted, and waited for unless
 * launches are ordered after queued writes */
static int queued(cuda_vmm *v, CUresult r) {
  if (r == CUDA_SUCCESS) __atomic_store_n(&v->queued, v->queued + 1, __ATOMIC_RELEASE);
  int wait = !v->async;
  CUstream s = v->stream;
  pthread_mutex_unlock(&v->lock);
  if (r == CUDA_SUCCESS && wait && s) r = v->api.StreamSynchronize(s);
  return r;
}

/* one write of 8 bytes (or 4: wide 0) on the stream now; a device without
 * stream writes of that width gets a copy and a wait, from then on (under
 * v->lock) */
static CUresult write_now(cuda_vmm *v, uint64_t addr, uint64_t value, int wide) {
  /* a driver without 32-bit stream writes: that write alone is a copy */
  if (v->stream && (wide || v->api.StreamWriteValue32)) {
    CUresult r = wide ? v->api.StreamWriteValue64(v->stream, addr, value, CU_STREAM_WRITE_VALUE_DEFAULT)
                      : v->api.StreamWriteValue32(v->stream, addr, (cuuint32_t)value, CU_STREAM_WRITE_VALUE_DEFAULT);
    if (r != CUDA_ERROR_NOT_SUPPORTED) return r;
    if (v->async) v->api.StreamSynchronize(v->stream);
    v->stream = NULL;
    v->async = 0;
  }
  uint32_t narrow = (uint32_t)value;
  CUresult r = v->api.MemcpyHtoD(addr, wide ? (const void *)&value : (const void *)&narrow, wide ? 8 : 4);
  return r == CUDA_SUCCESS && v->api.CtxSynchronize ? v->api.CtxSynchronize() : r;
}

/* a gathered operation written now */
static CUresult write_op(cuda_vmm *v, const CUstreamBatchMemOpParams *op) {
  int wide = op->writeValue.operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
  return write_now(v, op->writeValue.address, wide ? op->writeValue.value64 : op->writeValue.value, wide);
}

/* the gathered entries onto the stream, in order (under v->lock); on an
 * error other than a refusal they are dropped: that is a context lost after
 * a fault, where no kernel will read them */
static CUresult flush(cuda_vmm *v) {
  unsigned n = v->nbatch;
  v->nbatch = 0;
  if (!n) return CUDA_SUCCESS;
  CUresult r = v->no_batch ? CUDA_ERROR_NOT_SUPPORTED : v->api.StreamBatchMemOp(v->stream, n, v->batch, 0);
  if (r != CUDA_ERROR_NOT_SUPPORTED) return r;
  v->no_batch = 1;
  r = CUDA_SUCCESS;
  for (unsigned i = 0; i < n && r == CUDA_SUCCESS; i++) r = write_op(v, &v->batch[i]);
  return r;
}

static int set_value(void *ctx, uint64_t addr, uint64_t value, int wide) {
  cuda_vmm *v = ctx;
  pthread_mutex_lock(&v->lock);
  if (v->async && v->api.StreamBatchMemOp && !v->no_batch) {
    CUresult r = v->nbatch == RT_BATCH ? flush(v) : CUDA_SUCCESS;
    if (r != CUDA_SUCCESS) return queued(v, r);
    /* a flush the driver refused sent the batch one by one: so goes this
     * entry, or it would land after later ones to the same slot */
    if (!v->no_batch) {
      CUstreamBatchMemOpParams *op = &v->batch[v->nbatch++];
      memset(op, 0, sizeof *op);
      op->writeValue.operation = wide ? CU_STREAM_MEM_OP_WRITE_VALUE_64 : CU_STREAM_MEM_OP_WRITE_VALUE_32;
      op->writeValue.address = addr;
      if (wide) op->writeValue.value64 = value;
      else op->writeValue.value = (cuuint32_t)value;
      return queued(v, r);
    }
  }
  CUresult r = write_now(v, addr, value, wide);
  if (!v->stream) {
    pthread_mutex_unlock(&v->lock);
    return r;
  }
  return queued(v, r);
}

static int cv_set64(void *ctx, uint64_t addr, uint64_t value) { return set_value(ctx, addr, value, 1); }
static int cv_set32(void *ctx, uint64_t addr, uint32_t value) { return set_value(ctx, addr, value, 0); }

static int cv_zero(void *ctx, uint64_t addr, uint64_t size) {
  cuda_vmm *v = ctx;
  pthread_mutex_lock(&v->lock);
  CUresult r = flush(v); /* gathered entries first, in the order made */
  if (r == CUDA_SUCCESS && v->stream) return queued(v, v->api.MemsetD8Async(addr, 0, size, v->stream));
  pthread_mutex_unlock(&v->lock);
  if (r != CUDA_SUCCESS) return r;
  void *z = calloc(1, size);
  r = z ? v->api.MemcpyHtoD(addr, z, size) : CUDA_ERROR_OUT_OF_MEMORY;
  free(z);
  return r == CUDA_SUCCESS && v->api.CtxSynchronize ? v->api.CtxSynchronize() : r;
}

int rt_vmm_cuda_stream(rt_vmm *vm, CUstream stream, int queue) {
  cuda_vmm *v = vm->ctx;
  const rt_cuda_api *a = &v->api;
  if (!stream || !a->StreamWriteValue64 || !a->MemsetD8Async || !a->StreamSynchronize || !a->EventCreate ||
      !a->EventRecord || !a->EventQuery || !a->EventSynchronize || !a->StreamWaitEvent)
    return CUDA_ERROR_NOT_SUPPORTED;
  CUresult r = a->EventCreate(&v->ev, CU_EVENT_DISABLE_TIMING);
  if (r != CUDA_SUCCESS) return r;
  v->stream = stream;
  v->async = queue;
  return 0;
}

int rt_vmm_cuda_pending(const rt_vmm *vm) {
  const cuda_vmm *v = vm->ctx;
  return v && v->async &&
         __atomic_load_n(&v->queued, __ATOMIC_ACQUIRE) != __atomic_load_n(&v->done, __ATOMIC_ACQUIRE);
}

int rt_vmm_cuda_order(rt_vmm *vm, CUstream launch_stream, int host_wait) {
  cuda_vmm *v = vm->ctx;
  if (!rt_vmm_cuda_pending(vm)) return 0;
  pthread_mutex_lock(&v->lock);
  CUresult r = flush(v);
  if (r == CUDA_SUCCESS && v->recorded != v->queued) {
    r = v->api.EventRecord(v->ev, v->stream);
    if (r == CUDA_SUCCESS) v->recorded = v->queued;
  }
  uint64_t covered = v->recorded;
  if (r == CUDA_SUCCESS) {
    r = v->api.EventQuery(v->ev);
    if (r == CUDA_ERROR_NOT_READY)
      r = host_wait ? v->api.EventSynchronize(v->ev) : v->api.StreamWaitEvent(launch_stream, v->ev, 0);
    else if (r == CUDA_SUCCESS)
      __atomic_store_n(&v->done, covered, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&v->lock);
  return r;
}

void rt_vmm_cuda_detach(rt_vmm *vm, int write) {
  cuda_vmm *v = vm->ctx;
  pthread_mutex_lock(&v->lock);
  v->stream = NULL;
  v->async = 0;
  unsigned n = v->nbatch;
  v->nbatch = 0;
  for (unsigned i = 0; write && i < n; i++) write_op(v, &v->batch[i]);
  __atomic_store_n(&v->done, v->queued, __ATOMIC_RELEASE);
  v->recorded = v->queued;
  pthread_mutex_unlock(&v->lock);
}

int rt_vmm_cuda(rt_vmm *out, const rt_cuda_api *api, int device) {
  cuda_vmm *v = calloc(1, sizeof *v);
  if (!v) return CUDA_ERROR_OUT_OF_MEMORY;
  v->api = *api;
  v->device = device;
  CUmemAllocationProp p = prop_for(device);
  size_t g = 0;
  CUresult r = api->MemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  if (r != CUDA_SUCCESS || !g) {
    free(v);
    return r ? r : CUDA_ERROR_UNKNOWN;
  }
  pthread_mutex_init(&v->lock, NULL);
  rt_vmm vm = {v, cv_reserve, cv_unreserve, cv_create, cv_release, cv_map, cv_unmap, cv_set64, cv_set32, cv_zero, g};
  *out = vm;
  return 0;
}

void rt_vmm_cuda_free(rt_vmm *v) {
  free(v->ctx);
  v->ctx = NULL;
}
