// A file with errors (a third-party header that is not there, as GDAL's,
// MPI's or Boost's often are where gsan scan runs) is analysed in part: a
// function whose errors are all in its body's statements is analysed with
// those statements skipped (partial_main.cu); one with an error in its
// declaration, or that uses a declaration with one, is not analysed; each is a
// remark saying why; the others are analysed as usual, with their findings.
// The errors are printed as the compiler's, a line says the file was analysed
// in part, and the exit status is 2 (the run was not a clean one), as for a
// file that does not parse at all. With no function left, the file is not
// analysed (parse_error.cu).
// RUN: %python %tools/exit_status.py 2 %gsan-scan %s
// RUN: not %gsan-scan %s > %t.out 2> %t.err
// RUN: %FileCheck --check-prefix=ERR %s < %t.err
// RUN: %FileCheck %s < %t.out
// ERR: partial_parse.cu:[[@LINE+3]]:10: error: 'thirdparty/raster.h' file not found
// ERR: gsan scan: {{.*}}partial_parse.cu: analysed in part: {{[0-9]+}} errors; of the 7 functions defined in it and its headers, 2 are analysed in part (errors in their statements) and 2 not at all
#include <cuda_runtime.h>
#include "thirdparty/raster.h"

struct Tile {
  float *data;
  Raster *source; // a type of the missing header: the struct has an error
};

// an intact kernel: its missing guard is found
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: partial_parse.cu:[[@LINE+1]]:3: warning: out-of-bounds write to 'a' [gsan-scan-oob]
  a[i] *= 2.0f;
}

// its twin, guarded: intact, and no finding
__global__ void scale_guarded(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}

// a function that uses the struct with an error: not analysed
// CHECK: partial_parse.cu:[[@LINE+1]]:18: remark: 'first' is not analysed: it uses 'Tile' (line 20), whose declaration has an error [gsan-scan-unknown]
__device__ float first(const Tile &t) { return t.data[0]; }

// a method of a class with an error, that names none of it: not analysed
struct Reader {
  Raster *r;
  int *rows;
  // CHECK: partial_parse.cu:[[@LINE+1]]:18: remark: 'row' is not analysed: it uses 'Reader' (line [[@LINE-3]]), whose declaration has an error [gsan-scan-unknown]
  __device__ int row(int i) { return rows[i]; }
};

// a kernel that names the library in a statement: analysed in part
// CHECK: partial_parse.cu:[[@LINE+1]]:17: remark: 'from_raster' is analysed in part: its code has an error at line [[@LINE+2]] (use of undeclared identifier 'raster_pixel'); its statements with errors are skipped, and an access after one is proved in bounds or left unknown, never reported [gsan-scan-unknown]
__global__ void from_raster(float *a, int n) {
  a[threadIdx.x] = raster_pixel(threadIdx.x);
}

// the host code that launches the intact kernels, itself intact
void run(int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  scale_guarded<<<(n + 255) / 256, 256>>>(d, n);
  cudaFree(d);
}

// main reads its size through the library: both its statements are skipped,
// so only code with errors calls run, whose n is an input of its own
// CHECK: partial_parse.cu:[[@LINE+1]]:5: remark: 'main' is analysed in part: its code has an error at line [[@LINE+2]] (unknown type name 'Raster'); its statements with errors are skipped, and an access after one is proved in bounds or left unknown, never reported [gsan-scan-unknown]
int main(int argc, char **argv) {
  Raster *r = raster_open(argv[1]);
  run(raster_width(r));
  return 0;
}
// CHECK-NOT: warning:
// CHECK: gsan scan: 1 finding, {{[0-9]+}} unknown in {{[0-9]+}} accesses
