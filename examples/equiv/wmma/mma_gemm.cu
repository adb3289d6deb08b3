// Half-precision GEMM on tensor cores through inline PTX, as hand-tuned kernels write it: each
// block stages a 32x16 (k) slice of A and a 16 (k) x16 slice of B in shared memory, and each of
// its four warps computes a 16x8 tile of C with `ldmatrix` (A transposed out of its
// column-major staging, B as stored) and `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`,
// then scales C = alpha * A*B + beta * C on the accumulator fragment (row groupID and
// groupID+8, columns 2*threadID_in_group and +1, as the PTX ISA lays it out). All matrices are
// column-major, as gemm_half_reference.cu keeps them. Equal to it over the reals:
//   warpsafe equiv examples/equiv/wmma/gemm_half_reference.cu examples/equiv/wmma/mma_gemm_nvrtc.ptx
// (mma_gemm_nvrtc.ptx is NVRTC's PTX of this file, `sm_80`.)
//--blockDim=[128,1] --gridDim=[2,4]
//@ len(a) = M * K
//@ len(b) = K * N
//@ len(c) = M * N
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
#include <cuda_fp16.h>

#define BM 32
#define BN 16
#define BK 16
#define THREADS 128 // the block: four warps

__global__ void mma_gemm(const half *a, const half *b, float *c, int M, int N, int K,
                         float alpha, float beta)
{
    // A slice k-major (column-major A: 32 rows contiguous per k), B slice n-major
    // (column-major B: 16 k contiguous per column).
    __shared__ __align__(16) half As[BK * BM];
    __shared__ __align__(16) half Bs[BN * BK];
    int tid = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    int bm = blockIdx.x * BM;
    int bn = blockIdx.y * BN;
    int wm = (warp & 1) * 16; // the warp's 16 rows of the block's 32
    int wn = (warp >> 1) * 8; // and 8 columns of its 16
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int kb = 0; kb < K; kb += BK) {
        // Each thread copies BK*BM/THREADS halves of the A slice and BN*BK/THREADS of B's.
#pragma unroll
        for (int r = 0; r < BK * BM / THREADS; ++r) {
            int e = tid + r * THREADS;
            As[e] = a[(bm + e % BM) + (kb + e / BM) * M];
        }
#pragma unroll
        for (int r = 0; r < BN * BK / THREADS; ++r) {
            int e = tid + r * THREADS;
            Bs[e] = b[(kb + e % BK) + (bn + e / BK) * K];
        }
        __syncthreads();
        // Lanes 8j..8j+7 address the rows of 8x8 matrix j. A: matrix j holds rows
        // wm + 8*(j&1).., k 8*(j>>1)..; stored k-major, so it is loaded transposed.
        int j = lane / 8, i = lane % 8;
        unsigned a_addr = (unsigned)__cvta_generic_to_shared(
            &As[(8 * (j >> 1) + i) * BM + wm + 8 * (j & 1)]);
        // B: matrix j holds k 8*j.., columns wn..wn+7, stored n-major (lanes 16..31 repeat).
        unsigned b_addr = (unsigned)__cvta_generic_to_shared(
            &Bs[(wn + i) * BK + 8 * (j & 1)]);
        unsigned a0, a1, a2, a3, b0, b1;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                     : "r"(a_addr));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                     : "=r"(b0), "=r"(b1)
                     : "r"(b_addr));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        __syncthreads();
    }
    int g = lane >> 2, t = lane & 3;
    for (int e = 0; e < 4; ++e) {
        int row = bm + wm + g + 8 * (e >> 1);
        int col = bn + wn + 2 * t + (e & 1);
        c[row + col * M] = alpha * acc[e] + beta * c[row + col * M];
    }
}
