// Half-precision GEMM on tensor cores (the idiom of tests/real/wmma_gemm.cu): every warp owns
// a 16x16 tile of C, accumulates A*B over K with `wmma::mma_sync` on 16x16x16 fragments, and
// scales C = alpha * A*B + beta * C element by element over the accumulator fragment. Equal to
// gemm_half_reference.cu over the reals:
//   warpsafe equiv examples/equiv/wmma/gemm_half_reference.cu examples/equiv/wmma/wmma_gemm.cu
//--blockDim=[128,4] --gridDim=[1,1]
//@ len(a) = M * K
//@ len(b) = K * N
//@ len(c) = M * N
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void wmma_gemm(const half *a, const half *b, float *c, int M, int N, int K,
                          float alpha, float beta)
{
    int lda = M;
    int ldb = K;
    int ldc = M;
    // The tile of C this warp owns.
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;

    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;
    wmma::fill_fragment(acc_frag, 0.0f);

    int aRow = warpM * WMMA_M;
    int bCol = warpN * WMMA_N;
    if (aRow < M && bCol < N) {
        for (int i = 0; i < K; i += WMMA_K) {
            wmma::load_matrix_sync(a_frag, a + aRow + i * lda, lda);
            wmma::load_matrix_sync(b_frag, b + i + bCol * ldb, ldb);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }

    int cRow = warpM * WMMA_M;
    int cCol = warpN * WMMA_N;
    if (cRow < M && cCol < N) {
        wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc, wmma::mem_col_major);
#pragma unroll
        for (int i = 0; i < c_frag.num_elements; i++) {
            c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
        }
        wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc, wmma::mem_col_major);
    }
}
