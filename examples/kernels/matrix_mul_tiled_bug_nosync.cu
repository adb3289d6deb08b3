// Buggy twin of matrix_mul_tiled.cu: the second barrier of each phase is missing, so a fast
// thread loads the next phase's tiles while slower threads still read the current ones.
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
//@ expect race

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
    }
    C[row * n + col] = sum;
}
