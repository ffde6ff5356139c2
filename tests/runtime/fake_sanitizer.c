/* A fake of NVIDIA's Sanitizer API library (libsanitizer-public.so) for
 * binary mode's CPU test: the calls libgsan makes are printed, "device"
 * memory is host memory, and the test program plays the driver's events
 * (a module loaded, a kernel launched, a graph's node launched) through
 * fake_sanitizer_module, fake_sanitizer_launch and fake_sanitizer_graph_node. Built against the real headers, so the signatures
 * are the API's. FAKE_SANITIZER_BUSY=1: the subscriber slot is taken. */
#include <sanitizer.h>

#include <gsan/abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Sanitizer_CallbackFunc callback;
static void *callback_arg;

SanitizerResult sanitizerSubscribe(Sanitizer_SubscriberHandle *s, Sanitizer_CallbackFunc f, void *arg) {
  if (getenv("FAKE_SANITIZER_BUSY")) return SANITIZER_ERROR_MAX_LIMIT_REACHED;
  callback = f, callback_arg = arg;
  *s = (Sanitizer_SubscriberHandle)1;
  printf("sanitizer: subscribed\n");
  return SANITIZER_SUCCESS;
}

SanitizerResult sanitizerEnableCallback(uint32_t on, Sanitizer_SubscriberHandle s, Sanitizer_CallbackDomain d,
                                        Sanitizer_CallbackId id) {
  (void)s;
  printf("sanitizer: callback domain %d id %u %s\n", (int)d, id, on ? "on" : "off");
  return SANITIZER_SUCCESS;
}

void fake_sanitizer_module(CUcontext ctx, CUmodule m, const char *image, size_t n) {
  Sanitizer_ResourceModuleData md = {ctx, m, n, image, NULL};
  if (callback) callback(callback_arg, SANITIZER_CB_DOMAIN_RESOURCE, SANITIZER_CBID_RESOURCE_MODULE_LOADED, &md);
}

SanitizerResult sanitizerAddPatchesFromFile(const char *file, CUcontext ctx) {
  const char *base = strrchr(file, '/');
  printf("sanitizer: patches from %s in context %p\n", base ? base + 1 : file, (void *)ctx);
  /* the patch module is a module of the context too */
  static const char patch[] = "\177ELF .text." "gsan_binary_access";
  fake_sanitizer_module(ctx, (CUmodule)0xbadc0de, patch, sizeof patch);
  return SANITIZER_SUCCESS;
}

SanitizerResult sanitizerPatchInstructions(const Sanitizer_InstructionId id, CUmodule m, const char *name) {
  printf("sanitizer: module %p: instruction %d calls %s\n", (void *)m, (int)id, name);
  return SANITIZER_SUCCESS;
}

SanitizerResult sanitizerPatchModule(CUmodule m) {
  printf("sanitizer: module %p patched\n", (void *)m);
  return SANITIZER_SUCCESS;
}

SanitizerResult sanitizerGetFunctionPcAndSize(CUmodule m, const char *name, uint64_t *pc, uint64_t *size) {
  (void)m, (void)name;
  *pc = 0x7000, *size = 0x100;
  return SANITIZER_SUCCESS;
}

/* kept for the process, as device memory is */
static void *volatile allocated[64]; /* volatile: stores the compiler must keep */
static unsigned nallocated;

SanitizerResult sanitizerAlloc(CUcontext ctx, void **p, size_t n) {
  (void)ctx;
  if (nallocated == sizeof allocated / sizeof *allocated || !(*p = calloc(1, n))) return SANITIZER_ERROR_OUT_OF_MEMORY;
  allocated[nallocated++] = *p;
  return SANITIZER_SUCCESS;
}

/* host memory the "device" reaches: the same here */
SanitizerResult sanitizerAllocHost(CUcontext ctx, void **p, size_t n) { return sanitizerAlloc(ctx, p, n); }

SanitizerResult sanitizerMemcpyHostToDeviceAsync(void *dst, void *src, size_t n, Sanitizer_StreamHandle s) {
  (void)s;
  memcpy(dst, src, n);
  return SANITIZER_SUCCESS;
}

/* what a kernel's callbacks would get */
SanitizerResult sanitizerSetCallbackData(CUfunction f, const void *data) {
  const gsan_binary_data *d = data;
  uint64_t base, ring;
  memcpy(&base, d->ctx + GSAN_CTX_ARENA_BASE, 8);
  memcpy(&ring, d->ctx + GSAN_CTX_RING, 8);
  printf("sanitizer: data for function %p: kernel %u, code at 0x%llx, arena at 0x%llx, ring %s, heap %s\n", (void *)f,
         d->kernel, (unsigned long long)d->func_pc, (unsigned long long)base, ring ? "set" : "NONE",
         d->heap ? "set" : "NONE");
  return SANITIZER_SUCCESS;
}

/* what one launch of a graph's kernel node would get */
SanitizerResult sanitizerSetLaunchCallbackData(Sanitizer_LaunchHandle launch, CUfunction f, Sanitizer_StreamHandle s,
                                               const void *data) {
  (void)s;
  const gsan_binary_data *d = data;
  printf("sanitizer: data for launch %p of function %p: %s\n", (void *)launch, (void *)f,
         !d ? "none" : d->heap ? "kernel data, heap set" : "kernel data, heap NONE");
  return SANITIZER_SUCCESS;
}

/* a graph's kernel node launched: announced in the graphs domain */
void fake_sanitizer_graph_node(CUcontext ctx, CUmodule m, CUfunction f, const char *name, CUdevice dev) {
  Sanitizer_GraphNodeLaunchData n;
  memset(&n, 0, sizeof n);
  n.nodeType = CU_GRAPH_NODE_TYPE_KERNEL;
  n.launchData.context = ctx, n.launchData.module = m, n.launchData.function = f, n.launchData.functionName = name;
  n.launchData.device = dev, n.launchData.hLaunch = (Sanitizer_LaunchHandle)0x4000;
  if (callback) callback(callback_arg, SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN, &n);
  /* a memset node: not a launch */
  n.nodeType = CU_GRAPH_NODE_TYPE_MEMSET;
  if (callback) callback(callback_arg, SANITIZER_CB_DOMAIN_GRAPHS, SANITIZER_CBID_GRAPHS_NODE_LAUNCH_BEGIN, &n);
}

void fake_sanitizer_launch(CUcontext ctx, CUmodule m, CUfunction f, const char *name, CUdevice dev) {
  Sanitizer_LaunchData l;
  memset(&l, 0, sizeof l);
  l.context = ctx, l.module = m, l.function = f, l.functionName = name, l.device = dev;
  if (callback) callback(callback_arg, SANITIZER_CB_DOMAIN_LAUNCH, SANITIZER_CBID_LAUNCH_BEGIN, &l);
}

SanitizerResult sanitizerGetResultString(SanitizerResult r, const char **s) {
  *s = r == SANITIZER_ERROR_MAX_LIMIT_REACHED ? "max limit reached" : "fake error";
  return SANITIZER_SUCCESS;
}
