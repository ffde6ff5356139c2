// A 5-point stencil whose first row reads the row above it, before the
// array (a public application's bug: its report once said "ACCESS of size
// 0 ... #0 ? at PTX line 0"). Its five reads are one range check
// (docs/ptx.md, "Check elimination": neighbouring), in the launch-bounds
// copy that runs once the launch's proof fails, or in the only copy of a
// build without launch copies (each thread looks its bounds up). Every way,
// the report names the read that left the array: kernel, READ and size, the
// first faulting thread (the lowest failing lane of the one warp: x = 0
// returns early) and its block, the source
// line, the allocation and its stack. tests/nvcc/report_paths.test checks
// that the build takes those paths.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: not %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s < %t.out
// RUN: not %gsan run --opt launch_proofs=0 -- %t > %t.noproof 2>&1
// RUN: %FileCheck %s < %t.noproof
// RUN: env GSAN_PTX_OPTIONS="--no-launch-bounds --no-launch-proofs" %gsan nvcc -g -arch=%arch -o %t.plain %s -lcuda
// RUN: not %gsan run -- %t.plain > %t.plain.out 2>&1
// RUN: %FileCheck %s < %t.plain.out
// RUN: not %gsan run --opt log_format=json -- %t > %t.json 2>&1
// RUN: %python -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')][0]; print(r['kind'], r['access'], r['size'], r['thread'], r['block'], r['function'], r['file'].split('/')[-1], r['line'], r['region']['size'], int(r['region']['base'], 16) - int(r['address'], 16), [f for f in r['allocated_by'] if f.startswith('main ')][0])" %t.json | %FileCheck --check-prefix=JSON %s
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address [[A:0x[0-9a-f]+]]
// CHECK-NEXT: READ of size 4 at [[A]] by thread (1,0,0) block (0,0,0)
// CHECK-NEXT: #0 blur(float*, float const*) at {{.*}}stencil_row_above.cu:[[LINE:[0-9]+]]
// CHECK-NEXT: [[A]] is located 124 bytes before 8192-byte region [0x{{[0-9a-f]+}},0x{{[0-9a-f]+}})
// CHECK-NEXT: allocated by host thread T0 here:
// CHECK: main {{.*}}stencil_row_above.cu:43
// CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}stencil_row_above.cu:[[LINE]] in blur(float*, float const*)
// CHECK-NOT: ACCESS of size 0
// JSON: global-buffer-overflow READ 4 [1, 0, 0] [0, 0, 0] blur(float*, float const*) stencil_row_above.cu 39 8192 124 main {{.*}}stencil_row_above.cu:43
#include <cstdio>
constexpr int W = 32, H = 64;  // a row: one warp, 30 interior points and two borders
__global__ void blur(float *out, const float *in) {
  int x = threadIdx.x;
  int y = blockIdx.x;
  if (x < 1 || x >= W - 1 || y >= H - 1) return;
  const float *p = in + y * W + x;
  out[y * W + x] = p[-W] + p[-1] + p[0] + p[1] + p[W];  // BUG: row 0 reads row -1
}
int main() {
  float *in, *out;
  cudaMalloc(&in, W * H * sizeof(float));
  cudaMalloc(&out, W * H * sizeof(float));
  cudaMemset(in, 0, W * H * sizeof(float));
  blur<<<H, W>>>(out, in);
  printf("kernel: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
