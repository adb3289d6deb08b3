// SGEMM 3: shared-memory cache blocking; each block stages 32x32 tiles of A and B.
//--blockDim=1024 --gridDim=[2,2]
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
// For `prove` at every size: the launch the kernel is written for, and sizes whose
// products (M * K, ...) fit the int indices.
//@ requires blockDim.x == 1024
//@ requires M % 32 == 0 && N % 32 == 0 && K % 32 == 0
//@ requires M == 32 * gridDim.x && N == 32 * gridDim.y
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#define BLOCKSIZE 32

__global__ void sgemm_shared(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int cRow = blockIdx.x;
    const unsigned int cCol = blockIdx.y;
    __shared__ float As[BLOCKSIZE * BLOCKSIZE];
    __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];
    const unsigned int threadCol = threadIdx.x % BLOCKSIZE;
    const unsigned int threadRow = threadIdx.x / BLOCKSIZE;
    const int aBase = cRow * BLOCKSIZE * K;
    const int bBase = cCol * BLOCKSIZE;
    const int cBase = cRow * BLOCKSIZE * N + cCol * BLOCKSIZE;
    float tmp = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
        As[threadRow * BLOCKSIZE + threadCol] = A[aBase + bkIdx + threadRow * K + threadCol];
        Bs[threadRow * BLOCKSIZE + threadCol] = B[bBase + bkIdx * N + threadRow * N + threadCol];
        __syncthreads();
        for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx) {
            tmp += As[threadRow * BLOCKSIZE + dotIdx] * Bs[dotIdx * BLOCKSIZE + threadCol];
        }
        __syncthreads();
    }
    C[cBase + threadRow * N + threadCol] = alpha * tmp + beta * C[cBase + threadRow * N + threadCol];
}
