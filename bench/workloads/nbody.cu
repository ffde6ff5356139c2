// All-pairs gravitational n-body (GPU Gems 3, ch. 31): each step every body
// sums the softened pull of all n bodies, read a block-sized tile at a time
// into shared memory (float4: x, y, z, mass), then updates its velocity and
// position into the other half of a double buffer. Almost every access is a
// broadcast float4 load from shared memory inside an arithmetic-heavy loop, a
// few coalesced global loads per tile: it measures checks on shared-memory
// loads in a compute-bound loop. n is not a multiple of the block, so the last
// tile is partial and the idle threads of the last block only load and sync.
#include <cmath>
#include "bench.h"

constexpr int BLOCK = 256;

__device__ __forceinline__ void interact(float4 p, float4 q, float eps2, float &ax, float &ay,
                                         float &az) {
  float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
  float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
  float inv = rsqrtf(r2);
  float s = q.w * (inv * inv * inv);
  ax = fmaf(dx, s, ax);
  ay = fmaf(dy, s, ay);
  az = fmaf(dz, s, az);
}

__global__ void __launch_bounds__(BLOCK)
nbody_step(int n, float dt, float eps2, const float4 *__restrict__ pos_in,
           const float4 *__restrict__ vel_in, float4 *__restrict__ pos_out,
           float4 *__restrict__ vel_out) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  float4 p = i < n ? pos_in[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += BLOCK) {
    int j = base + threadIdx.x;
    if (j < n) tile[threadIdx.x] = pos_in[j];
    __syncthreads();
    int cnt = min(BLOCK, n - base);
    if (cnt == BLOCK) {
#pragma unroll 16
      for (int k = 0; k < BLOCK; k++) interact(p, tile[k], eps2, ax, ay, az);
    } else {
      for (int k = 0; k < cnt; k++) interact(p, tile[k], eps2, ax, ay, az);
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel_in[i];
    v.x = fmaf(ax, dt, v.x); v.y = fmaf(ay, dt, v.y); v.z = fmaf(az, dt, v.z);
    p.x = fmaf(v.x, dt, p.x); p.y = fmaf(v.y, dt, p.y); p.z = fmaf(v.z, dt, p.z);
    pos_out[i] = p;
    vel_out[i] = v;
  }
}

// A value in [0, 1) from an index (exact arithmetic).
static inline float hval(uint32_t i, uint32_t seed) {
  uint32_t h = i * 0x9E3779B1u ^ seed;
  h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
  return (float)(h >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  const int n = 200000;  // 782 blocks of 256, the last one partial; 3 MiB per array
  const int iters = 3;   // 4e10 interactions per step: ~25 ms apiece at ~1.6e12/s, ~75 ms per repetition
  const float dt = 1e-3f, eps2 = 1e-2f;
  std::vector<float4> hp(n), hv(n);
  for (int i = 0; i < n; i++) {
    hp[i] = make_float4(2.0f * hval(i, 1) - 1.0f, 2.0f * hval(i, 2) - 1.0f, 2.0f * hval(i, 3) - 1.0f,
                        (0.5f + hval(i, 4)) / n);
    hv[i] = make_float4(0.2f * hval(i, 5) - 0.1f, 0.2f * hval(i, 6) - 0.1f, 0.2f * hval(i, 7) - 0.1f, 0.0f);
  }
  size_t bytes = (size_t)n * sizeof(float4);
  float4 *pos0, *vel0, *pos[2], *vel[2];  // pristine state, then the double buffer
  BENCH_CHECK(cudaMalloc(&pos0, bytes));
  BENCH_CHECK(cudaMalloc(&vel0, bytes));
  for (int b = 0; b < 2; b++) {
    BENCH_CHECK(cudaMalloc(&pos[b], bytes));
    BENCH_CHECK(cudaMalloc(&vel[b], bytes));
  }
  BENCH_CHECK(cudaMemcpy(pos0, hp.data(), bytes, cudaMemcpyHostToDevice));
  BENCH_CHECK(cudaMemcpy(vel0, hv.data(), bytes, cudaMemcpyHostToDevice));
  int grid = (n + BLOCK - 1) / BLOCK;
  bench_kernel("nbody_step", (const void *)nbody_step, BLOCK, 0);
  double ms = bench_time(a, [&] {
    BENCH_CHECK(cudaMemcpy(pos[0], pos0, bytes, cudaMemcpyDeviceToDevice));
    BENCH_CHECK(cudaMemcpy(vel[0], vel0, bytes, cudaMemcpyDeviceToDevice));
    for (int it = 0; it < iters; it++)
      nbody_step<<<grid, BLOCK>>>(n, dt, eps2, pos[it % 2], vel[it % 2], pos[(it + 1) % 2],
                                  vel[(it + 1) % 2]);
  });
  // the last step's input (GPU state after iters - 1 steps) and its output
  std::vector<float4> pp(n), pv(n), fp(n), fv(n);
  BENCH_CHECK(cudaMemcpy(pp.data(), pos[(iters - 1) % 2], bytes, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(pv.data(), vel[(iters - 1) % 2], bytes, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(fp.data(), pos[iters % 2], bytes, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(fv.data(), vel[iters % 2], bytes, cudaMemcpyDeviceToHost));
  // The last step redone in double for 1024 sampled bodies and the last 64 (the
  // partial block). A velocity may differ from the reference by 1e-4 of
  // dt * sum_j |a_ij| (the increment's scale) plus a few ulps of itself, a
  // position by dt times that plus a few ulps of itself.
  bool valid = true;
  uint64_t s = 88172645463325252ull;
  for (int t = 0; t < 1024 + 64; t++) {
    int i;
    if (t < 1024) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; i = (int)(s % n); }
    else i = n - 1088 + t;
    double P[3] = {pp[i].x, pp[i].y, pp[i].z}, acc[3] = {0, 0, 0}, mag[3] = {0, 0, 0};
    for (int j = 0; j < n; j++) {
      double d[3] = {pp[j].x - P[0], pp[j].y - P[1], pp[j].z - P[2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
      double sc = pp[j].w / (r2 * sqrt(r2));
      for (int c = 0; c < 3; c++) { acc[c] += d[c] * sc; mag[c] += fabs(d[c] * sc); }
    }
    double V[3] = {pv[i].x, pv[i].y, pv[i].z};
    double gv[3] = {fv[i].x, fv[i].y, fv[i].z}, gp[3] = {fp[i].x, fp[i].y, fp[i].z};
    for (int c = 0; c < 3; c++) {
      double v = V[c] + acc[c] * dt, p = P[c] + v * dt;
      double tv = 1e-4 * dt * mag[c] + 1e-6 * fabs(v), tp = dt * tv + 1e-6 * fabs(p);
      if (fabs(gv[c] - v) > tv || fabs(gp[c] - p) > tp) {
        if (valid) fprintf(stderr, "nbody: body %d axis %d: v %.9g p %.9g, expected %.9g %.9g\n",
                           i, c, gv[c], gp[c], v, p);
        valid = false;
      }
    }
    if (fp[i].w != hp[i].w) valid = false;
  }
  uint64_t sum = bench_hash(fv.data(), bytes, bench_hash(fp.data(), bytes));
  bench_report("nbody", ms, a, sum, valid);
  cudaFree(pos0); cudaFree(vel0);
  for (int b = 0; b < 2; b++) { cudaFree(pos[b]); cudaFree(vel[b]); }
  return valid ? 0 : 1;
}
