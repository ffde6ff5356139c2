#!/usr/bin/env python3
"""Writes a large CUDA file for timing gsan scan (bench/scan_speed.sh): copies of
the patterns the analyzer models (guarded and unguarded element-wise kernels, a
tiled matrix multiply, a 2D copy with a 32-bit index, a stencil, a shared-memory
reduction, a graph kernel with a data-dependent index, dynamic shared memory in
partitions, local arrays, a grid-stride loop, host copies and a free), each
kernel with the host function that allocates its buffers and launches it, all
called from main with sizes read from argv. Block sizes, tiles, array sizes and
input limits vary from copy to copy. Usage: scan_gen.py [-o OUT] [--lines N]"""
import argparse
import sys

PATTERNS = [
    ("elementwise", """
__global__ void scale_{k}(float *a, const float *b, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f * b[i] + a[i];
}}
__global__ void scale_bad_{k}(float *a, const float *b, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = 2.0f * b[i];
}}
static void run_{k}(int n) {{
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  int threads = {threads}, blocks = (n + threads - 1) / threads;
  scale_{k}<<<blocks, threads>>>(a, b, n);
  scale_bad_{k}<<<blocks, threads>>>(a, b, n);
  cudaFree(a);
  cudaFree(b);
}}
"""),
    ("matmul", """
#define TILE_{k} {tile}
__global__ void matmul_{k}(const float *A, const float *B, float *C, int N) {{
  __shared__ float As[TILE_{k}][TILE_{k}];
  __shared__ float Bs[TILE_{k}][TILE_{k}];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_{k} + ty, col = blockIdx.x * TILE_{k} + tx;
  float sum = 0.0f;
  for (int t = 0; t < (N + TILE_{k} - 1) / TILE_{k}; t++) {{
    int ac = t * TILE_{k} + tx, br = t * TILE_{k} + ty;
    As[ty][tx] = (row < N && ac < N) ? A[row * N + ac] : 0.0f;
    Bs[ty][tx] = (br < N && col < N) ? B[br * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE_{k}; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }}
  if (row < N && col < N) C[row * N + col] = sum;
}}
static void run_{k}(int N) {{
  if (N < 1 || N > {limit2d}) return;
  size_t bytes = (size_t)N * N * sizeof(float);
  float *A, *B, *C;
  cudaMalloc(&A, bytes);
  cudaMalloc(&B, bytes);
  cudaMalloc(&C, bytes);
  dim3 block(TILE_{k}, TILE_{k}), grid((N + TILE_{k} - 1) / TILE_{k}, (N + TILE_{k} - 1) / TILE_{k});
  matmul_{k}<<<grid, block>>>(A, B, C, N);
}}
"""),
    ("copy2d", """
__global__ void copy2d_{k}(const float *in, float *out, int w, int h) {{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = in[(size_t)y * w + x];
}}
static void run_{k}(int w, int h) {{
  if (w < 1 || h < 1 || w > {wlimit} || h > {wlimit}) return;
  float *in, *out;
  cudaMalloc(&in, (size_t)w * h * sizeof(float));
  cudaMalloc(&out, (size_t)w * h * sizeof(float));
  dim3 block({bx}, {by}), grid((w + {bx} - 1) / {bx}, (h + {by} - 1) / {by});
  copy2d_{k}<<<grid, block>>>(in, out, w, h);
}}
"""),
    ("stencil", """
__global__ void stencil_{k}(const float *in, float *out, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= 0 || i >= n - 1) return;
  out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}}
__global__ void reduce_{k}(const float *in, float *out, int n) {{
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {{
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }}
  if (t == 0) out[blockIdx.x] = s[0];
}}
static void run_{k}(int n) {{
  if (n < 3 || n > {limit}) return;
  float *in, *out, *part;
  int blocks = (n + 255) / 256;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&part, blocks * sizeof(float));
  stencil_{k}<<<blocks, 256>>>(in, out, n);
  reduce_{k}<<<blocks, 256>>>(out, part, n);
  float *host = (float *)malloc(n * sizeof(float));
  cudaMemcpy(host, out, n * sizeof(float), cudaMemcpyDeviceToHost);
  free(host);
}}
"""),
    ("graph", """
__global__ void push_{k}(const int *nindex, const int *nlist, int *dist, int numv, int nume) {{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= numv) return;
  int beg = nindex[v], end = nindex[v + 1];
  if (beg < 0 || end > nume) return;
  for (int j = beg; j < end; j++) {{
    int u = nlist[j];
    if (u >= 0 && u < numv) atomicMin(&dist[u], dist[v] + 1);
  }}
}}
__global__ void push_bad_{k}(const int *nindex, const int *nlist, int *dist, int numv) {{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < numv)
    for (int j = nindex[v]; j < nindex[v + 1]; j++) atomicMin(&dist[nlist[j]], dist[v] + 1);
}}
static void run_{k}(int numv, int nume) {{
  if (numv < 1 || nume < 1 || numv > {limit} || nume > 8 * {limit}) return;
  int *nindex, *nlist, *dist;
  cudaMalloc(&nindex, (numv + 1) * sizeof(int));
  cudaMalloc(&nlist, nume * sizeof(int));
  cudaMalloc(&dist, numv * sizeof(int));
  push_{k}<<<(numv + {threads} - 1) / {threads}, {threads}>>>(nindex, nlist, dist, numv, nume);
  push_bad_{k}<<<(numv + {threads} - 1) / {threads}, {threads}>>>(nindex, nlist, dist, numv);
}}
"""),
    ("partitions", """
__global__ void filter_{k}(const float *zi, float *out, int sections, int width) {{
  extern __shared__ float smem[];
  float *s_out = smem;
  float *s_zi = s_out + sections;
  float *s_coef = s_zi + sections * width;
  int tx = threadIdx.x;
  for (int i = 0; i < width; i++) s_zi[tx * width + i] = zi[tx * width + i];
  for (int c = 0; c < {coef}; c++) s_coef[tx * {coef} + c] = 0.5f;
  __syncthreads();
  float acc = 0.0f;
  for (int i = 0; i < width; i++) acc += s_zi[tx * width + i] * s_coef[tx * {coef} + i % {coef}];
  s_out[tx] = acc;
  out[tx] = s_out[tx];
}}
static void run_{k}(int sections, int width) {{
  if (sections < 1 || sections > 64 || width < 1 || width > 16) return;
  float *zi, *out;
  cudaMalloc(&zi, sections * width * sizeof(float));
  cudaMalloc(&out, sections * sizeof(float));
  size_t shm = (sections + sections * width + sections * {coef}) * sizeof(float);
  filter_{k}<<<1, sections, shm>>>(zi, out, sections, width);
}}
"""),
    ("local", """
template <int R>
__global__ void kalman_{k}(const double *in, double *out, int n) {{
  double a[R], b[R], c[R];
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= n) return;
  for (int i = 0; i < R; i++) a[i] = in[e * R + i];
  for (int i = 0; i < R; i++) b[i] = 2.0 * a[i];
  for (int i = 0; i < R; i++) c[i] = a[i] + b[R - 1 - i];
  for (int i = 0; i < R; i++) out[e * R + i] = c[i];
}}
__global__ void stride_{k}(float *a, int n) {{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] *= 0.5f;
}}
static void run_{k}(int n) {{
  if (n < 1 || n > {limit}) return;
  double *in, *out;
  float *f;
  cudaMalloc(&in, n * {r} * sizeof(double));
  cudaMalloc(&out, n * {r} * sizeof(double));
  cudaMalloc(&f, n * sizeof(float));
  kalman_{k}<{r}><<<(n + 63) / 64, 64>>>(in, out, n);
  stride_{k}<<<{grid}, {threads}>>>(f, n);
  cudaFree(f);
}}
"""),
]

ARGS = {"elementwise": "n", "matmul": "n % 4096 + 1", "copy2d": "w, h", "stencil": "n", "graph": "n, m",
        "partitions": "n % 64 + 1, m % 16 + 1", "local": "n"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--lines", type=int, default=5000)
    a = ap.parse_args()
    body, calls, k = [], [], 0
    lines = 0
    while lines < a.lines - 20:
        name, text = PATTERNS[k % len(PATTERNS)]
        # constants vary from copy to copy, as they do between real kernels
        v = k // len(PATTERNS)
        chunk = text.format(k=k, threads=(64, 128, 256, 512)[v % 4], tile=(8, 16, 32)[v % 3],
                            limit=(1 << 20) + 4096 * (v % 5), limit2d=(1024, 2048, 4096)[v % 3],
                            wlimit=(16384, 32768, 65536)[v % 3], bx=(16, 32)[v % 2], by=(16, 8)[v % 2],
                            coef=4 + v % 4, r=4 + v % 5, grid=(32, 64, 128)[v % 3])
        body.append(chunk)
        calls.append("  run_{k}({args});".format(k=k, args=ARGS[name]))
        lines += chunk.count("\n") + 1
        k += 1
    out = ["// Generated by bench/scan_gen.py: %d pattern instances for timing gsan scan." % k,
           "#include <cstdlib>", "#include <cuda_runtime.h>"]
    out += body
    out += ["int main(int argc, char **argv) {",
            "  if (argc < 5) return 1;",
            "  int n = atoi(argv[1]), m = atoi(argv[2]), w = atoi(argv[3]), h = atoi(argv[4]);"]
    out += calls
    out += ["  return 0;", "}"]
    text = "\n".join(out) + "\n"
    (sys.stdout if a.output == "-" else open(a.output, "w")).write(text)


if __name__ == "__main__":
    main()
