// Correct: loops of every shape gsan checks before they run, each reaching
// exactly the last element of its allocation — a row sum, a grid-stride loop
// whose length is no multiple of the grid, a loop counting down to element 0,
// a loop unrolled by four with a remainder, a loop through pointers loaded
// from memory — and a search whose full trip would leave the array but which
// always stops early (its pre-check fails; the checked loop finds nothing
// wrong). Every result is compared with the host's.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %gsan run -- %t > %t.out 2>&1
// RUN: %FileCheck %s --implicit-check-not=GPUSanitizer --implicit-check-not=gsan: < %t.out
// CHECK: row_sum ok
// CHECK: grid_stride ok
// CHECK: down ok
// CHECK: by4 ok
// CHECK: chase ok
// CHECK: tile_sum ok
// CHECK: find ok
#include <cstdio>
#include <vector>
__global__ void row_sum(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
#pragma unroll 1
  for (int k = 0; k < cols; k++) s += a[(size_t)r * cols + k];
  out[r] = s;
}
__global__ void grid_stride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] *= 2.0f;
}
__global__ void down(const int *a, int *out, int n) {
  int s = 0;
#pragma unroll 1
  for (int k = n - 1; k >= 0; k--) s += a[k];
  out[threadIdx.x] = s;
}
__global__ void by4(const int *a, int *out, int n) {
  int s = 0;
#pragma unroll 4
  for (int k = 0; k < n; k++) s += a[k];
  out[threadIdx.x] = s;
}
__global__ void chase(int *const *p, int n, int *out) {
  int s = 0;
#pragma unroll 1
  for (int k = 0; k < n; k++) s += *p[k];
  out[0] = s;
}
__global__ void tile_sum(const float *a, float *out, int tiles) {
  __shared__ float t[128];
  float s = 0;
  for (int k = 0; k < tiles; k++) {
    t[threadIdx.x] = a[k * 128 + threadIdx.x];
    __syncthreads();
    s += t[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  out[threadIdx.x] = s;
}
__global__ void find(const int *a, int limit, int key, int *out) {
#pragma unroll 1
  for (int k = 0; k < limit; k++)
    if (a[k] == key) { out[threadIdx.x] = k; return; }
}
static int fails;
static void expect(const char *what, bool ok) {
  printf("%s %s\n", what, ok ? "ok" : "WRONG");
  fails += !ok;
}
int main() {
  const int rows = 96, cols = 300, n = 1001, cells = 40;
  std::vector<float> ha((size_t)rows * cols);
  for (size_t i = 0; i < ha.size(); i++) ha[i] = (float)(i % 7);
  float *a, *out;
  cudaMalloc(&a, ha.size() * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  cudaMemcpy(a, ha.data(), ha.size() * sizeof(float), cudaMemcpyHostToDevice);
  row_sum<<<3, 32>>>(a, out, rows, cols);
  std::vector<float> hout(rows);
  cudaMemcpy(hout.data(), out, rows * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int r = 0; r < rows; r++) {
    float s = 0;
    for (int k = 0; k < cols; k++) s += ha[(size_t)r * cols + k];
    ok = ok && s == hout[r];
  }
  expect("row_sum", ok);

  grid_stride<<<7, 64>>>(a, rows * cols);  // 448 threads over 28800 elements
  std::vector<float> hb(ha.size());
  cudaMemcpy(hb.data(), a, hb.size() * sizeof(float), cudaMemcpyDeviceToHost);
  ok = true;
  for (size_t i = 0; i < hb.size(); i++) ok = ok && hb[i] == 2.0f * ha[i];
  expect("grid_stride", ok);

  std::vector<int> hi(n);
  int want = 0;
  for (int i = 0; i < n; i++) want += hi[i] = i * 3 - 500;
  int *ia, *iout;
  cudaMalloc(&ia, n * sizeof(int));
  cudaMalloc(&iout, 32 * sizeof(int));
  cudaMemcpy(ia, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int got[32];
  down<<<1, 32>>>(ia, iout, n);
  cudaMemcpy(got, iout, sizeof got, cudaMemcpyDeviceToHost);
  expect("down", got[0] == want && got[31] == want);
  by4<<<1, 32>>>(ia, iout, n);
  cudaMemcpy(got, iout, sizeof got, cudaMemcpyDeviceToHost);
  expect("by4", got[0] == want && got[31] == want);

  std::vector<int *> hp(cells);
  int *cell, **p;
  cudaMalloc(&cell, cells * sizeof(int));
  cudaMalloc(&p, cells * sizeof(int *));
  std::vector<int> hc(cells);
  for (int i = 0; i < cells; i++) hc[i] = i + 1, hp[i] = cell + (cells - 1 - i);
  cudaMemcpy(cell, hc.data(), cells * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(p, hp.data(), cells * sizeof(int *), cudaMemcpyHostToDevice);
  chase<<<1, 1>>>(p, cells, iout);
  cudaMemcpy(got, iout, sizeof(int), cudaMemcpyDeviceToHost);
  expect("chase", got[0] == cells * (cells + 1) / 2);

  // 225 tiles of 128 floats: exactly the 28800 of the grid-stride array
  float *tout;
  cudaMalloc(&tout, 128 * sizeof(float));
  tile_sum<<<1, 128>>>(a, tout, rows * cols / 128);
  std::vector<float> ht(128);
  cudaMemcpy(ht.data(), tout, 128 * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(tout);
  ok = true;
  for (int x = 0; x < 128; x++) {
    float s = 0;
    for (int k = 0; k < rows * cols / 128; k++) s += hb[k * 128 + (x + 1) % 128];
    ok = ok && s == ht[x];
  }
  expect("tile_sum", ok);

  // the key is at index 700 of 1001; a limit of 5000 would read past the end
  find<<<1, 32>>>(ia, 5000, hi[700], iout);
  cudaMemcpy(got, iout, sizeof got, cudaMemcpyDeviceToHost);
  expect("find", got[0] == 700 && got[31] == 700);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  cudaFree(a);
  cudaFree(out);
  cudaFree(ia);
  cudaFree(iout);
  cudaFree(cell);
  cudaFree(p);
  return fails || e != cudaSuccess;
}
