/* Hooks on copies and sets: the device ranges a call touches are checked
 * against their allocations before it runs (docs/architecture.md §4): arena slots, and
 * the driver's allocations gsan tracks (managed memory, devices without an
 * arena: rt_foreign.h). A range that leaves its allocation, or touches a
 * freed one, is reported and the call refused with the driver's answer to a
 * bad pointer; ranges in memory gsan does not know (host memory, arrays) are
 * the driver's to judge. A call that fails drains the ring: after a trap,
 * copies are where many programs first see the error. */
#include "rt_device.h"
#include "rt_drain.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_hooks.h"

#include <stdint.h>

#define CPY RT_KIND_MEMCPY_PARAM_OVERFLOW
#define SET RT_KIND_MEMSET_PARAM_OVERFLOW

/* 1 (and a report) when [addr, addr+len) starts in memory gsan tracks but
 * not inside one live allocation, unless a suppression covers it; len
 * UINT64_MAX stands for a size that overflowed. The call is refused (the
 * program is told: halt mode does not end the run here), also when
 * report_limit holds its report back. */
static int range_bad(const char *api, rt_report_kind kind, uint64_t addr, uint64_t len) {
  if (!rt_gsan.flags.check_host_api || len == 0) return 0;
  rt_alloc_info info;
  if (rt_gsan_find_tracked(addr, &info) != RT_OK) return 0; /* memory gsan does not know */
  uint64_t off = addr - info.base;
  if (info.state == RT_SLOT_FREED) kind = RT_KIND_USE_AFTER_FREE;
  else if (info.state == RT_SLOT_LIVE && off <= info.size && len <= info.size - off) return 0;
  rt_report_scope *sc = rt_report_begin(&rt_gsan.log, kind, RT_REPORT_GOES_ON);
  rt_region *reg = rt_report_region(sc, info.base, info.state == RT_SLOT_NEVER ? 0 : info.size);
  const rt_stack *call = rt_report_call_stack(sc);
  const char *names[] = {api};
  /* a suppressed report lets the call run, as if gsan were not there */
  int refuse = !rt_report_suppressed(sc, names, 1, call);
  if (refuse && rt_report_admit(sc)) {
    if (info.state != RT_SLOT_NEVER) rt_report_stacks(sc, info.state == RT_SLOT_FREED);
    rt_err_host_range e = {kind, api, addr, len, call, *reg};
    rt_report_host_range(&rt_gsan.log, &e);
  }
  rt_report_end(sc);
  return refuse;
}

/* the bytes from a pitched region's first touched byte to its last:
 * rows of width bytes, pitch apart; UINT64_MAX when that overflows */
static uint64_t span(uint64_t rows, uint64_t pitch, uint64_t width) {
  uint64_t n;
  if (!rows || !width) return 0;
  if (__builtin_mul_overflow(rows - 1, pitch, &n) || __builtin_add_overflow(n, width, &n)) return UINT64_MAX;
  return n;
}

/* the start of a pitched region at (x, y, z); 0 when it overflows */
static uint64_t corner(uint64_t base, uint64_t x, uint64_t y, uint64_t z, uint64_t height, uint64_t pitch) {
  uint64_t row, off;
  if (__builtin_mul_overflow(z, height, &row) || __builtin_add_overflow(row, y, &row) ||
      __builtin_mul_overflow(row, pitch, &off) || __builtin_add_overflow(off, x, &off) ||
      __builtin_add_overflow(base, off, &off))
    return 0;
  return off;
}

/* a device side of a 2D or 3D copy: its memory type says whether the
 * pointer is a device (or unified) address; arrays and host memory are not
 * the arena's */
static int device_side(CUmemorytype t) { return t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED; }

static int side_bad(const char *api, CUmemorytype t, CUdeviceptr dev, uint64_t x, uint64_t y, uint64_t z,
                    uint64_t height, uint64_t pitch, uint64_t width, uint64_t rows) {
  if (!device_side(t) || !rows || !width) return 0;
  uint64_t start = corner(dev, x, y, z, height, pitch);
  return range_bad(api, CPY, start ? start : dev, start ? span(rows, pitch, width) : UINT64_MAX);
}

static int copy2d_bad(const char *api, const CUDA_MEMCPY2D *c) {
  if (!c) return 0;
  return side_bad(api, c->srcMemoryType, c->srcDevice, c->srcXInBytes, c->srcY, 0, 0, c->srcPitch, c->WidthInBytes,
                  c->Height) ||
         side_bad(api, c->dstMemoryType, c->dstDevice, c->dstXInBytes, c->dstY, 0, 0, c->dstPitch, c->WidthInBytes,
                  c->Height);
}

/* the rows a 3D copy spans on one side: rows are addressed as
 * (z * height + y), so Depth layers of Height rows run from the first row to
 * row (Depth-1) * height + Height - 1; UINT64_MAX when that overflows */
static uint64_t rows3d(uint64_t depth, uint64_t height, uint64_t rows) {
  uint64_t n;
  if (!depth || !rows) return 0;
  if (__builtin_mul_overflow(depth - 1, height, &n) || __builtin_add_overflow(n, rows, &n)) return UINT64_MAX;
  return n;
}

/* 3D copies and their peer form, which has the same fields */
#define COPY3D_BAD(api, c)                                                                                       \
  ((c) && (side_bad(api, (c)->srcMemoryType, (c)->srcDevice, (c)->srcXInBytes, (c)->srcY, (c)->srcZ,             \
                    (c)->srcHeight, (c)->srcPitch, (c)->WidthInBytes, rows3d((c)->Depth, (c)->srcHeight, (c)->Height)) || \
           side_bad(api, (c)->dstMemoryType, (c)->dstDevice, (c)->dstXInBytes, (c)->dstY, (c)->dstZ,             \
                    (c)->dstHeight, (c)->dstPitch, (c)->WidthInBytes, rows3d((c)->Depth, (c)->dstHeight, (c)->Height))))

static int batch_bad(const char *api, CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count) {
  if (!dsts || !srcs || !sizes) return 0;
  for (size_t i = 0; i < count; i++)
    if (range_bad(api, CPY, dsts[i], sizes[i]) || range_bad(api, CPY, srcs[i], sizes[i])) return 1;
  return 0;
}

/* bytes per element of a CUDA array; 0 for a format gsan does not size
 * (its copies are left to the driver) */
static CUresult (*array_descriptor)(CUDA_ARRAY3D_DESCRIPTOR *, CUarray);
static uint64_t array_elem(CUarray a) {
  CUDA_ARRAY3D_DESCRIPTOR d;
  if (!array_descriptor) *(void **)&array_descriptor = rt_driver_real("cuArray3DGetDescriptor");
  if (!array_descriptor || array_descriptor(&d, a) != CUDA_SUCCESS) return 0;
  switch (d.Format) {
  case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8: return d.NumChannels;
  case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_HALF: return 2ull * d.NumChannels;
  case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32: case CU_AD_FORMAT_FLOAT: return 4ull * d.NumChannels;
  default: return 0;
  }
}

/* One operation of cuMemcpy3DBatchAsync: extents count elements, one byte
 * each between pointers, the array's element otherwise; a pointer operand's
 * rows are rowLength elements apart (0: the width) and its layers
 * layerHeight rows (0: the height). */
static int batch3d_op_bad(const char *api, const CUDA_MEMCPY3D_BATCH_OP *op) {
  const CUmemcpy3DOperand *side[2] = {&op->src, &op->dst};
  uint64_t elem = 1;
  for (int i = 0; i < 2; i++)
    if (side[i]->type == CU_MEMCPY_OPERAND_TYPE_ARRAY && !(elem = array_elem(side[i]->op.array.array))) return 0;
  for (int i = 0; i < 2; i++) {
    if (side[i]->type != CU_MEMCPY_OPERAND_TYPE_POINTER) continue;
    uint64_t row = side[i]->op.ptr.rowLength ? side[i]->op.ptr.rowLength : op->extent.width;
    uint64_t layer = side[i]->op.ptr.layerHeight ? side[i]->op.ptr.layerHeight : op->extent.height;
    uint64_t pitch, width;
    if (__builtin_mul_overflow(row, elem, &pitch) || __builtin_mul_overflow(op->extent.width, elem, &width)) {
      if (range_bad(api, CPY, side[i]->op.ptr.ptr, UINT64_MAX)) return 1;
      continue;
    }
    if (side_bad(api, CU_MEMORYTYPE_DEVICE, side[i]->op.ptr.ptr, 0, 0, 0, layer, pitch, width,
                 rows3d(op->extent.depth, layer, op->extent.height)))
      return 1;
  }
  return 0;
}

static int batch3d_bad(const char *api, size_t n, const CUDA_MEMCPY3D_BATCH_OP *ops) {
  for (size_t i = 0; ops && i < n; i++)
    if (batch3d_op_bad(api, &ops[i])) return 1;
  return 0;
}

/* the driver's functions, per variant: [0] legacy stream, [1] per-thread stream */
static struct {
  RT_DRIVER_COPY(RT_HOOK_REAL)
} real;
RT_DRIVER_COPY(RT_HOOK_DECLARE)

/* n elements of size bytes; UINT64_MAX when that overflows */
static uint64_t bytes(uint64_t n, uint64_t size) {
  uint64_t b;
  return __builtin_mul_overflow(n, size, &b) ? UINT64_MAX : b;
}

/* a refused call returns what the driver returns for a bad pointer; one
 * that ran and failed drains the ring */
#define CHECKED(cond, call)                              \
  do {                                                   \
    if (cond) return CUDA_ERROR_INVALID_VALUE;           \
    CUresult r_ = call;                                  \
    return r_ == CUDA_SUCCESS ? r_ : rt_drain_after(r_); \
  } while (0)

#define D(api, p, n) range_bad(api, CPY, p, n)
#define S(api, p, n) range_bad(api, SET, p, n)

/* v_<key>: the body of both variants' wrappers, V the variant (0: legacy
 * stream, 1: per-thread stream); w_<key> and w_<key>_pt: the wrappers
 * (rt_driver.inc) */
static CUresult v_Memcpy(int V, CUdeviceptr d, CUdeviceptr s, size_t n) {
  CHECKED(D("cuMemcpy", d, n) || D("cuMemcpy", s, n), real.Memcpy[V](d, s, n));
}
static CUresult w_Memcpy(CUdeviceptr d, CUdeviceptr s, size_t n) { return v_Memcpy(0, d, s, n); }
static CUresult w_Memcpy_pt(CUdeviceptr d, CUdeviceptr s, size_t n) { return v_Memcpy(1, d, s, n); }

static CUresult v_MemcpyAsync(int V, CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  CHECKED(D("cuMemcpyAsync", d, n) || D("cuMemcpyAsync", s, n), real.MemcpyAsync[V](d, s, n, st));
}
static CUresult w_MemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  return v_MemcpyAsync(0, d, s, n, st);
}
static CUresult w_MemcpyAsync_pt(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  return v_MemcpyAsync(1, d, s, n, st);
}

static CUresult v_HtoD(int V, CUdeviceptr d, const void *h, size_t n) {
  CHECKED(D("cuMemcpyHtoD", d, n), real.HtoD[V](d, h, n));
}
static CUresult w_HtoD(CUdeviceptr d, const void *h, size_t n) { return v_HtoD(0, d, h, n); }
static CUresult w_HtoD_pt(CUdeviceptr d, const void *h, size_t n) { return v_HtoD(1, d, h, n); }

static CUresult v_HtoDAsync(int V, CUdeviceptr d, const void *h, size_t n, CUstream st) {
  CHECKED(D("cuMemcpyHtoDAsync", d, n), real.HtoDAsync[V](d, h, n, st));
}
static CUresult w_HtoDAsync(CUdeviceptr d, const void *h, size_t n, CUstream st) { return v_HtoDAsync(0, d, h, n, st); }
static CUresult w_HtoDAsync_pt(CUdeviceptr d, const void *h, size_t n, CUstream st) {
  return v_HtoDAsync(1, d, h, n, st);
}

static CUresult v_DtoH(int V, void *h, CUdeviceptr s, size_t n) {
  CHECKED(D("cuMemcpyDtoH", s, n), real.DtoH[V](h, s, n));
}
static CUresult w_DtoH(void *h, CUdeviceptr s, size_t n) { return v_DtoH(0, h, s, n); }
static CUresult w_DtoH_pt(void *h, CUdeviceptr s, size_t n) { return v_DtoH(1, h, s, n); }

static CUresult v_DtoHAsync(int V, void *h, CUdeviceptr s, size_t n, CUstream st) {
  CHECKED(D("cuMemcpyDtoHAsync", s, n), real.DtoHAsync[V](h, s, n, st));
}
static CUresult w_DtoHAsync(void *h, CUdeviceptr s, size_t n, CUstream st) { return v_DtoHAsync(0, h, s, n, st); }
static CUresult w_DtoHAsync_pt(void *h, CUdeviceptr s, size_t n, CUstream st) { return v_DtoHAsync(1, h, s, n, st); }

static CUresult v_DtoD(int V, CUdeviceptr d, CUdeviceptr s, size_t n) {
  CHECKED(D("cuMemcpyDtoD", d, n) || D("cuMemcpyDtoD", s, n), real.DtoD[V](d, s, n));
}
static CUresult w_DtoD(CUdeviceptr d, CUdeviceptr s, size_t n) { return v_DtoD(0, d, s, n); }
static CUresult w_DtoD_pt(CUdeviceptr d, CUdeviceptr s, size_t n) { return v_DtoD(1, d, s, n); }

static CUresult v_DtoDAsync(int V, CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  CHECKED(D("cuMemcpyDtoDAsync", d, n) || D("cuMemcpyDtoDAsync", s, n), real.DtoDAsync[V](d, s, n, st));
}
static CUresult w_DtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return v_DtoDAsync(0, d, s, n, st); }
static CUresult w_DtoDAsync_pt(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  return v_DtoDAsync(1, d, s, n, st);
}

static CUresult v_Peer(int V, CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) {
  CHECKED(D("cuMemcpyPeer", d, n) || D("cuMemcpyPeer", s, n), real.Peer[V](d, dc, s, sc, n));
}
static CUresult w_Peer(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) {
  return v_Peer(0, d, dc, s, sc, n);
}
static CUresult w_Peer_pt(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) {
  return v_Peer(1, d, dc, s, sc, n);
}

static CUresult v_PeerAsync(int V, CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) {
  CHECKED(D("cuMemcpyPeerAsync", d, n) || D("cuMemcpyPeerAsync", s, n), real.PeerAsync[V](d, dc, s, sc, n, st));
}
static CUresult w_PeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) {
  return v_PeerAsync(0, d, dc, s, sc, n, st);
}
static CUresult w_PeerAsync_pt(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) {
  return v_PeerAsync(1, d, dc, s, sc, n, st);
}

static CUresult v_Copy2D(int V, const CUDA_MEMCPY2D *c) {
  CHECKED(copy2d_bad("cuMemcpy2D", c), real.Copy2D[V](c));
}
static CUresult w_Copy2D(const CUDA_MEMCPY2D *c) { return v_Copy2D(0, c); }
static CUresult w_Copy2D_pt(const CUDA_MEMCPY2D *c) { return v_Copy2D(1, c); }

static CUresult v_Copy2DUnaligned(int V, const CUDA_MEMCPY2D *c) {
  CHECKED(copy2d_bad("cuMemcpy2DUnaligned", c), real.Copy2DUnaligned[V](c));
}
static CUresult w_Copy2DUnaligned(const CUDA_MEMCPY2D *c) { return v_Copy2DUnaligned(0, c); }
static CUresult w_Copy2DUnaligned_pt(const CUDA_MEMCPY2D *c) { return v_Copy2DUnaligned(1, c); }

static CUresult v_Copy2DAsync(int V, const CUDA_MEMCPY2D *c, CUstream st) {
  CHECKED(copy2d_bad("cuMemcpy2DAsync", c), real.Copy2DAsync[V](c, st));
}
static CUresult w_Copy2DAsync(const CUDA_MEMCPY2D *c, CUstream st) { return v_Copy2DAsync(0, c, st); }
static CUresult w_Copy2DAsync_pt(const CUDA_MEMCPY2D *c, CUstream st) { return v_Copy2DAsync(1, c, st); }

static CUresult v_Copy3D(int V, const CUDA_MEMCPY3D *c) {
  CHECKED(COPY3D_BAD("cuMemcpy3D", c), real.Copy3D[V](c));
}
static CUresult w_Copy3D(const CUDA_MEMCPY3D *c) { return v_Copy3D(0, c); }
static CUresult w_Copy3D_pt(const CUDA_MEMCPY3D *c) { return v_Copy3D(1, c); }

static CUresult v_Copy3DAsync(int V, const CUDA_MEMCPY3D *c, CUstream st) {
  CHECKED(COPY3D_BAD("cuMemcpy3DAsync", c), real.Copy3DAsync[V](c, st));
}
static CUresult w_Copy3DAsync(const CUDA_MEMCPY3D *c, CUstream st) { return v_Copy3DAsync(0, c, st); }
static CUresult w_Copy3DAsync_pt(const CUDA_MEMCPY3D *c, CUstream st) { return v_Copy3DAsync(1, c, st); }

static CUresult v_Copy3DPeer(int V, const CUDA_MEMCPY3D_PEER *c) {
  CHECKED(COPY3D_BAD("cuMemcpy3DPeer", c), real.Copy3DPeer[V](c));
}
static CUresult w_Copy3DPeer(const CUDA_MEMCPY3D_PEER *c) { return v_Copy3DPeer(0, c); }
static CUresult w_Copy3DPeer_pt(const CUDA_MEMCPY3D_PEER *c) { return v_Copy3DPeer(1, c); }

static CUresult v_Copy3DPeerAsync(int V, const CUDA_MEMCPY3D_PEER *c, CUstream st) {
  CHECKED(COPY3D_BAD("cuMemcpy3DPeerAsync", c), real.Copy3DPeerAsync[V](c, st));
}
static CUresult w_Copy3DPeerAsync(const CUDA_MEMCPY3D_PEER *c, CUstream st) { return v_Copy3DPeerAsync(0, c, st); }
static CUresult w_Copy3DPeerAsync_pt(const CUDA_MEMCPY3D_PEER *c, CUstream st) { return v_Copy3DPeerAsync(1, c, st); }

static CUresult v_Batch(int V, CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                        size_t *ai, size_t na, CUstream st) {
  CHECKED(batch_bad("cuMemcpyBatchAsync", d, s, n, count), real.Batch[V](d, s, n, count, a, ai, na, st));
}
static CUresult w_Batch(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a, size_t *ai,
                        size_t na, CUstream st) {
  return v_Batch(0, d, s, n, count, a, ai, na, st);
}
static CUresult w_Batch_pt(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                           size_t *ai, size_t na, CUstream st) {
  return v_Batch(1, d, s, n, count, a, ai, na, st);
}

static CUresult v_Batch12(int V, CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                          size_t *ai, size_t na, size_t *fail, CUstream st) {
  CHECKED(batch_bad("cuMemcpyBatchAsync", d, s, n, count), real.Batch12[V](d, s, n, count, a, ai, na, fail, st));
}
static CUresult w_Batch12(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a, size_t *ai,
                          size_t na, size_t *fail, CUstream st) {
  return v_Batch12(0, d, s, n, count, a, ai, na, fail, st);
}
static CUresult w_Batch12_pt(CUdeviceptr *d, CUdeviceptr *s, size_t *n, size_t count, CUmemcpyAttributes *a,
                             size_t *ai, size_t na, size_t *fail, CUstream st) {
  return v_Batch12(1, d, s, n, count, a, ai, na, fail, st);
}

static CUresult v_Batch3D(int V, size_t n, CUDA_MEMCPY3D_BATCH_OP *o, unsigned long long f, CUstream st) {
  CHECKED(batch3d_bad("cuMemcpy3DBatchAsync", n, o), real.Batch3D[V](n, o, f, st));
}
static CUresult w_Batch3D(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, unsigned long long f, CUstream st) {
  return v_Batch3D(0, n, o, f, st);
}
static CUresult w_Batch3D_pt(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, unsigned long long f, CUstream st) {
  return v_Batch3D(1, n, o, f, st);
}

static CUresult v_Batch3D12(int V, size_t n, CUDA_MEMCPY3D_BATCH_OP *o, size_t *fail, unsigned long long f,
                            CUstream st) {
  CHECKED(batch3d_bad("cuMemcpy3DBatchAsync", n, o), real.Batch3D12[V](n, o, fail, f, st));
}
static CUresult w_Batch3D12(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, size_t *fail, unsigned long long f, CUstream st) {
  return v_Batch3D12(0, n, o, fail, f, st);
}
static CUresult w_Batch3D12_pt(size_t n, CUDA_MEMCPY3D_BATCH_OP *o, size_t *fail, unsigned long long f, CUstream st) {
  return v_Batch3D12(1, n, o, fail, f, st);
}

static CUresult v_SetD8(int V, CUdeviceptr d, unsigned char v, size_t n) {
  CHECKED(S("cuMemsetD8", d, n), real.SetD8[V](d, v, n));
}
static CUresult w_SetD8(CUdeviceptr d, unsigned char v, size_t n) { return v_SetD8(0, d, v, n); }
static CUresult w_SetD8_pt(CUdeviceptr d, unsigned char v, size_t n) { return v_SetD8(1, d, v, n); }

static CUresult v_SetD8Async(int V, CUdeviceptr d, unsigned char v, size_t n, CUstream st) {
  CHECKED(S("cuMemsetD8Async", d, n), real.SetD8Async[V](d, v, n, st));
}
static CUresult w_SetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream st) {
  return v_SetD8Async(0, d, v, n, st);
}
static CUresult w_SetD8Async_pt(CUdeviceptr d, unsigned char v, size_t n, CUstream st) {
  return v_SetD8Async(1, d, v, n, st);
}

static CUresult v_SetD16(int V, CUdeviceptr d, unsigned short v, size_t n) {
  CHECKED(S("cuMemsetD16", d, bytes(n, 2)), real.SetD16[V](d, v, n));
}
static CUresult w_SetD16(CUdeviceptr d, unsigned short v, size_t n) { return v_SetD16(0, d, v, n); }
static CUresult w_SetD16_pt(CUdeviceptr d, unsigned short v, size_t n) { return v_SetD16(1, d, v, n); }

static CUresult v_SetD16Async(int V, CUdeviceptr d, unsigned short v, size_t n, CUstream st) {
  CHECKED(S("cuMemsetD16Async", d, bytes(n, 2)), real.SetD16Async[V](d, v, n, st));
}
static CUresult w_SetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream st) {
  return v_SetD16Async(0, d, v, n, st);
}
static CUresult w_SetD16Async_pt(CUdeviceptr d, unsigned short v, size_t n, CUstream st) {
  return v_SetD16Async(1, d, v, n, st);
}

static CUresult v_SetD32(int V, CUdeviceptr d, unsigned int v, size_t n) {
  CHECKED(S("cuMemsetD32", d, bytes(n, 4)), real.SetD32[V](d, v, n));
}
static CUresult w_SetD32(CUdeviceptr d, unsigned int v, size_t n) { return v_SetD32(0, d, v, n); }
static CUresult w_SetD32_pt(CUdeviceptr d, unsigned int v, size_t n) { return v_SetD32(1, d, v, n); }

static CUresult v_SetD32Async(int V, CUdeviceptr d, unsigned int v, size_t n, CUstream st) {
  CHECKED(S("cuMemsetD32Async", d, bytes(n, 4)), real.SetD32Async[V](d, v, n, st));
}
static CUresult w_SetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream st) {
  return v_SetD32Async(0, d, v, n, st);
}
static CUresult w_SetD32Async_pt(CUdeviceptr d, unsigned int v, size_t n, CUstream st) {
  return v_SetD32Async(1, d, v, n, st);
}

static CUresult v_Set2D8(int V, CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) {
  CHECKED(S("cuMemsetD2D8", d, span(h, p, w)), real.Set2D8[V](d, p, v, w, h));
}
static CUresult w_Set2D8(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) {
  return v_Set2D8(0, d, p, v, w, h);
}
static CUresult w_Set2D8_pt(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) {
  return v_Set2D8(1, d, p, v, w, h);
}

static CUresult v_Set2D8Async(int V, CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st) {
  CHECKED(S("cuMemsetD2D8Async", d, span(h, p, w)), real.Set2D8Async[V](d, p, v, w, h, st));
}
static CUresult w_Set2D8Async(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st) {
  return v_Set2D8Async(0, d, p, v, w, h, st);
}
static CUresult w_Set2D8Async_pt(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st) {
  return v_Set2D8Async(1, d, p, v, w, h, st);
}

static CUresult v_Set2D16(int V, CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) {
  CHECKED(S("cuMemsetD2D16", d, span(h, p, bytes(w, 2))), real.Set2D16[V](d, p, v, w, h));
}
static CUresult w_Set2D16(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) {
  return v_Set2D16(0, d, p, v, w, h);
}
static CUresult w_Set2D16_pt(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) {
  return v_Set2D16(1, d, p, v, w, h);
}

static CUresult v_Set2D16Async(int V, CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream st) {
  CHECKED(S("cuMemsetD2D16Async", d, span(h, p, bytes(w, 2))), real.Set2D16Async[V](d, p, v, w, h, st));
}
static CUresult w_Set2D16Async(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream st) {
  return v_Set2D16Async(0, d, p, v, w, h, st);
}
static CUresult w_Set2D16Async_pt(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream st) {
  return v_Set2D16Async(1, d, p, v, w, h, st);
}

static CUresult v_Set2D32(int V, CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) {
  CHECKED(S("cuMemsetD2D32", d, span(h, p, bytes(w, 4))), real.Set2D32[V](d, p, v, w, h));
}
static CUresult w_Set2D32(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) {
  return v_Set2D32(0, d, p, v, w, h);
}
static CUresult w_Set2D32_pt(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) {
  return v_Set2D32(1, d, p, v, w, h);
}

static CUresult v_Set2D32Async(int V, CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st) {
  CHECKED(S("cuMemsetD2D32Async", d, span(h, p, bytes(w, 4))), real.Set2D32Async[V](d, p, v, w, h, st));
}
static CUresult w_Set2D32Async(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st) {
  return v_Set2D32Async(0, d, p, v, w, h, st);
}
static CUresult w_Set2D32Async_pt(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st) {
  return v_Set2D32Async(1, d, p, v, w, h, st);
}

const rt_hook rt_hooks_copy[] = {RT_DRIVER_COPY(RT_HOOK_ROW) RT_HOOK_END};
