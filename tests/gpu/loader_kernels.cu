// Kernels for the instrumenter's GPU check (tests/gpu/ptx_loader.cu): correct
// kernels whose results must not change under instrumentation, and planted
// bugs that must reach the failure stub.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// planted: i <= n reads and writes one element past the end
extern "C" __global__ void vec_add_oob(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = a[i] + b[i];
}

extern "C" __global__ void stencil_shared(const float *in, float *out, int n) {
  __shared__ float tile[256 + 2];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 1;
  tile[l] = g < n ? in[g] : 0.f;
  if (threadIdx.x == 0) tile[0] = g > 0 ? in[g - 1] : 0.f;
  if (threadIdx.x == blockDim.x - 1) tile[l + 1] = g + 1 < n ? in[g + 1] : 0.f;
  __syncthreads();
  if (g < n) out[g] = 0.25f * tile[l - 1] + 0.5f * tile[l] + 0.25f * tile[l + 1];
}

// planted: A[64 + k] lands in B, which compute-sanitizer cannot see
extern "C" __global__ void shared_overflow(float *out, int k) {
  __shared__ float A[64];
  __shared__ float B[64];
  int t = threadIdx.x;
  A[t] = t;
  B[t] = -t;
  __syncthreads();
  if (t == 0) A[64 + k] = 42.f;
  __syncthreads();
  out[t] = A[t] + B[t];
}

// dynamic shared memory carved into two arrays
extern "C" __global__ void dyn_split(const float *in, float *out, int n) {
  extern __shared__ float dyn[];
  float *vals = dyn;
  int *idx = (int *)&dyn[blockDim.x];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  vals[threadIdx.x] = g < n ? in[g] : 0.f;
  idx[threadIdx.x] = blockDim.x - 1 - threadIdx.x;
  __syncthreads();
  if (g < n) out[g] = vals[idx[threadIdx.x]];
}

// pointers loaded from device memory: the root is the load
extern "C" __global__ void ptr_chase(float *const *ptrs, int m, int len, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *p = ptrs[i % m];
    out[i] = p[i % len] + p[(i + 1) % len];
  }
}

// a local array indexed at run time stays in local memory
extern "C" __global__ void local_hist(const int *in, int *out, int n, int extra) {
  int h[256];
  for (int k = 0; k < 256; k++) h[k] = 0;
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; k++) {
    int v = in[(g * 8 + k) % n];
    h[(v & 255) + extra]++;
  }
  int s = 0;
  for (int k = 0; k < 256; k++) s += h[k] * k;
  if (g < n) out[g] = s;
}

extern "C" __global__ void copy(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i];
}

// planted: at i = n-1 the +1 neighbour reads in[n]; the three loads share one
// merged range check, and the report must name the +1 access
extern "C" __global__ void blur3(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n) out[i] = in[i - 1] + in[i] + in[i + 1];
}

// planted: a[i + k] with a large k lands inside another live allocation;
// the bounds are the root's, so it is still an overflow of a
extern "C" __global__ void copy_shifted(const float *a, float *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i + k];
}
