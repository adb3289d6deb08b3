// Naive square matrix product C = A * B (n x n, row-major) with 2-D blocks: thread (col, row)
// computes one dot product of a row of A with a column of B.
//--blockDim=[16,16] --gridDim=[4,4]
//@ arg n = 64
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
//@ requires n <= blockDim.x * gridDim.x && n <= blockDim.y * gridDim.y
//@ requires n <= 46340

__global__ void matrix_mul(const float* __restrict__ A, const float* __restrict__ B,
                           float* __restrict__ C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) {
            sum += A[row * n + k] * B[k * n + col];
        }
        C[row * n + col] = sum;
    }
}
