/* Runs libgsan_next.so's probe (tests/runtime/next_lib.c): "preload" where it
 * is preloaded, "dlopen LIB" where this program loads it with RTLD_LOCAL, so
 * that its RTLD_NEXT searches its own dependencies, not the global scope.
 * Linked with the fake libcuda.so.1: the driver is in the global scope, as
 * for a program linked with -lcuda. */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (cuInit(0) != CUDA_SUCCESS) return 2;
  void *h = RTLD_DEFAULT;
  if (argc > 2 && !strcmp(argv[1], "dlopen") && !(h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL))) {
    fprintf(stderr, "test_next: %s\n", dlerror());
    return 2;
  }
  void (*probe)(void) = (void (*)(void))dlsym(h, "next_probe");
  if (!probe) {
    fprintf(stderr, "test_next: no next_probe\n");
    return 2;
  }
  probe();
  return 0;
}
