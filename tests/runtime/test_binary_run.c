/* Binary mode's host side against fake drivers (fake_libcuda.c and
 * fake_sanitizer.c), run under gsan run with binary=1 and sanitizer_lib
 * naming the fake: which modules libgsan patches and what data a patched
 * kernel's launch gets. Usage: test_binary_run FAKE_SANITIZER.so */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  void *cu = dlopen("libcuda.so.1", RTLD_NOW);
  gpa_fn gpa = cu ? (gpa_fn)dlsym(cu, "cuGetProcAddress_v2") : NULL;
  if (!gpa) return 2;
  CUdriverProcAddressQueryResult st;
  CUresult (*Init)(unsigned) = NULL;
  CUresult (*Alloc)(CUdeviceptr *, size_t) = NULL;
  CUresult (*Current)(CUcontext *) = NULL;
  gpa("cuInit", (void **)&Init, 13000, 0, &st);
  gpa("cuMemAlloc", (void **)&Alloc, 13000, 0, &st);
  gpa("cuCtxGetCurrent", (void **)&Current, 13000, 0, &st);
  Init(0);
  /* libgsan has loaded the fake by now: the same library, by its path */
  void *san = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
  printf("sanitizer library loaded by gsan: %s\n", san ? "yes" : "no");
  if (!san) return 1;
  void (*module)(CUcontext, CUmodule, const char *, size_t) = dlsym(san, "fake_sanitizer_module");
  void (*launch)(CUcontext, CUmodule, CUfunction, const char *, CUdevice) = dlsym(san, "fake_sanitizer_launch");
  void (*node)(CUcontext, CUmodule, CUfunction, const char *, CUdevice) = dlsym(san, "fake_sanitizer_graph_node");
  if (!module || !launch || !node) return 1;
  CUcontext ctx = NULL;
  Current(&ctx);
  static const char plain[] = "\177ELF .text._Z6kernelPi";
  static const char mine[] = "\177ELF .text._Z6kernelPi __gsan_sites_00112233445566778";
  CUmodule m_plain = (CUmodule)0x1000, m_mine = (CUmodule)0x2000;
  CUfunction f_plain = (CUfunction)0x1100, f_mine = (CUfunction)0x2100;
  printf("load: SASS-only module\n");
  module(ctx, m_plain, plain, sizeof plain);
  printf("load: module gsan instrumented\n");
  module(ctx, m_mine, mine, sizeof mine);
  printf("launch: before any allocation\n");
  launch(ctx, m_plain, f_plain, "_Z6kernelPi", 0);
  printf("graph node: before any allocation\n");
  node(ctx, m_plain, f_plain, "_Z6kernelPi", 0);
  CUdeviceptr p;
  printf("cuMemAlloc: %d\n", Alloc(&p, 100));
  printf("launch: SASS-only kernel\n");
  launch(ctx, m_plain, f_plain, "_Z6kernelPi", 0);
  printf("launch: again\n");
  launch(ctx, m_plain, f_plain, "_Z6kernelPi", 0);
  printf("launch: instrumented kernel\n");
  launch(ctx, m_mine, f_mine, "_Z6kernelPi", 0);
  printf("graph node: SASS-only kernel\n");
  node(ctx, m_plain, f_plain, "_Z6kernelPi", 0);
  printf("graph node: SASS-only kernel, first launch in a graph\n");
  node(ctx, m_plain, (CUfunction)0x1200, "_Z5otherPi", 0);
  printf("graph node: instrumented kernel\n");
  node(ctx, m_mine, f_mine, "_Z6kernelPi", 0);
  printf("done\n");
  return 0;
}
