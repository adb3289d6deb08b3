// Tiled square matrix product C = A * B (n x n, row-major): each 16 x 16 block walks the
// 16-wide strips of A and B through two shared tiles. Two barriers per phase: after loading
// (all of the tile is there before anyone reads it) and after computing (nobody overwrites the
// tile while others still read it).
#define TILE 16
//--blockDim=[16,16] --gridDim=[4,4]
//@ arg n = 64
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
//@ requires blockDim.x == 16 && blockDim.y == 16
//@ requires n % 16 == 0
// `row * n + col` is an int: the kernel is right while n * n fits in one.
//@ requires n <= 46336
//@ requires n == blockDim.x * gridDim.x && n == blockDim.y * gridDim.y

__global__ void matrix_mul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float sum = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * n + col] = sum;
}
