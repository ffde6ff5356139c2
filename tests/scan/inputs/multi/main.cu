// The host side of a two-file program (multi_tu.test): it allocates, launches
// fill here and scale through launch_scale in kernels.cu.
#include <cstdlib>
#include "kernels.h"

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int n = atoi(argv[1]);
  if (n < 1 || n > (1 << 20)) return 1;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, 1.0f, n);
  launch_scale(d, 2.0f, n);
  cudaFree(d);
  return 0;
}
