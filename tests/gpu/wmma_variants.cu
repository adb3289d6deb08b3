// Warp matrix functions in every layout and shape warpsafe models, one warp and one tile per
// kernel: D = A*B + C with A (M x K), B (K x N), C and D (M x N) read and written through
// `load_matrix_sync`/`store_matrix_sync` with the leading dimensions below (wider than the
// tile for A, to exercise `ldm`). The same file runs on the interpreter (clang front end, our
// <mma.h>) and, built by nvcc, on a GPU's tensor cores (scripts/gpu_wmma_check.sh); the test
// crates/cli/tests/wmma.rs checks the interpreter against the matrix product.
//--blockDim=32 --gridDim=1
//@ len(a) = 1024
//@ len(b) = 1024
//@ len(c) = 1024
//@ len(d) = 1024
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// Leading dimension of a matrix of R rows and C columns stored in layout L, padded by 8
// elements for A so that `ldm` differs from the tile's width.
#define LD_row(R, C, PAD) ((C) + (PAD))
#define LD_col(R, C, PAD) ((R) + (PAD))

#define WMMA_KERNEL(NAME, M, N, K, LA, LB, LC, T)                                              \
    __global__ void NAME(const half *a, const half *b, const T *c, T *d)                       \
    {                                                                                          \
        wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::LA##_major> fa;                    \
        wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::LB##_major> fb;                    \
        wmma::fragment<wmma::accumulator, M, N, K, T> fc;                                      \
        wmma::load_matrix_sync(fa, a, LD_##LA(M, K, 8));                                       \
        wmma::load_matrix_sync(fb, b, LD_##LB(K, N, 0));                                       \
        wmma::load_matrix_sync(fc, c, LD_##LC(M, N, 0), wmma::mem_##LC##_major);               \
        wmma::mma_sync(fc, fa, fb, fc);                                                        \
        wmma::store_matrix_sync(d, fc, LD_##LC(M, N, 0), wmma::mem_##LC##_major);              \
    }

WMMA_KERNEL(m16n16k16_row_col_row, 16, 16, 16, row, col, row, float)
WMMA_KERNEL(m16n16k16_col_row_col, 16, 16, 16, col, row, col, float)
WMMA_KERNEL(m16n16k16_row_row_col, 16, 16, 16, row, row, col, float)
WMMA_KERNEL(m16n16k16_col_col_row, 16, 16, 16, col, col, row, float)
WMMA_KERNEL(m32n8k16_row_col_row, 32, 8, 16, row, col, row, float)
WMMA_KERNEL(m32n8k16_col_row_col, 32, 8, 16, col, row, col, float)
WMMA_KERNEL(m8n32k16_row_col_row, 8, 32, 16, row, col, row, float)
WMMA_KERNEL(m8n32k16_col_row_col, 8, 32, 16, col, row, col, float)
WMMA_KERNEL(m16n16k16_half_row_col_row, 16, 16, 16, row, col, row, half)
