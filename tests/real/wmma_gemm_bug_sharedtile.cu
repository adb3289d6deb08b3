// BUG (planted): the warp column index is `threadIdx.y / 2`, so two warps own each tile of C
// and both load, scale and store it (race between warps).
// Half-precision GEMM on tensor cores with the warp matrix functions, as the CUDA
// programming guide's and the tensor-core blog posts' examples write it: every warp owns one
// 16x16 tile of C and, when the tile lies inside C, walks K in steps of 16 loading a 16x16
// tile of A and of B into fragments (`wmma::load_matrix_sync`, column-major operands),
// accumulates with `wmma::mma_sync`, and finally scales: C = alpha * A*B + beta * C, element
// by element over the fragment's `num_elements` (`c_frag.x[i]`), stored back column-major.
// Idiom: `nvcuda::wmma` fragments with template shape arguments, `using namespace nvcuda`, a
// warp index from a 2-D block, `__half` operands, pointer arithmetic into the operands.
// verify: race=violated exit=1
//--blockDim=[128,4] --gridDim=[1,1]
//@ len(a) = M * K
//@ len(b) = K * N
//@ len(c) = M * N
//@ arg M = 64
//@ arg N = 64
//@ arg K = 32
//@ arg alpha = 2.0
//@ arg beta = 0.5
//@ requires M == 64 && N == 64 && K == 32
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
    int warpN = blockIdx.y * blockDim.y + threadIdx.y / 2;

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

int main()
{
    const int M = 64, N = 64, K = 32;
    half *a, *b;
    float *c;
    cudaMalloc(&a, M * K * sizeof(half));
    cudaMalloc(&b, K * N * sizeof(half));
    cudaMalloc(&c, M * N * sizeof(float));
    dim3 block(128, 4);
    dim3 grid((M + WMMA_M * block.x / 32 - 1) / (WMMA_M * block.x / 32),
              (N + WMMA_N * block.y - 1) / (WMMA_N * block.y));
    wmma_gemm<<<grid, block>>>(a, b, c, M, N, K, 2.0f, 0.5f);
    cudaDeviceSynchronize();
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
