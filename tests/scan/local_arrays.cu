// SCuBA's KalmanFilter: several local arrays of a template-given size. The
// first loop runs one element too far (i <= rd): in a compiled kernel the
// three arrays share one local frame, so l_RQR[rd] lands in l_T unnoticed at
// run time; here each array is its own allocation.
// RUN: not %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
#include <cstdlib>
#include <cuda_runtime.h>

template <int rd>
__global__ void kalman(const double *RQR, const double *T, double *P, int n) {
  double l_RQR[rd], l_T[rd], l_P[rd];
  int b = blockIdx.x;
  if (b >= n) return;
  for (int i = 0; i <= rd; i++)
    // CHECK: local_arrays.cu:[[@LINE+2]]:5: warning: out-of-bounds write to 'l_RQR' [gsan-scan-oob]
    // CHECK: local_arrays.cu:[[@LINE-5]]:10: note: 'l_RQR' declared here with size 8 * 8 bytes
    l_RQR[i] = RQR[b * rd + i];
  for (int i = 0; i < rd; i++) l_T[i] = T[b * rd + i];
  for (int i = 0; i < rd; i++) l_P[i] = l_RQR[i] + l_T[i];
  for (int i = 0; i < rd; i++) P[b * rd + i] = l_P[i];
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  if (n < 1 || n > 4096) return 1;
  double *RQR, *T, *P;
  cudaMalloc(&RQR, (n * 8 + 1) * sizeof(double));
  cudaMalloc(&T, n * 8 * sizeof(double));
  cudaMalloc(&P, n * 8 * sizeof(double));
  // CHECK: local_arrays.cu:[[@LINE+1]]:3: note: kernel 'kalman' launched here
  kalman<8><<<n, 1>>>(RQR, T, P, n);
  return 0;
}
// CHECK: note: witness: i=8: index 8 >= size 8
// CHECK: gsan scan: 1 finding, 0 unknown in 9 accesses
