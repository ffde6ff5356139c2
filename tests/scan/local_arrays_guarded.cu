// The guarded twin of local_arrays.cu: every loop stops at rd.
// RUN: %gsan-scan %s | %FileCheck %s
// CHECK-NOT: warning
// CHECK: gsan scan: 0 findings, 0 unknown in 9 accesses
#include <cstdlib>
#include <cuda_runtime.h>

template <int rd>
__global__ void kalman(const double *RQR, const double *T, double *P, int n) {
  double l_RQR[rd], l_T[rd], l_P[rd];
  int b = blockIdx.x;
  if (b >= n) return;
  for (int i = 0; i < rd; i++) l_RQR[i] = RQR[b * rd + i];
  for (int i = 0; i < rd; i++) l_T[i] = T[b * rd + i];
  for (int i = 0; i < rd; i++) l_P[i] = l_RQR[i] + l_T[i];
  for (int i = 0; i < rd; i++) P[b * rd + i] = l_P[i];
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > 4096) return 1;
  double *RQR, *T, *P;
  cudaMalloc(&RQR, n * 8 * sizeof(double));
  cudaMalloc(&T, n * 8 * sizeof(double));
  cudaMalloc(&P, n * 8 * sizeof(double));
  kalman<8><<<n, 1>>>(RQR, T, P, n);
  return 0;
}
