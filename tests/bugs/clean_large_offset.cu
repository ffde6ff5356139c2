// Correct: the last element of a 3 GiB allocation, reached with a 64-bit offset.
// EXIT: 0
// CHECK: last = 7
// CHECK-NOT: GPUSanitizer
#include <cstdio>
__global__ void touch_last(char *a, size_t n) { a[n - 1] = 7; }
int main() {
  size_t n = 3ull << 30;
  char *a, last = 0;
  if (cudaMalloc(&a, n) != cudaSuccess) return 2;
  touch_last<<<1, 1>>>(a, n);
  cudaMemcpy(&last, a + n - 1, 1, cudaMemcpyDeviceToHost);
  printf("last = %d\n", last);
  cudaFree(a);
  return 0;
}
