// Tensor-core tile: ldmatrix.sync (sm_75+) loads fp16 fragments from shared memory
// and mma.sync m16n8k16 (sm_80+) accumulates in fp32; scalar fallback otherwise.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// One warp computes a 16x8 tile of C = A(16x16, row-major) * B(16x8, stored as Bt 8x16).
__global__ void mma_16x8x16(const __half* __restrict__ A, const __half* __restrict__ Bt,
                            float* __restrict__ C, int ntiles)
{
    __shared__ __align__(16) __half sA[16 * 16];
    __shared__ __align__(16) __half sB[8 * 16];
    int lane = threadIdx.x & 31;
    int tile = blockIdx.x;
    if (tile >= ntiles) return;
    const __half* a = A + (size_t)tile * 256;
    const __half* b = Bt + (size_t)tile * 128;
    for (int i = lane; i < 256; i += 32) sA[i] = a[i];
    for (int i = lane; i < 128; i += 32) sB[i] = b[i];
    __syncwarp();
    float* c = C + (size_t)tile * 128;

#if __CUDA_ARCH__ >= 800
    unsigned a0, a1, a2, a3, b0, b1;
    // x4: lanes 0-15 address rows 0-15 (cols 0-7), lanes 16-31 rows 0-15 (cols 8-15)
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sA[(lane & 15) * 16 + (lane >> 4) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(aaddr));
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sB[(lane & 7) * 16 + ((lane >> 3) & 1) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(b0), "=r"(b1) : "r"(baddr));
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    int row = lane >> 2, col = (lane & 3) * 2;
    c[row * 8 + col] = d0;
    c[row * 8 + col + 1] = d1;
    c[(row + 8) * 8 + col] = d2;
    c[(row + 8) * 8 + col + 1] = d3;
#else
    for (int e = lane; e < 128; e += 32) {
        int r = e / 8, n = e % 8;
        float acc = 0.f;
        for (int k = 0; k < 16; ++k)
            acc += __half2float(sA[r * 16 + k]) * __half2float(sB[n * 16 + k]);
        c[e] = acc;
    }
#endif
}

// ldmatrix with .trans to transpose an 8x8 b16 block held in shared memory.
__global__ void ldmatrix_transpose8x8(const unsigned short* __restrict__ in,
                                      unsigned short* __restrict__ out)
{
    __shared__ __align__(16) unsigned short s[64];
    int lane = threadIdx.x & 31;
    s[lane] = in[blockIdx.x * 64 + lane];
    s[lane + 32] = in[blockIdx.x * 64 + lane + 32];
    __syncwarp();
#if __CUDA_ARCH__ >= 750
    unsigned r;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(lane & 7) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r) : "r"(addr));
    int row = lane >> 2, col = (lane & 3) * 2;
    out[blockIdx.x * 64 + row * 8 + col] = (unsigned short)(r & 0xffff);
    out[blockIdx.x * 64 + row * 8 + col + 1] = (unsigned short)(r >> 16);
#else
    for (int e = lane; e < 64; e += 32)
        out[blockIdx.x * 64 + e] = s[(e % 8) * 8 + e / 8];
#endif
}
