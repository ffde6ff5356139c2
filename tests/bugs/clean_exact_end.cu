// Correct: touches exactly the last element, and keeps a one-past-the-end
// pointer without dereferencing it. No report.
// EXIT: 0
// CHECK: sum = 1000
// CHECK-NOT: GPUSanitizer
#include <cstdio>
__global__ void sum(const int *begin, const int *end, int *out) {
  int s = 0;
  for (const int *p = begin; p != end; ++p) s += *p;
  *out = s;
}
int main() {
  int *a, *out, h[1000], r = 0;
  for (int i = 0; i < 1000; i++) h[i] = 1;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<1, 1>>>(a, a + 1000, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("sum = %d\n", r);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
