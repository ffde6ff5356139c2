// A thread's local array read back is the value stored only where nothing
// can have changed it in between. Each read of h below could see another
// value, so none is given the stored one, and each index into the 16-int
// bins (read from memory, as a loaded value) is reported as not validated:
// the store was in a branch the path may have skipped; a store since to an
// element that may be the same one (h[c & 3]); a call, whose body the model
// does not see, given the array; an earlier iteration of the loop that
// stores into it.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

__device__ void clobber(int *p);

__global__ void k(const unsigned *in, const int *bins, int *out, int c) {
  int h[4];
  int s = 0;
  if (c) h[0] = in[0] & 15;
  // CHECK: local_store_unknown.cu:[[@LINE+1]]:8: warning: the index of the read of 'bins' is read from memory and not validated
  s += bins[h[0]];
  h[1] = in[1] & 15;
  h[c & 3] = in[2];
  // CHECK: local_store_unknown.cu:[[@LINE+1]]:8: warning: the index of the read of 'bins' is read from memory and not validated
  s += bins[h[1]];
  h[2] = in[3] & 15;
  clobber(h);
  // CHECK: local_store_unknown.cu:[[@LINE+1]]:8: warning: the index of the read of 'bins' is read from memory and not validated
  s += bins[h[2]];
  h[3] = in[4] & 15;
  for (int i = 0; i < c; i++) {
    // CHECK: local_store_unknown.cu:[[@LINE+1]]:10: warning: the index of the read of 'bins' is read from memory and not validated
    s += bins[h[3]];
    h[3] = in[5 + i];
  }
  out[0] = s;
}

int main(int argc, char **argv) {
  if (argc < 2) return 1;
  int c = atoi(argv[1]);
  if (c < 0 || c > 8) return 1;
  unsigned *in;
  int *bins, *out;
  cudaMalloc(&in, 16 * sizeof(unsigned));
  cudaMalloc(&bins, 16 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  k<<<1, 1>>>(in, bins, out, c);
  return 0;
}
// CHECK: gsan scan: 4 findings,
