/* Binary mode's host side (rt_binary.h, docs/binary.md): NVIDIA's Sanitizer
 * API, loaded with dlopen when GSAN_OPTIONS has binary=1 (libgsan never
 * depends on it), patches every module gsan did not instrument so that each
 * global access calls gsan_binary_access (rt_binary_patch.cu), and each
 * launch of a patched kernel gets the arena and ring of its device as
 * callback data.
 *
 * What this follows, from sanitizer_callbacks.h and sanitizer_patching.h
 * (CUDA 13) and NVIDIA's MemoryTracker sample (compute-sanitizer-samples):
 * - subscribing from a library loaded into the process: the sample calls
 *   sanitizerSubscribe and enables its domains from a global initialiser
 *   of its preloaded library; libgsan does it when the program first asks
 *   for the driver (before any context exists);
 * - at SANITIZER_CBID_RESOURCE_MODULE_LOADED, as the sample does:
 *   sanitizerAddPatchesFromFile, then sanitizerPatchInstructions(
 *   SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, module, callback name) and
 *   sanitizerPatchModule. "The patches loaded are only valid for the
 *   specified CUDA context": the patches are added once per context.
 *   "An API user must serialize access to sanitizerAddPatchesFromFile,
 *   sanitizerAddPatches, sanitizerPatchInstructions, and
 *   sanitizerPatchModule": one lock around them;
 * - at SANITIZER_CBID_LAUNCH_BEGIN: sanitizerSetCallbackData(function,
 *   userdata), "Mark all subsequent launches of kernel to use userdata
 *   pointer as the device memory buffer to pass in to callback functions":
 *   set once per kernel (and again when its device's context was reset),
 *   memory from sanitizerAlloc, filled with
 *   sanitizerMemcpyHostToDeviceAsync on the launch's own stream, so before
 *   the kernel runs. */
#include "rt_binary.h"

#include "rt_device.h"
#include "rt_driver.h"
#include "rt_gsan.h"

_Static_assert(RT_BINARY_DEVICES == RT_MAX_DEVICES, "one heap record per device");

#ifndef GSAN_HAVE_SANITIZER

int rt_binary_start(void) {
  rt_gsan_say("binary=1: this gsan was built without NVIDIA's Sanitizer API headers "
              "(compute-sanitizer/include/sanitizer.h), so it has no binary mode; the run goes on without it");
  return -1;
}

#else

#include <sanitizer.h>

#include "rt_dlsym.h"
#include "rt_trust.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FN(name) __typeof__(&sanitizer##name) name
static struct {
  FN(Subscribe);
  FN(EnableCallback);
  FN(AddPatchesFromFile);
  FN(PatchInstructions);
  FN(PatchModule);
  FN(SetCallbackData);
  FN(GetFunctionPcAndSize);
  FN(Alloc);
  FN(MemcpyHostToDeviceAsync);
  FN(GetResultString);
  FN(AllocHost);
  FN(SetLaunchCallbackData); /* optional: a graph's kernel nodes get their data per launch */
} san;
#undef FN

#define PATCH_FILE "gsan_binary_patch.fatbin"
#define CALLBACK_NAME "gsan_binary_access"

/* the instructions patched and the patch's callback for each
 * (rt_binary_patch.cu); the first is the one a module needs to count as
 * patched, the others add what they can */
static const struct {
  Sanitizer_InstructionId id;
  const char *callback, *what;
} patches[] = {
    {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, CALLBACK_NAME, "global accesses"},
    {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "gsan_binary_shared", "shared accesses"},
    {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, "gsan_binary_local", "local accesses"},
    {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "gsan_binary_copy", "cp.async"},
    {SANITIZER_INSTRUCTION_DEVICE_SIDE_MALLOC, "gsan_binary_malloc", "in-kernel malloc"},
    {SANITIZER_INSTRUCTION_DEVICE_ALIGNED_MALLOC, "gsan_binary_malloc", "in-kernel aligned malloc"},
    {SANITIZER_INSTRUCTION_DEVICE_SIDE_FREE, "gsan_binary_free", "in-kernel free"},
};

static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;
static char patch_path[4096];

/* An open-addressing set of pointers (modules patched, kernels given their
 * data), looked up at every launch. Full: no more entries, which costs a
 * kernel its check (modules) or a fresh set-up at each launch (kernels). */
#define MAP_SLOTS 16384
typedef struct map {
  const void *key[MAP_SLOTS];
  unsigned long long val[MAP_SLOTS];
  void *data[MAP_SLOTS]; /* kernels: the callback data set */
} map;
/* modules: CUmodule -> 1 while patched (0 once its context is gone), its
 * context as data; kernels: CUfunction -> its device's context id + 1 */
static map modules, kernels;

static unsigned map_slot(const map *m, const void *k) {
  unsigned i = (unsigned)(((uintptr_t)k >> 4) * 0x9E3779B1u) & (MAP_SLOTS - 1);
  for (unsigned n = 0; n < MAP_SLOTS && m->key[i] && m->key[i] != k; n++) i = (i + 1) & (MAP_SLOTS - 1);
  return i;
}
/* under patch_lock */
static unsigned long long *map_get(map *m, const void *k, int add) {
  unsigned i = map_slot(m, k);
  if (m->key[i] == k) return &m->val[i];
  if (!add || m->key[i]) return NULL;
  m->key[i] = k;
  return &m->val[i];
}

static __thread int adding;
static CUcontext patched_ctx[64];
static unsigned npatched_ctx;

static const char *result_name(SanitizerResult r) {
  const char *s = NULL;
  if (san.GetResultString) san.GetResultString(r, &s);
  return s ? s : "unknown error";
}

static int has(const char *image, size_t n, const char *what) {
  return image && memmem(image, n, what, strlen(what)) != NULL;
}

/* the patches in ctx, added the first time a module loads there */
static int patches_in(CUcontext ctx) {
  for (unsigned i = 0; i < npatched_ctx; i++)
    if (patched_ctx[i] == ctx) return 1;
  if (npatched_ctx == sizeof patched_ctx / sizeof *patched_ctx) return 0;
  adding = 1; /* the patch module's own load is not patched (module_loaded) */
  SanitizerResult r = san.AddPatchesFromFile(patch_path, ctx);
  adding = 0;
  if (r == SANITIZER_SUCCESS) {
    patched_ctx[npatched_ctx++] = ctx;
    return 1;
  }
  rt_gsan_say("binary mode: sanitizerAddPatchesFromFile(%s): %s; this context's kernels are not checked", patch_path,
              result_name(r));
  return 0;
}

/* Only modules gsan did not instrument are patched: an instrumented one has
 * a site table (its symbol's name is in the cubin's string table: a search
 * of the image once per load), and gsan's own patch module is left alone.
 * A module loaded lazily arrives at its kernel's first launch, which may be
 * captured into a graph: the Sanitizer API's own work (loading the patches,
 * patching) is done in relaxed capture mode for this thread, so that it does
 * not end a capture in global mode, as gsan's other calls are
 * (rt_driver_capture_swap). */
static void module_loaded(const Sanitizer_ResourceModuleData *m) {
  if (adding || has(m->pCubin, m->cubinSize, GSAN_SITES_PREFIX) || has(m->pCubin, m->cubinSize, CALLBACK_NAME)) return;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_driver_capture_swap(&mode);
  pthread_mutex_lock(&patch_lock);
  int patched = 0;
  if (patches_in(m->context)) {
    SanitizerResult r = san.PatchInstructions(patches[0].id, m->module, patches[0].callback);
    for (size_t i = 1; r == SANITIZER_SUCCESS && i < sizeof patches / sizeof *patches; i++) {
      SanitizerResult ri = san.PatchInstructions(patches[i].id, m->module, patches[i].callback);
      static int said;
      if (ri != SANITIZER_SUCCESS && !said++)
        rt_gsan_say("binary mode: cannot patch %s: %s; they are not checked", patches[i].what, result_name(ri));
    }
    if (r == SANITIZER_SUCCESS) r = san.PatchModule(m->module);
    unsigned long long *v = r == SANITIZER_SUCCESS ? map_get(&modules, m->module, 1) : NULL;
    if (v) *v = 1, modules.data[v - modules.val] = m->context;
    patched = v != NULL;
    if (r != SANITIZER_SUCCESS)
      rt_gsan_say("binary mode: cannot patch a module: %s; its kernels are not checked", result_name(r));
  }
  pthread_mutex_unlock(&patch_lock);
  rt_driver_capture_swap(&mode);
  if (patched && rt_gsan.flags.verbosity) rt_gsan_say("binary mode: patched a module of %zu bytes", m->cubinSize);
}

/* n bytes to device memory at dst before anything the caller launches next,
 * whatever stream that is ordered on: on gsan's own non-blocking stream,
 * waited for (a graph's kernel nodes run on streams of the graph's own, and a
 * copy on the stream the graph was launched on would come after it); on the
 * launch's stream where gsan has no stream in this context */
static SanitizerResult put(const rt_dev *d, CUcontext ctx, void *dst, void *src, size_t n, Sanitizer_StreamHandle s) {
  CUcontext cur = NULL;
  if (d->own_stream && rt_driver.cu.MemcpyHtoDAsync && rt_driver.cu.StreamSynchronize && rt_driver.cu.CtxGetCurrent &&
      rt_driver.cu.CtxGetCurrent(&cur) == CUDA_SUCCESS && cur == ctx && cur == d->cuctx &&
      rt_driver.cu.MemcpyHtoDAsync((CUdeviceptr)(uintptr_t)dst, src, n, d->own_stream) == CUDA_SUCCESS &&
      rt_driver.cu.StreamSynchronize(d->own_stream) == CUDA_SUCCESS)
    return SANITIZER_SUCCESS;
  return san.MemcpyHostToDeviceAsync(dst, src, n, s);
}

/* Per device, the record of its heap (gsan_bheap, abi.h), made at the first
 * launch of a patched kernel there (and again after a reset): the shadow in
 * device memory, zeroed by a copy (put), the blocks in host memory the
 * device reaches, which reports and the leak check read. Under patch_lock. */
static struct {
  unsigned long long ctx_id; /* + 1 */
  void *dev;
  CUcontext ctx; /* where it was allocated: it goes with that context */
} heaps[RT_MAX_DEVICES];

static void *heap_for(const Sanitizer_LaunchData *l, rt_dev *d, Sanitizer_StreamHandle stream) {
  if (heaps[l->device].ctx_id == d->ctx_id + 1) return heaps[l->device].dev;
  /* the image copied from, kept per device: a copy on the launch's stream
   * may still read it after this returns */
  static gsan_bheap *image[RT_MAX_DEVICES];
  gsan_bheap *zero = image[l->device];
  void *dev = NULL, *blocks = NULL;
  if (!zero && !(zero = image[l->device] = calloc(1, sizeof *zero))) return NULL;
  zero->lo = ~0ull;
  SanitizerResult r = san.Alloc(l->context, &dev, sizeof(gsan_bheap));
  if (r == SANITIZER_SUCCESS) r = san.AllocHost(l->context, &blocks, sizeof(gsan_bheap_block) * GSAN_BHEAP_BLOCKS);
  if (r == SANITIZER_SUCCESS) {
    memset(blocks, 0, sizeof(gsan_bheap_block) * GSAN_BHEAP_BLOCKS);
    zero->blocks = (uint64_t)(uintptr_t)blocks;
    r = put(d, l->context, dev, zero, sizeof *zero, stream);
  }
  if (r != SANITIZER_SUCCESS) {
    rt_gsan_say("binary mode: no record of device %d's heap: %s; in-kernel malloc and free go unchecked", l->device,
                result_name(r));
    dev = NULL;
  }
  heaps[l->device].ctx_id = d->ctx_id + 1;
  heaps[l->device].dev = dev;
  heaps[l->device].ctx = l->context;
  rt_binary_set_heap(l->device, dev ? blocks : NULL); /* the host's view, for reports and leaks */
  return dev;
}

/* The local window as the patch sees it: threads' stacks sit at the top of
 * a 16 MiB window, a kernel's own frame just below where the thread's stack
 * starts (SASS: R1 = c[0x0][0x28] at entry); the bytes above that start are
 * the driver's. Measured on the H100 (driver 580): 0xfffcc0 natively for
 * every kernel and stack limit tried, lower under the Sanitizer API's
 * patching (its trampolines take stack). So each device's start is measured
 * once, under the patches, by a probe kernel whose one 16-byte local array
 * is its whole frame (device_ready); an access at or past it is past every
 * frame. Where the probe fails, the window's top stands in. */
#define LOCAL_WINDOW (1ull << 24)
static uint64_t local_top[RT_MAX_DEVICES];

/* where a thread's stack starts in d's local window, under the patches: the
 * probe's array address plus its 16 bytes; 0 when it cannot be measured,
 * with why in why (the step that failed and its error, or the value) */
static uint64_t measure_local_top(rt_dev *d, char *why, size_t n) {
  CUresult (*get_fn)(CUfunction *, CUmodule, const char *);
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                     void **, void **);
  *(void **)&get_fn = rt_driver_real("cuModuleGetFunction");
  *(void **)&launch = rt_driver_real("cuLaunchKernel");
  if (!get_fn || !launch || !rt_driver.cu.ModuleLoadData || !d->own_stream) {
    snprintf(why, n, "%s", !d->own_stream ? "gsan has no stream on the device" : "a driver function is missing");
    return 0;
  }
  CUmodule m = NULL;
  CUfunction f;
  CUdeviceptr out = 0;
  uint64_t v = 0;
  const char *step = "cuModuleLoadData";
  CUresult r = rt_driver.cu.ModuleLoadData(&m, rt_binary_probe_ptx);
  if (r == CUDA_SUCCESS) step = "cuModuleGetFunction", r = get_fn(&f, m, "gsan_binary_local_probe");
  if (r == CUDA_SUCCESS) step = "cuMemAlloc", r = rt_driver.cu.MemAlloc(&out, 8);
  void *args[] = {&out};
  if (r == CUDA_SUCCESS) step = "cuLaunchKernel", r = launch(f, 1, 1, 1, 1, 1, 1, 0, d->own_stream, args, NULL);
  if (r == CUDA_SUCCESS) step = "cuStreamSynchronize", r = rt_driver.cu.StreamSynchronize(d->own_stream);
  if (r == CUDA_SUCCESS) step = "cuMemcpyDtoH", r = rt_driver.cu.MemcpyDtoH(&v, out, 8);
  if (out) rt_driver.cu.MemFree(out);
  /* the probe's module stays loaded: an unloaded module's kernel handle,
   * given out again, would keep the probe's callback data (kernels map) */
  if (r != CUDA_SUCCESS) {
    snprintf(why, n, "%s: CUDA error %d", step, (int)r);
    return 0;
  }
  v += 16;
  /* a start in the window's top 64 KiB, 16-byte aligned, or none */
  if (v <= LOCAL_WINDOW && v > LOCAL_WINDOW - (1u << 16) && !(v & 15)) return v;
  snprintf(why, n, "it read 0x%llx, not in the window's top 64 KiB", (unsigned long long)(v - 16));
  return 0;
}

/* A device gsan has set up gets the patches in its context at once, outside
 * any capture, rather than at its first module load; then where its threads'
 * stacks start is measured (measure_local_top). */
static void device_ready(rt_dev *d) {
  if (!san.AddPatchesFromFile || !d->cuctx) return;
  pthread_mutex_lock(&patch_lock);
  patches_in(d->cuctx);
  pthread_mutex_unlock(&patch_lock);
  if ((unsigned)d->device >= RT_MAX_DEVICES) return;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_driver_capture_swap(&mode);
  char why[160] = "";
  local_top[d->device] = measure_local_top(d, why, sizeof why);
  rt_driver_capture_swap(&mode);
  if (!local_top[d->device])
    rt_gsan_say("binary mode: device %d: where threads' stacks start in the local window is not known (the probe "
                "kernel: %s); a local access is checked against the window's top",
                d->device, why);
  else if (rt_gsan.flags.verbosity)
    rt_gsan_say("binary mode: device %d: threads' stacks start at local offset 0x%llx", d->device,
                (unsigned long long)local_top[d->device]);
}

/* the kernel's callback data, made and attached (launch_begin); NULL when
 * it could not be */
static void *kernel_data(const Sanitizer_LaunchData *l, int node, rt_dev *d, unsigned long long key) {
  void *dev = NULL;
  Sanitizer_StreamHandle stream = node && l->hApiStream ? l->hApiStream : l->hStream;
  gsan_binary_data h;
  memset(&h, 0, sizeof h);
  memcpy(h.ctx, d->ctx, sizeof h.ctx);
  uint64_t size = 0;
  if (san.GetFunctionPcAndSize(l->module, l->functionName, &h.func_pc, &size) != SANITIZER_SUCCESS) h.func_pc = 0;
  h.kernel = rt_binary_kernel_index(l->functionName ? l->functionName : "?");
  static CUresult (*func_attr)(int *, CUfunction_attribute, CUfunction);
  if (!func_attr) *(void **)&func_attr = rt_driver_real("cuFuncGetAttribute");
  int shared = 0;
  if (func_attr) func_attr(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, l->function);
  h.static_shared = (uint32_t)shared;
  h.local_top = local_top[l->device] ? local_top[l->device] : LOCAL_WINDOW;
  pthread_mutex_lock(&patch_lock);
  h.heap = (uint64_t)(uintptr_t)heap_for(l, d, stream);
  pthread_mutex_unlock(&patch_lock);
  SanitizerResult r = san.Alloc(l->context, &dev, sizeof h);
  if (r == SANITIZER_SUCCESS) r = put(d, l->context, dev, &h, sizeof h, stream);
  if (r == SANITIZER_SUCCESS) r = san.SetCallbackData(l->function, dev);
  if (r != SANITIZER_SUCCESS) {
    rt_gsan_say("binary mode: no callback data for kernel %s: %s; it runs unchecked", l->functionName, result_name(r));
    return NULL;
  }
  if (rt_gsan.flags.verbosity >= 2)
    rt_gsan_say("binary mode: kernel %s: %u bytes of static shared memory%s", l->functionName, h.static_shared,
                node ? ", a graph's node" : "");
  pthread_mutex_lock(&patch_lock);
  unsigned long long *v = map_get(&kernels, l->function, 1);
  if (v) *v = key, kernels.data[v - kernels.val] = dev;
  pthread_mutex_unlock(&patch_lock);
  return dev;
}

/* A patched kernel's callback data: its device's __gsan_ctx, where its code
 * starts, its name's index, its static shared memory, the local window's
 * top and the device's heap record. Until the device has an arena (the program has
 * allocated nothing there) there is nothing to check and the callbacks get
 * NULL. The data is made once per kernel and context and copied by put
 * (waited for, so it is in place whichever stream runs the kernel); a
 * graph's kernel node also gets it for each launch: the driver announces a
 * node's launch in the graphs domain (node_launch_begin), not as a launch,
 * and a node given no data was seen to fault (tests/bugs/graph_overflow.cu,
 * clean_graph_capture.cu on the H100 at c32a986). */
static void launch_begin(const Sanitizer_LaunchData *l, int node) {
  rt_dev *d = (unsigned)l->device < RT_MAX_DEVICES ? rt_device_at(l->device) : NULL;
  int ready = d && __atomic_load_n(&d->ready, __ATOMIC_ACQUIRE);
  unsigned long long key = ready ? d->ctx_id + 1 : 0;
  void *dev = NULL;
  pthread_mutex_lock(&patch_lock);
  unsigned long long *known = ready ? map_get(&kernels, l->function, 0) : NULL;
  if (known && *known == key) dev = kernels.data[known - kernels.val];
  unsigned long long *pm = map_get(&modules, l->module, 0);
  int patched = pm && *pm;
  pthread_mutex_unlock(&patch_lock);
  int make = patched && ready && !dev;
  if (!make && !node) return; /* the common case: nothing to do */
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  rt_driver_capture_swap(&mode);
  if (make) dev = kernel_data(l, node, d, key);
  /* a graph's kernel node: its data for this launch, NULL where gsan has
   * none (the per-kernel data is for launches through the API, and a node
   * given none was seen to fault) */
  if (node && san.SetLaunchCallbackData) {
    SanitizerResult r = san.SetLaunchCallbackData(l->hLaunch, l->function, l->hStream, dev);
    if (rt_gsan.flags.verbosity >= 2)
      rt_gsan_say("binary mode: graph node %s: module %s, data %s (%s)", l->functionName ? l->functionName : "?",
                  patched ? "patched" : "not patched", dev ? "set" : "none", result_name(r));
  }
  rt_driver_capture_swap(&mode);
}

/* a graph's node about to run: a kernel node is a launch that gets its data
 * for this launch; copies, sets and the graph's own allocations are seen by
 * gsan's driver hooks, not here */
static void node_launch_begin(const Sanitizer_GraphNodeLaunchData *n) {
  if (n->nodeType == CU_GRAPH_NODE_TYPE_KERNEL && n->launchData.function) launch_begin(&n->launchData, 1);
}

/* A context being destroyed (cuCtxDestroy, a device reset): its patches,
 * its modules' marks and its device-heap record go with it. The driver may
 * give the next context, and a module loaded there, the same handle: left
 * marked, the new context would count as patched and get none (every module
 * there failed to patch: tests/gpu/stress/device_reset.cu under --binary). */
static void context_gone(const Sanitizer_ResourceContextData *c) {
  pthread_mutex_lock(&patch_lock);
  /* the heap record's host blocks were allocated in it: read at exit, they
   * were freed memory (a SIGSEGV in the leak check after a device reset,
   * tests/gpu/stress/device_reset.cu under --binary on the H100 at af5d349) */
  for (int i = 0; i < RT_MAX_DEVICES; i++)
    if (heaps[i].ctx_id && heaps[i].ctx == c->context) {
      rt_binary_set_heap(i, NULL);
      heaps[i].ctx_id = 0, heaps[i].dev = NULL, heaps[i].ctx = NULL;
    }
  for (unsigned i = 0; i < npatched_ctx; i++)
    if (patched_ctx[i] == c->context) {
      patched_ctx[i] = patched_ctx[--npatched_ctx];
      break;
    }
  for (unsigned i = 0; i < MAP_SLOTS; i++)
    if (modules.key[i] && modules.data[i] == (void *)c->context) modules.val[i] = 0;
  pthread_mutex_unlock(&patch_lock);
}

static void SANITIZERAPI on_event(void *arg, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                                  const void *data) {
  (void)arg;
  if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) module_loaded(data);
  else if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
    context_gone(data);
  else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN)
    launch_begin(data, ((const Sanitizer_LaunchData *)data)->apiContext != NULL);
  else if (domain == SANITIZER_CB_DOMAIN_GRAPHS && cbid == SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN)
    node_launch_begin(data);
}

/* lib (sanitizer_lib, resolved), else the toolkit's copy ($CUDA_HOME,
 * /usr/local/cuda), else the loader's search path */
static void *open_library(const char *lib, char *tried, size_t n) {
  const char *cuda = getenv("CUDA_HOME");
  char paths[3][4096];
  int k = 0;
  if (lib) snprintf(paths[k++], sizeof paths[0], "%s", lib);
  else {
    if (cuda && *cuda) snprintf(paths[k++], sizeof paths[0], "%s/compute-sanitizer/libsanitizer-public.so", cuda);
    snprintf(paths[k++], sizeof paths[0], "/usr/local/cuda/compute-sanitizer/libsanitizer-public.so");
    snprintf(paths[k++], sizeof paths[0], "libsanitizer-public.so");
  }
  tried[0] = 0;
  for (int i = 0; i < k; i++) {
    void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    size_t used = strlen(tried);
    snprintf(tried + used, n - used, "%s%s", used ? ", " : "", paths[i]);
  }
  return NULL;
}

/* the patch file beside libgsan.so (make puts both in build/lib) */
static int find_patches(void) {
  Dl_info di;
  if (!dladdr((void *)rt_binary_start, &di) || !di.dli_fname) return -1;
  const char *slash = strrchr(di.dli_fname, '/');
  int dir = slash ? (int)(slash - di.dli_fname) : 1;
  snprintf(patch_path, sizeof patch_path, "%.*s/%s", dir, slash ? di.dli_fname : ".", PATCH_FILE);
  return access(patch_path, R_OK);
}

int rt_binary_start(void) {
  static int started;
  if (started++) return 0;
  if (find_patches() != 0) {
    rt_gsan_say("binary=1: gsan's patch file %s is missing (make builds it when nvcc is found); binary mode is off",
                patch_path[0] ? patch_path : PATCH_FILE);
    return -1;
  }
  /* sanitizer_lib is loaded as code: gsan's rule for that (rt_trust.h);
   * one that is not there is said as one that does not load */
  const char *want = rt_gsan.flags.sanitizer_lib;
  char lib[PATH_MAX], tried[4096 * 3 + 8];
  rt_trust_err err;
  void *h = NULL;
  if (!want[0]) h = open_library(NULL, tried, sizeof tried);
  else if (rt_trust_file(want, lib, &err) == 0) h = open_library(lib, tried, sizeof tried);
  else if (access(want, F_OK) != 0) snprintf(tried, sizeof tried, "%s", want);
  else {
    rt_gsan_say("binary=1: %s: %s; binary mode is off", err.path, err.why);
    return -1;
  }
  if (!h) {
    rt_gsan_say("binary=1: cannot load NVIDIA's Sanitizer API library (tried %s; set sanitizer_lib); binary mode is off",
                tried);
    return -1;
  }
#define GET(name) (*(void **)&san.name = rt_real_dlsym(h, "sanitizer" #name)) != NULL
  if (!(GET(Subscribe) && GET(EnableCallback) && GET(AddPatchesFromFile) && GET(PatchInstructions) &&
        GET(PatchModule) && GET(SetCallbackData) && GET(GetFunctionPcAndSize) && GET(Alloc) &&
        GET(MemcpyHostToDeviceAsync) && GET(GetResultString) && GET(AllocHost))) {
    rt_gsan_say("binary=1: the Sanitizer API library lacks a function gsan calls (%s); binary mode is off", dlerror());
    return -1;
  }
#undef GET
  *(void **)&san.SetLaunchCallbackData = rt_real_dlsym(h, "sanitizerSetLaunchCallbackData");
  Sanitizer_SubscriberHandle sub;
  SanitizerResult r = san.Subscribe(&sub, on_event, NULL);
  if (r == SANITIZER_SUCCESS) r = san.EnableCallback(1, sub, SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CBID_RESOURCE_MODULE_LOADED);
  if (r == SANITIZER_SUCCESS)
    r = san.EnableCallback(1, sub, SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  if (r == SANITIZER_SUCCESS) r = san.EnableCallback(1, sub, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CBID_LAUNCH_BEGIN);
  if (r == SANITIZER_SUCCESS && san.SetLaunchCallbackData)
    r = san.EnableCallback(1, sub, SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN);
  if (r != SANITIZER_SUCCESS) {
    rt_gsan_say("binary=1: sanitizerSubscribe: %s (one subscriber per process: is compute-sanitizer running "
                "this program?); binary mode is off",
                result_name(r));
    return -1;
  }
  if (rt_gsan.flags.verbosity) rt_gsan_say("binary mode: SASS-only modules are patched with %s", patch_path);
  return 0;
}

#endif

/* binary mode starts with gsan, when the options ask for it */
static void start_if_asked(void) {
  if (rt_gsan.flags.binary) rt_binary_start();
}

#ifdef GSAN_HAVE_SANITIZER
const rt_listener rt_binary_listener = {
    .name = "binary", .start = start_if_asked, .device_ready = device_ready, .leaks = rt_binary_heap_leaks};
#else
const rt_listener rt_binary_listener = {.name = "binary", .start = start_if_asked, .leaks = rt_binary_heap_leaks};
#endif
