// Stress: recover mode with 1,048,576 distinct bad addresses: every thread
// writes its own element past the end of one buffer and reads its own
// element before the start of another. Each site is reported once with the
// count of its hits; the kernel finishes and no bad write lands (the buffer
// after them is untouched).
// REQUIRES: gpu
// RUN: env GSAN_PTX_OPTIONS=--recover %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 120 env GSAN_OPTIONS=halt_on_error=0 %gsan run -- %t
// RUN: %FileCheck %s < %t.out
// CHECK-DAG: WRITE of size 4
// CHECK-DAG: READ of size 4
// CHECK: kernel: no error; sum of the skipped reads 0; guard buffer intact: yes
// CHECK-DAG: global-buffer-overflow at {{.*}}recover_million_addresses.cu:24 in {{.*}}: hit 1048576 times, reported once
// CHECK-DAG: global-buffer-overflow at {{.*}}recover_million_addresses.cu:25 in {{.*}}: hit 1048576 times, reported once
// CHECK-NOT: not recorded
#include <cstdio>
#include <vector>

const int N = 1000, T = 4096 * 256;

__global__ void spray(int *a, const int *b, int *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  a[N + i] = i;          // BUG: 4 MiB of distinct addresses past a's end
  s += b[-1 - i];        // BUG: and before b's start
  atomicAdd(sum, s);     // a skipped read gives 0
}

int main() {
  int *a, *b, *sum, *guard;
  cudaMalloc(&a, N * sizeof(int));
  cudaMalloc(&guard, T * sizeof(int));  // may lie right after a: must stay 0
  cudaMalloc(&b, N * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMemset(guard, 0, T * sizeof(int));
  cudaMemset(sum, 0, sizeof(int));
  spray<<<4096, 256>>>(a, b, sum);
  cudaError_t e = cudaDeviceSynchronize();
  int h = -1;
  cudaMemcpy(&h, sum, sizeof h, cudaMemcpyDeviceToHost);
  std::vector<int> g(T, 1);
  cudaMemcpy(g.data(), guard, T * sizeof(int), cudaMemcpyDeviceToHost);
  bool intact = true;
  for (int v : g) intact &= v == 0;
  printf("kernel: %s; sum of the skipped reads %d; guard buffer intact: %s\n", cudaGetErrorString(e), h,
         intact ? "yes" : "no");
  cudaFree(a);
  cudaFree(b);
  cudaFree(guard);
  cudaFree(sum);
  return 0;
}
