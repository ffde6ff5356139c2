/* Compiles a .cu file to PTX with NVRTC, the run-time compiler that CuPy and
 * PyTorch JIT kernels go through, so that the corpus holds its output too.
 * Usage: nvrtc_ptx ARCH IN.cu OUT.ptx [NVRTC options...] */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return NULL; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (fread(p, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(p); return NULL; }
  p[n] = 0;
  fclose(f);
  return p;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s ARCH IN.cu OUT.ptx [options...]\n", argv[0]);
    return 2;
  }
  char *src = slurp(argv[2]);
  if (!src) return 2;
  char arch[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=%s", argv[1]);
  const char *opts[32] = {arch, "-std=c++17"};
  int nopt = 2;
  for (int i = 4; i < argc && nopt < 32; i++) opts[nopt++] = argv[i];
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, src, argv[2], 0, NULL, NULL) != NVRTC_SUCCESS) return 1;
  nvrtcResult rc = nvrtcCompileProgram(prog, nopt, opts);
  size_t loglen;
  nvrtcGetProgramLogSize(prog, &loglen);
  if (loglen > 1) {
    char *log = malloc(loglen);
    nvrtcGetProgramLog(prog, log);
    fprintf(stderr, "%s\n", log);
    free(log);
  }
  if (rc != NVRTC_SUCCESS) return 1;
  size_t n;
  nvrtcGetPTXSize(prog, &n);
  char *ptx = malloc(n);
  nvrtcGetPTX(prog, ptx);
  FILE *out = fopen(argv[3], "wb");
  if (!out || fwrite(ptx, 1, strlen(ptx), out) != strlen(ptx) || fclose(out) != 0) {
    perror(argv[3]);
    return 1;
  }
  nvrtcDestroyProgram(&prog);
  free(ptx);
  free(src);
  return 0;
}
