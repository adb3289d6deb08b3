// SGEMM 1 (reference): C = alpha * A*B + beta * C, one thread per output element, 32x32
// blocks; consecutive threads walk down a column (uncoalesced).
//--blockDim=[32,32] --gridDim=[2,2]
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
// For `prove` at every size: the grid covers C, and products (M * K, ...) fit the int indices.
//@ requires M <= blockDim.x * gridDim.x && N <= blockDim.y * gridDim.y
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

__global__ void sgemm_naive(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i) {
            tmp += A[x * K + i] * B[i * N + y];
        }
        C[x * N + y] = alpha * tmp + beta * C[x * N + y];
    }
}
