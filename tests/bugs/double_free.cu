// cudaFree twice: reported on the host, and the driver's error returned.
// EXIT: 1
// CHECK: ERROR: GPUSanitizer: double-free on address
// CHECK: second free: invalid argument
#include <cstdio>
int main() {
  float *a;
  cudaMalloc(&a, 4096);
  cudaFree(a);
  cudaError_t e = cudaFree(a);  // bug
  printf("second free: %s\n", cudaGetErrorString(e));
  return 0;
}
