/* PTX loaded at run time, on the CPU: hands an image (PTX text, a fatbin, a
 * file) to the fake driver (fake_libcuda.c) through one of the loading
 * calls, fetched the way cudart fetches them, and says what the driver got:
 * gsan's instrumented PTX or the image as it was, and whether the module's
 * __gsan_ctx was filled. To be run under gsan run; tests/runtime/jit.test.
 * Usage: test_jit CALL IMAGE [GOT]
 * CALL: module | module-ex | fatbinary | library | module-file | library-file | link | link-fatbin |
 *       link-file | report SITE
 * GOT: a file to write what the driver got into. report: after the load,
 * plays, for every module whose site table the image names (a cubin linked
 * from many units has one per unit), a kernel whose check at SITE failed
 * (writes its record into gsan's ring, as __gsan_report does) and waits,
 * for gsan to print the reports. */
#define DRV_VERSION 13000
#include "driver.h"

#include <gsan/abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc((size_t)n + 1);
  if (fread(p, 1, (size_t)n, f) != (size_t)n) exit(2);
  p[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return p;
}

/* gsan's failure path, as the device runs it: claim the next slot of the
 * ring that __gsan_ctx names, write the record, publish its seq last */
static void fail_check(const unsigned char *ctx, uint64_t module, uint32_t site, uint64_t base, uint64_t size) {
  uint64_t ring, ctl;
  memcpy(&ring, ctx + GSAN_CTX_RING, 8);
  memcpy(&ctl, ctx + GSAN_CTX_RING_CTL, 8);
  unsigned char *r = (unsigned char *)(uintptr_t)ring;
  uint32_t cap, *head = (uint32_t *)(uintptr_t)ctl;
  memcpy(&cap, r + GSAN_RING_CAPACITY, 4);
  uint32_t idx = (*head)++;
  gsan_record rec = {0, site, module, base + size, base, size, {32, 0, 0}, {3, 0, 0}};
  memcpy(r + GSAN_RING_HEADER_BYTES + (size_t)(idx & (cap - 1)) * GSAN_RECORD_BYTES, &rec, sizeof rec);
  __atomic_store_n((uint32_t *)(r + GSAN_RING_HEADER_BYTES + (size_t)(idx & (cap - 1)) * GSAN_RECORD_BYTES), idx + 1,
                   __ATOMIC_RELEASE);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_jit CALL IMAGE [GOT]\n");
    return 2;
  }
  const char *call = argv[1], *path = argv[2];
  void *h = drv_open();
  if (!h) {
    fprintf(stderr, "test_jit: no driver\n");
    return 2;
  }
  CUresult (*Init)(unsigned) = get("cuInit");
  CUresult (*Alloc)(CUdeviceptr *, size_t) = get("cuMemAlloc");
  Init(0);
  CUdeviceptr buf = 0;
  Alloc(&buf, 4000); /* gsan's device set up, as in a program that allocates first */
  size_t len;
  unsigned char *image = read_file(path, &len);
  CUresult r = CUDA_ERROR_NOT_SUPPORTED;
  uintptr_t handle = 0;
  if (!strcmp(call, "module") || !strcmp(call, "report")) {
    CUresult (*Load)(CUmodule *, const void *) = get("cuModuleLoadData");
    r = Load((CUmodule *)&handle, image);
  } else if (!strcmp(call, "module-ex")) {
    CUresult (*Load)(CUmodule *, const void *, unsigned, CUjit_option *, void **) = get("cuModuleLoadDataEx");
    r = Load((CUmodule *)&handle, image, 0, NULL, NULL);
  } else if (!strcmp(call, "fatbinary")) {
    CUresult (*Load)(CUmodule *, const void *) = get("cuModuleLoadFatBinary");
    r = Load((CUmodule *)&handle, image);
  } else if (!strcmp(call, "library")) {
    CUresult (*Load)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                     unsigned) = get("cuLibraryLoadData");
    r = Load((CUlibrary *)&handle, image, NULL, NULL, 0, NULL, NULL, 0);
  } else if (!strcmp(call, "module-file")) {
    CUresult (*Load)(CUmodule *, const char *) = get("cuModuleLoad");
    r = Load((CUmodule *)&handle, path);
  } else if (!strcmp(call, "library-file")) {
    CUresult (*Load)(CUlibrary *, const char *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **,
                     unsigned) = get("cuLibraryLoadFromFile");
    r = Load((CUlibrary *)&handle, path, NULL, NULL, 0, NULL, NULL, 0);
  } else if (!strcmp(call, "link") || !strcmp(call, "link-fatbin") || !strcmp(call, "link-file")) {
    CUresult (*Create)(unsigned, CUjit_option *, void **, CUlinkState *) = get("cuLinkCreate");
    CUresult (*AddData)(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *, void **) =
        get("cuLinkAddData");
    CUresult (*AddFile)(CUlinkState, CUjitInputType, const char *, unsigned, CUjit_option *, void **) =
        get("cuLinkAddFile");
    CUlinkState st;
    Create(0, NULL, NULL, &st);
    CUjitInputType type = !strcmp(call, "link-fatbin") ? CU_JIT_INPUT_FATBINARY : CU_JIT_INPUT_PTX;
    r = !strcmp(call, "link-file") ? AddFile(st, type, path, 0, NULL, NULL)
                                   : AddData(st, type, image, len + (type == CU_JIT_INPUT_PTX), "input.ptx", 0, NULL, NULL);
  } else {
    fprintf(stderr, "test_jit: unknown call '%s'\n", call);
    return 2;
  }
  const void *(*Image)(int, size_t *, int *) = (const void *(*)(int, size_t *, int *))dlsym(h, "fake_image");
  const unsigned char *(*ImageCtx)(int) = (const unsigned char *(*)(int))dlsym(h, "fake_image_ctx");
  int *count = dlsym(h, "fake_images"), type = -1;
  size_t glen = 0;
  const unsigned char *got = *count ? Image(*count - 1, &glen, &type) : NULL;
  if (!got) {
    printf("%s: %d, the driver got nothing\n", call, r);
    return 1;
  }
  int text = !memchr(got, 0, glen - (got[glen - 1] == 0)); /* text, perhaps with its NUL */
  int same = glen - (text && got[glen - 1] == 0) == len && !memcmp(got, image, len);
  uint64_t arena;
  memcpy(&arena, ImageCtx(*count - 1), 8);
  printf("%s: %d, the driver got %s%s, %s, instrumented: %s, __gsan_ctx filled: %s\n", call, r,
         text ? "PTX text" : "a binary image", type == CU_JIT_INPUT_PTX ? " as PTX" : type >= 0 ? " as another type" : "",
         same ? "unchanged" : "changed", text && strstr((const char *)got, GSAN_REPORT_FUNC ", (") ? "yes" : "no",
         arena == 0x100000000000ull ? "yes" : "no");
  if (argc > 3 && strcmp(call, "report")) {
    FILE *f = fopen(argv[3], "wb");
    if (!f || fwrite(got, 1, glen, f) != glen || fclose(f)) perror(argv[3]);
  }
  if (!strcmp(call, "report")) {
    uint64_t seen[256];
    int nseen = 0;
    size_t plen = strlen(GSAN_SITES_PREFIX);
    for (const unsigned char *p = got; (p = memmem(p, glen - (size_t)(p - got), GSAN_SITES_PREFIX, plen)) != NULL;) {
      p += plen;
      uint64_t module = strtoull((const char *)p, NULL, 16);
      int again = 0;
      for (int i = 0; i < nseen; i++) again |= seen[i] == module;
      if (again || nseen == 256) continue;
      seen[nseen++] = module;
      fail_check(ImageCtx(*count - 1), module, (uint32_t)(argc > 3 ? atoi(argv[3]) : 0), buf, 4000);
    }
    printf("%d module(s) failed a check\n", nseen); /* stdout: flushed at exit, after the reports */
    CUresult (*Sync)(CUcontext) = get("cuCtxSynchronize");
    Sync(NULL);
    printf("no report\n");
  }
  CUresult (*Free)(CUdeviceptr) = get("cuMemFree");
  Free(buf);
  free(image);
  return 0;
}
