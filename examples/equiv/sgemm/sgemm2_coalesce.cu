// SGEMM 2: global-memory coalescing; 1-D blocks of 1024 threads, consecutive threads take
// consecutive columns of a 32x32 output tile.
//--blockDim=1024 --gridDim=[2,2]
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
// For `prove` at every size: the launch the kernel is written for, the grid covers C, and
// products (M * K, ...) fit the int indices.
//@ requires blockDim.x == 1024
//@ requires M <= 32 * gridDim.x && N <= 32 * gridDim.y
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#define BLOCKSIZE 32

__global__ void sgemm_coalesce(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int x = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
    const unsigned int y = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i) {
            tmp += A[x * K + i] * B[i * N + y];
        }
        C[x * N + y] = alpha * tmp + beta * C[x * N + y];
    }
}
