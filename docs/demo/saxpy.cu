// The example `make demo` instruments: saxpy with an off-by-one guard.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)  // bug: should be i < n
    y[i] = a * x[i] + y[i];
}
