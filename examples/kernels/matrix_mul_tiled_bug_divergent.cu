// Buggy twin of matrix_mul_tiled.cu, "generalised" to any n by wrapping the whole body in the
// bounds check. With n = 56 on a 64 x 64 grid of threads, the threads outside the matrix skip
// the loop, so the blocks on the border reach __syncthreads() with only some of their threads.
#define TILE 16
//--blockDim=[16,16] --gridDim=[4,4]
//@ arg n = 56
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
//@ requires blockDim.x == 16 && blockDim.y == 16
//@ requires n <= blockDim.x * gridDim.x && n <= blockDim.y * gridDim.y
// `row * n + col` is an int: the kernel is right while n * n fits in one.
//@ requires n <= 46336
//@ expect divergence

__global__ void matrix_mul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    if (row < n && col < n) {
        float sum = 0.0f;
        for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
            int ak = t * TILE + tx;
            int bk = t * TILE + ty;
            As[ty][tx] = (ak < n) ? A[row * n + ak] : 0.0f;
            Bs[ty][tx] = (bk < n) ? B[bk * n + col] : 0.0f;
            __syncthreads();
            for (int k = 0; k < TILE; ++k) {
                sum += As[ty][k] * Bs[k][tx];
            }
            __syncthreads();
        }
        C[row * n + col] = sum;
    }
}
