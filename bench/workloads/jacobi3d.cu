// 7-point 3D Jacobi sweeps (explicit heat step, fixed Dirichlet boundary) on a
// 1024 x 512 x 512 float grid, ping-ponging between two buffers. Each thread
// marches along z through a chunk of 64 planes, keeping the planes below and
// above in registers, and loads its x and y neighbours from global memory:
// for a bounds checker, loads at offsets of one element, one row (4 KiB) and
// one plane (2 MiB) from the same root pointer, in a loop whose index climbs
// by a plane per trip, so the checked address moves far from where the thread
// started.
#include <cmath>
#include "bench.h"

#define ZCHUNK 64

__global__ void jacobi3d(float *out, const float *in, int nx, int ny, int nz, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z0 = max(1, (int)blockIdx.z * ZCHUNK), z1 = min(nz - 1, ((int)blockIdx.z + 1) * ZCHUNK);
  if (x < 1 || x >= nx - 1 || y < 1 || y >= ny - 1 || z0 >= z1) return;
  size_t plane = (size_t)nx * ny;
  size_t i = (size_t)z0 * plane + (size_t)y * nx + x;
  float below = in[i - plane], cur = in[i];
  for (int z = z0; z < z1; z++, i += plane) {
    float above = in[i + plane];
    out[i] = c0 * cur + c1 * (((in[i - 1] + in[i + 1]) + (in[i - nx] + in[i + nx])) + (below + above));
    below = cur;
    cur = above;
  }
}

// CPU reference: the box [o, o+b) (per dimension) after k sweeps from init,
// computed on the box's dependency cone only (the box grown by k, clipped to
// the grid, shrinking by one cell per sweep).
static void reference_box(const std::vector<float> &init, const int n[3], int k, const int o[3], int b,
                          float c0, float c1, std::vector<float> &res) {
  int e0[3], e1[3], l[3];
  for (int d = 0; d < 3; d++) {
    e0[d] = std::max(0, o[d] - k);
    e1[d] = std::min(n[d], o[d] + b + k);
    l[d] = e1[d] - e0[d];
  }
  const size_t lx = l[0], lp = (size_t)l[0] * l[1];
  std::vector<float> a(lp * l[2]);
  bench_copy_box3d(init.data(), n[0], (size_t)n[0] * n[1], e0[0], e0[1], e0[2], l[0], l[1], l[2], a.data());
  std::vector<float> bb = a;
  for (int s = 1; s <= k; s++) {
    int r = k - s, u0[3], u1[3];
    for (int d = 0; d < 3; d++) {
      u0[d] = std::max(1, o[d] - r);
      u1[d] = std::min(n[d] - 1, o[d] + b + r);
    }
    for (int z = u0[2]; z < u1[2]; z++)
      for (int y = u0[1]; y < u1[1]; y++)
        for (int x = u0[0]; x < u1[0]; x++) {
          size_t i = (z - e0[2]) * lp + (y - e0[1]) * lx + (x - e0[0]);
          bb[i] = c0 * a[i] + c1 * (((a[i - 1] + a[i + 1]) + (a[i - lx] + a[i + lx])) + (a[i - lp] + a[i + lp]));
        }
    std::swap(a, bb);
  }
  res.resize((size_t)b * b * b);
  bench_copy_box3d(a.data(), lx, lp, o[0] - e0[0], o[1] - e0[1], o[2] - e0[2], b, b, b, res.data());
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int nx = 1024, ny = 512, nz = 512;  // 1 GiB per buffer, three buffers: 3 GiB
  const size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);
  const int iters = 80;  // ~2.2 GB moved per sweep: ~0.95 ms apiece, ~77 ms per repetition with the
                         // 1 GiB reset copy (measured on an H100)
  static_assert(iters % 2 == 0, "an even number of sweeps leaves the result in cur");
  const float c0 = 0.4f, c1 = 0.1f;

  // Interior noise in [1, 2); boundary faces 1 + a ramp along z, the z = 0 face 3.
  std::vector<float> init(n);
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        size_t i = ((size_t)z * ny + y) * nx + x;
        float v = 1.0f + bench_unit_hash((uint32_t)i);
        if (z == 0) v = 3.0f;
        else if (z == nz - 1 || y == 0 || y == ny - 1 || x == 0 || x == nx - 1)
          v = 1.0f + (float)z / (float)nz;
        init[i] = v;
      }

  // Both buffers (cur and nxt start as copies of pristine) carry the boundary,
  // which the sweeps never write.
  float *pristine, *cur, *nxt;
  bench_alloc_pingpong(init.data(), bytes, &pristine, &cur, &nxt);

  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8, (nz + ZCHUNK - 1) / ZCHUNK);  // 16384 blocks
  bench_kernel("jacobi3d", (const void *)jacobi3d, block.x * block.y, 0);
  double ms = bench_time(a, [&] {
    BENCH_CHECK(cudaMemcpy(cur, pristine, bytes, cudaMemcpyDeviceToDevice));
    float *src = cur, *dst = nxt;
    for (int it = 0; it < iters; it++) {
      jacobi3d<<<grid, block>>>(dst, src, nx, ny, nz, c0, c1);
      std::swap(src, dst);
    }
  });

  std::vector<float> h(n);
  BENCH_CHECK(cudaMemcpy(h.data(), cur, bytes, cudaMemcpyDeviceToHost));
  // Sampled check: three 16^3 boxes (two opposite corners and the middle), 12288 values.
  bool valid = true;
  const int bs = 16, dims[3] = {nx, ny, nz};
  const int boxes[3][3] = {{0, 0, 0}, {nx / 2 + 5, ny / 2 - 9, nz / 2 + 1}, {nx - bs, ny - bs, nz - bs}};
  std::vector<float> ref;
  for (const auto &bx : boxes) {
    reference_box(init, dims, iters, bx, bs, c0, c1, ref);
    for (int z = 0; z < bs; z++)
      for (int y = 0; y < bs; y++)
        for (int x = 0; x < bs; x++) {
          float c = ref[((size_t)z * bs + y) * bs + x];
          float g = h[((size_t)(bx[2] + z) * ny + (bx[1] + y)) * nx + (bx[0] + x)];
          if (!(std::fabs(g - c) <= 1e-4f * std::fabs(c))) valid = false;
        }
  }
  bench_report("jacobi3d", ms, a, bench_hash(h.data(), bytes), valid);
  cudaFree(pristine); cudaFree(cur); cudaFree(nxt);
  return valid ? 0 : 1;
}
