/* Hooks on device allocation: cudaMalloc, cudaMallocPitch, the
 * stream-ordered calls, memory pools and graphs' memory take slots in the
 * arena of the current context's device, so every pointer into them carries
 * exact bounds; frees find the arena by address, mark slots freed
 * (rt_arena.c) and report double and invalid frees with their stacks. What
 * the arena cannot stand in for goes to the driver: managed memory,
 * exportable or host pools, devices without an arena, bad arguments. What the
 * driver allocates there is tracked (rt_foreign.c), and its frees are
 * checked as the arena's are. */
#include "rt_device.h"
#include "rt_drain.h"
#include "rt_driver.h"
#include "rt_gsan.h"
#include "rt_hooks.h"

#include "rt_canary.h"
#include "rt_depot.h"
#include "rt_foreign.h"
#include "rt_retire.h"

#include <stdint.h>
#include <string.h>

/* the driver's own allocation calls, there for what gsan hands back; the
 * stream-ordered ones per variant: [0] legacy stream, [1] per-thread stream */
static struct {
  RT_DRIVER_ALLOC(RT_HOOK_REAL)
} real;
RT_DRIVER_ALLOC(RT_HOOK_DECLARE)
/* and the calls gsan makes itself, fetched at their first use */
static struct {
  CUresult (*DefaultPool)(CUmemoryPool *, CUdevice);
  CUresult (*GraphAddEmptyNode)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t);
} fetched;

/* a slot of d's arena for size bytes, its allocation stack kept;
 * CUDA_SUCCESS or the driver's error for the failure */
static CUresult arena_alloc(rt_dev *d, CUdeviceptr *dptr, size_t size) {
  uint64_t p;
  rt_retire_poll(0); /* slots whose streams passed their frees, for the quarantine */
  rt_status st = rt_arena_alloc(d->arena, size, &p);
  if (st == RT_OUT_OF_MEMORY) {
    /* frees still pending (their streams, their canary reads) hold memory:
     * waited for, and tried again */
    rt_retire_poll(1);
    st = rt_arena_alloc(d->arena, size, &p);
  }
  if (st == RT_OK) {
    rt_depot_note_alloc(p, rt_gsan_stack_here());
    rt_canary_put(d, p);
    *dptr = p;
    return CUDA_SUCCESS;
  }
  if (st == RT_VMM_ERROR) return (CUresult)rt_arena_last_error(d->arena);
  return st == RT_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_UNKNOWN;
}

/* the driver's allocation of size bytes at *dptr, when r says it made one:
 * tracked, with its stack */
static CUresult tracked(CUresult r, const CUdeviceptr *dptr, size_t size) {
  if (r == CUDA_SUCCESS && dptr && *dptr && size) {
    rt_foreign_add(*dptr, size);
    rt_depot_note_alloc(*dptr, rt_gsan_stack_here());
  }
  return r;
}

static CUresult w_MemAlloc(CUdeviceptr *dptr, size_t size) {
  rt_dev *d;
  if (!dptr || size == 0 || !(d = rt_device_here())) return tracked(rt_driver.cu.MemAlloc(dptr, size), dptr, size);
  return arena_alloc(d, dptr, size);
}

/* Managed memory migrates between host and devices, which the arena's
 * memory cannot: the driver's, tracked. gsan is set up in this context as
 * for any allocation (its monitor and its checks at exit). */
static CUresult w_MemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned flags) {
  rt_device_here();
  return tracked(real.MemAllocManaged[0](dptr, size, flags), dptr, size);
}

/* A free the hooks refuse (the caller gets CUDA_ERROR_INVALID_VALUE, the
 * driver's answer to a bad pointer, reported or not): the program is told,
 * so halt mode does not end the run here. */
static void report_free(rt_report_kind kind, const char *api, CUdeviceptr ptr, const rt_alloc_info *info) {
  int known = info && info->state != RT_SLOT_NEVER;
  rt_report_scope *sc = rt_report_begin(&rt_gsan.log, kind, RT_REPORT_GOES_ON);
  rt_region *reg = rt_report_region(sc, known ? info->base : ptr, known ? info->size : 0);
  const rt_stack *call = rt_report_call_stack(sc);
  const char *names[] = {api};
  if (!rt_report_suppressed(sc, names, 1, call) && rt_report_admit(sc)) {
    if (known) rt_report_stacks(sc, info->state == RT_SLOT_FREED);
    rt_err_free e = {kind, api, ptr, call, *reg};
    rt_report_free(&rt_gsan.log, &e);
  }
  rt_report_end(sc);
}

/* what a free of ptr that the arena answered st gives the caller: a second
 * free, or a pointer that is not an allocation's start, is reported as
 * api's error */
static CUresult freed(rt_dev *d, CUdeviceptr ptr, rt_status st, const rt_alloc_info *info, const char *api) {
  if (st == RT_OK) {
    rt_depot_note_free(ptr, rt_gsan_stack_here());
    return CUDA_SUCCESS;
  }
  /* a graph's allocation freed by the program between launches (as CUDA's
   * guide shows): the graph's next launch uses it again, so it stays */
  if (st == RT_KEPT) return CUDA_SUCCESS;
  /* after a kernel fault the context refuses every call, the slot table's
   * update too: that is the driver's error to return, not the caller's bug */
  if (st == RT_VMM_ERROR) return (CUresult)rt_arena_last_error(d->arena);
  report_free(st == RT_DOUBLE_FREE ? RT_KIND_DOUBLE_FREE : RT_KIND_INVALID_FREE, api, ptr, info);
  return CUDA_ERROR_INVALID_VALUE;
}

/* the slot of a pointer in d's arena goes back, once whatever may still use
 * it has finished (the caller waited) */
static CUresult arena_free(rt_dev *d, CUdeviceptr ptr, const char *api) {
  rt_drain(0);
  rt_alloc_info info;
  rt_status st = rt_canary_free(d, ptr, &info, api);
  return freed(d, ptr, st, &info, api);
}

/* The same in the order of stream s: freed on the host now, its memory
 * given back once s has passed the free (rt_retire.h), with no wait here. */
static CUresult arena_free_ordered(rt_dev *d, CUdeviceptr ptr, CUstream s, const char *api) {
  rt_drain(0);
  rt_alloc_info info;
  uint64_t entry;
  rt_status st = rt_arena_retire(d->arena, ptr, &info, &entry);
  CUresult r = freed(d, ptr, st, &info, api);
  return st == RT_OK ? rt_retire_ordered(d, ptr, entry, s, api) : r;
}

/* A pointer outside the arena goes to the driver. One of the driver's
 * allocations that gsan tracks is checked first, as an arena slot is: a
 * second free, or a pointer inside it, is reported and refused (1). */
static int foreign_refused(CUdeviceptr ptr, const char *api) {
  rt_alloc_info info;
  if (rt_gsan_find_tracked(ptr, &info) != RT_OK || (info.state == RT_SLOT_LIVE && info.base == ptr)) return 0;
  report_free(info.state == RT_SLOT_FREED && info.base == ptr ? RT_KIND_DOUBLE_FREE : RT_KIND_INVALID_FREE, api, ptr,
              &info);
  return 1;
}

/* After the driver's free (r): a tracked allocation is freed, with its
 * stack. When the driver calls ptr no allocation at all (a host pointer, a
 * made-up address), that is the caller's invalid free; after a fault, the
 * driver's error is the fault's. */
static CUresult foreign_freed(CUresult r, CUdeviceptr ptr, const char *api) {
  if (r == CUDA_SUCCESS && rt_foreign_freed(ptr)) rt_depot_note_free(ptr, rt_gsan_stack_here());
  if (r == CUDA_ERROR_INVALID_VALUE && ptr && rt_gsan_is_ready()) report_free(RT_KIND_INVALID_FREE, api, ptr, NULL);
  return r;
}

static CUresult w_MemFree(CUdeviceptr ptr) {
  rt_dev *d = rt_device_of(ptr);
  if (!d) return foreign_refused(ptr, "cuMemFree") ? CUDA_ERROR_INVALID_VALUE
                                                   : foreign_freed(rt_driver.cu.MemFree(ptr), ptr, "cuMemFree");
  /* cudaFree waits for the device; so does this, before memory goes away.
   * After a kernel fault the context refuses every call, frees too: that is
   * the driver's error to return, not the caller's bug */
  CUresult r = rt_driver.cu.CtxSynchronize();
  if (rt_driver_context_lost(r)) return rt_drain_after(r);
  return arena_free(d, ptr, "cuMemFree");
}

/* ---- memory pools: which ones the arena may serve ---- */
#define MAX_POOLS 256
typedef struct pool_entry {
  CUmemoryPool pool;
  int device; /* -1: never the arena's */
} pool_entry;
static struct {
  pthread_mutex_t lock;
  pool_entry p[MAX_POOLS];
  unsigned n;
} pools = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Pools the program creates are remembered with their device; -1 for those
 * whose memory the arena cannot be: exportable (IPC handles need the pool's
 * own allocations), host memory. */
static CUresult w_MemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props) {
  CUresult r = real.MemPoolCreate[0](pool, props);
  if (r != CUDA_SUCCESS || !props) return r;
  int dev = props->handleTypes == CU_MEM_HANDLE_TYPE_NONE && props->location.type == CU_MEM_LOCATION_TYPE_DEVICE
                ? props->location.id
                : -1;
  pthread_mutex_lock(&pools.lock);
  if (pools.n < MAX_POOLS) pools.p[pools.n++] = (pool_entry){*pool, dev};
  pthread_mutex_unlock(&pools.lock);
  return r;
}

static CUresult w_MemPoolDestroy(CUmemoryPool pool) {
  pthread_mutex_lock(&pools.lock);
  for (unsigned i = 0; i < pools.n; i++)
    if (pools.p[i].pool == pool) pools.p[i] = pools.p[--pools.n];
  pthread_mutex_unlock(&pools.lock);
  return real.MemPoolDestroy[0](pool);
}

/* 1 when d's arena may serve pool's allocations: a pool created for d's
 * device, or that device's default pool. Any other (another device's, one
 * created after the list filled up) stays the driver's, unchecked. */
static int arena_pool(const rt_dev *d, CUmemoryPool pool) {
  int dev = -2;
  pthread_mutex_lock(&pools.lock);
  for (unsigned i = 0; i < pools.n && dev == -2; i++)
    if (pools.p[i].pool == pool) dev = pools.p[i].device;
  pthread_mutex_unlock(&pools.lock);
  if (dev != -2) return dev == d->device;
  if (!fetched.DefaultPool) *(void **)&fetched.DefaultPool = rt_driver_real("cuDeviceGetDefaultMemPool");
  CUmemoryPool def;
  return fetched.DefaultPool && fetched.DefaultPool(&def, d->device) == CUDA_SUCCESS && def == pool;
}

/* ---- graphs ----
 * A graph's allocations (stream-ordered calls under capture, memory nodes)
 * are arena slots made when the graph is built, and they stay for the
 * process: the graph runs later, any number of times, with the same
 * pointers. Its alloc and free nodes (cuGraphAddMemAllocNode and
 * cuGraphAddMemFreeNode, or cuGraphAddNode of those types) become empty
 * nodes. So the graph's kernels get exact bounds; a use after the graph's
 * own free goes unseen.
 * These slots, and slots a graph frees, are kept (rt_arena_keep): a free
 * outside the graph leaves them live, and they are no leak. */
static CUresult owned_by_graph(rt_dev *d, CUdeviceptr ptr) {
  rt_arena_keep(d->arena, ptr); /* a pointer that is no live slot: the driver's to judge at launch */
  return CUDA_SUCCESS;
}

/* a slot for a graph being built */
static CUresult graph_alloc(rt_dev *d, CUdeviceptr *dptr, size_t size) {
  CUresult r = arena_alloc(d, dptr, size);
  return r == CUDA_SUCCESS ? owned_by_graph(d, *dptr) : r;
}

/* Where a memory node was to go, and how its stand-in, an empty node, is
 * added there: cuGraphAddEmptyNode for the nodes of cuGraphAddMemAllocNode
 * and cuGraphAddMemFreeNode; an empty node through the generic call itself
 * for those of cuGraphAddNode (CUDA 12.2's, or 12.3's with edge data, which
 * it keeps). */
enum { BY_EMPTY_NODE, BY_ADD_NODE, BY_ADD_NODE_EDGES };
typedef struct node_site {
  CUgraphNode *node;
  CUgraph g;
  const CUgraphNode *deps;
  const CUgraphEdgeData *edges;
  size_t ndeps;
  int by;
} node_site;

/* 1 when the stand-in can be added (the driver has the call) */
static int can_stand_in(const node_site *n) {
  if (n->by != BY_EMPTY_NODE) return 1; /* the generic call the program made */
  if (!fetched.GraphAddEmptyNode) *(void **)&fetched.GraphAddEmptyNode = rt_driver_real("cuGraphAddEmptyNode");
  return fetched.GraphAddEmptyNode != NULL;
}

static CUresult add_stand_in(const node_site *n) {
  CUgraphNodeParams empty;
  memset(&empty, 0, sizeof empty);
  empty.type = CU_GRAPH_NODE_TYPE_EMPTY;
  switch (n->by) {
  case BY_ADD_NODE: return real.GraphAddNode[0](n->node, n->g, n->deps, n->ndeps, &empty);
  case BY_ADD_NODE_EDGES: return real.GraphAddNodeEdges[0](n->node, n->g, n->deps, n->edges, n->ndeps, &empty);
  default: return fetched.GraphAddEmptyNode(n->node, n->g, n->deps, n->ndeps);
  }
}

/* A graph's allocation node: a slot of the current device's arena, made
 * now, and an empty node in its place; *dptr is the allocation. 1 and the
 * result in *r when done so, 0 when the node is the driver's (a host or
 * exportable pool, another device's, bad parameters). */
static int graph_alloc_node(const node_site *n, const CUmemPoolProps *pool, size_t size, CUdeviceptr *dptr,
                            CUresult *r) {
  rt_dev *d = NULL;
  if (!n->node || !size || pool->handleTypes != CU_MEM_HANDLE_TYPE_NONE ||
      pool->location.type != CU_MEM_LOCATION_TYPE_DEVICE || !(d = rt_device_here()) ||
      pool->location.id != d->device || !can_stand_in(n))
    return 0;
  CUdeviceptr ptr;
  if ((*r = arena_alloc(d, &ptr, size)) != CUDA_SUCCESS) return 1;
  if ((*r = add_stand_in(n)) != CUDA_SUCCESS) {
    rt_arena_free(d->arena, ptr, NULL);
    return 1;
  }
  *dptr = ptr;
  *r = owned_by_graph(d, ptr);
  return 1;
}

/* A graph's free node of an arena slot: an empty node (the slot stays, as
 * the graph's). 1 and the result in *r, or 0 for the driver's memory. */
static int graph_free_node(const node_site *n, CUdeviceptr dptr, CUresult *r) {
  rt_dev *d = rt_device_of(dptr);
  if (!d || !can_stand_in(n)) return 0;
  *r = add_stand_in(n);
  if (*r == CUDA_SUCCESS) *r = owned_by_graph(d, dptr);
  return 1;
}

static CUresult w_GraphAddMemAllocNode(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                       CUDA_MEM_ALLOC_NODE_PARAMS *p) {
  node_site n = {node, g, deps, NULL, ndeps, BY_EMPTY_NODE};
  CUresult r;
  return p && graph_alloc_node(&n, &p->poolProps, p->bytesize, &p->dptr, &r)
             ? r
             : real.GraphAddMemAllocNode[0](node, g, deps, ndeps, p);
}

static CUresult w_GraphAddMemFreeNode(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                                      CUdeviceptr dptr) {
  node_site n = {node, g, deps, NULL, ndeps, BY_EMPTY_NODE};
  CUresult r;
  return graph_free_node(&n, dptr, &r) ? r : real.GraphAddMemFreeNode[0](node, g, deps, ndeps, dptr);
}

/* The generic cuGraphAddNode: memory nodes as above, every other node type
 * passed on as it is. */
static int memory_node(const node_site *n, CUgraphNodeParams *p, CUresult *r) {
  if (p && p->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
    return graph_alloc_node(n, &p->alloc.poolProps, p->alloc.bytesize, &p->alloc.dptr, r);
  if (p && p->type == CU_GRAPH_NODE_TYPE_MEM_FREE) return graph_free_node(n, p->free.dptr, r);
  return 0;
}

static CUresult w_GraphAddNode(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                               CUgraphNodeParams *p) {
  node_site n = {node, g, deps, NULL, ndeps, BY_ADD_NODE};
  CUresult r;
  return memory_node(&n, p, &r) ? r : real.GraphAddNode[0](node, g, deps, ndeps, p);
}

static CUresult w_GraphAddNodeEdges(CUgraphNode *node, CUgraph g, const CUgraphNode *deps,
                                    const CUgraphEdgeData *edges, size_t ndeps, CUgraphNodeParams *p) {
  node_site n = {node, g, deps, edges, ndeps, BY_ADD_NODE_EDGES};
  CUresult r;
  return memory_node(&n, p, &r) ? r : real.GraphAddNodeEdges[0](node, g, deps, edges, ndeps, p);
}

/* a stream-ordered allocation the driver made: tracked, unless it is a
 * graph's (the stream is being captured), whose life the graph decides */
static CUresult driver_ordered(CUresult r, CUstream s, const CUdeviceptr *dptr, size_t size) {
  return r == CUDA_SUCCESS && !rt_driver_capturing(s) ? tracked(r, dptr, size) : r;
}

/* Stream-ordered allocation: an arena slot is usable at once, which is
 * earlier than the stream needs it. The free is in stream order too
 * (rt_retire.h): work queued before it runs as it should, work after it
 * finds a freed slot, and the call does not wait.
 * Under graph capture the allocation is the graph's (above), and an arena
 * slot freed inside a graph stays live: freeing it now would fault the
 * captured work that runs when the graph does. v is the variant: 1 for the
 * per-thread-stream one, whose stream 0 is this thread's stream. */
static CUresult alloc_async(int v, CUdeviceptr *dptr, size_t size, CUstream s) {
  CUstream str = v && !s ? CU_STREAM_PER_THREAD : s;
  rt_dev *d;
  if (!dptr || size == 0 || !(d = rt_device_here()))
    return driver_ordered(real.AllocAsync[v](dptr, size, s), str, dptr, size);
  return rt_driver_capturing(str) ? graph_alloc(d, dptr, size) : arena_alloc(d, dptr, size);
}

static CUresult alloc_from_pool(int v, CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream s) {
  CUstream str = v && !s ? CU_STREAM_PER_THREAD : s;
  rt_dev *d;
  if (!dptr || size == 0 || !pool || !(d = rt_device_here()) || !arena_pool(d, pool))
    return driver_ordered(real.AllocFromPool[v](dptr, size, pool, s), str, dptr, size);
  return rt_driver_capturing(str) ? graph_alloc(d, dptr, size) : arena_alloc(d, dptr, size);
}

/* api: the call that frees, as reports name it */
static CUresult free_async(int v, CUdeviceptr ptr, CUstream s, const char *api) {
  rt_dev *d = rt_device_of(ptr);
  CUstream str = v && !s ? CU_STREAM_PER_THREAD : s;
  if (!d && rt_driver_capturing(str)) {
    rt_foreign_forget(ptr); /* the graph frees it, when it runs */
    return real.FreeAsync[v](ptr, s);
  }
  if (!d && foreign_refused(ptr, api)) return CUDA_ERROR_INVALID_VALUE;
  if (!d) return foreign_freed(real.FreeAsync[v](ptr, s), ptr, api);
  if (rt_driver_capturing(str)) return owned_by_graph(d, ptr);
  return arena_free_ordered(d, ptr, str, api);
}

/* the stream-ordered wrappers: w_<key> for the legacy stream, w_<key>_pt for
 * the per-thread stream (rt_driver.inc) */
static CUresult w_AllocAsync(CUdeviceptr *dptr, size_t size, CUstream s) { return alloc_async(0, dptr, size, s); }
static CUresult w_AllocAsync_pt(CUdeviceptr *dptr, size_t size, CUstream s) { return alloc_async(1, dptr, size, s); }
static CUresult w_AllocFromPool(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream s) {
  return alloc_from_pool(0, dptr, size, pool, s);
}
static CUresult w_AllocFromPool_pt(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream s) {
  return alloc_from_pool(1, dptr, size, pool, s);
}
static CUresult w_FreeAsync(CUdeviceptr ptr, CUstream s) { return free_async(0, ptr, s, "cuMemFreeAsync"); }
static CUresult w_FreeAsync_pt(CUdeviceptr ptr, CUstream s) { return free_async(1, ptr, s, "cuMemFreeAsync"); }

/* the same, for gsan's own entry points (rt_torch.c): the driver's calls
 * they may fall back to are fetched here when the program never asked */
CUresult rt_alloc_ordered(CUdeviceptr *dptr, size_t size, CUstream s) {
  if (!real.AllocAsync[0] && !(*(void **)&real.AllocAsync[0] = rt_driver_real("cuMemAllocAsync")))
    return CUDA_ERROR_NOT_FOUND;
  return alloc_async(0, dptr, size, s);
}

CUresult rt_free_ordered(CUdeviceptr ptr, CUstream s, const char *api) {
  if (!real.FreeAsync[0] && !(*(void **)&real.FreeAsync[0] = rt_driver_real("cuMemFreeAsync")))
    return CUDA_ERROR_NOT_FOUND;
  return free_async(0, ptr, s, api);
}

/* the driver rounds a pitched row up to an alignment of its choosing; 512
 * bytes satisfies every texture pitch alignment, and code that walks rows
 * by the returned pitch does not depend on the exact value */
#define RT_PITCH_ALIGN 512u
static CUresult w_MemAllocPitch(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned elem) {
  rt_dev *d;
  if (!dptr || !pitch || width == 0 || height == 0 || (elem != 4 && elem != 8 && elem != 16) ||
      !(d = rt_device_here())) {
    CUresult r = real.MemAllocPitch[0](dptr, pitch, width, height, elem);
    return tracked(r, dptr, r == CUDA_SUCCESS ? *pitch * height : 0);
  }
  size_t p = (width + RT_PITCH_ALIGN - 1) / RT_PITCH_ALIGN * RT_PITCH_ALIGN;
  if (p < width || height > SIZE_MAX / p) return CUDA_ERROR_OUT_OF_MEMORY;
  CUresult r = arena_alloc(d, dptr, p * height);
  if (r == CUDA_SUCCESS) *pitch = p;
  return r;
}

const rt_hook rt_hooks_alloc[] = {RT_DRIVER_ALLOC(RT_HOOK_ROW) RT_HOOK_END};
