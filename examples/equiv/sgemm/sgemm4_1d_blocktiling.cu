// SGEMM 4: 1-D block tiling; one block computes a 64x64 tile, each thread TM = 8 results of
// one column.
//--blockDim=512 --gridDim=[1,1]
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
// For `prove` at every size: the launch the kernel is written for (1-D blocks of 512), and
// sizes whose products (M * K, ...) fit the int indices.
//@ requires blockDim.x == 512 && blockDim.y == 1
//@ requires M % 64 == 0 && N % 64 == 0 && K % 8 == 0
//@ requires M == 64 * gridDim.y && N == 64 * gridDim.x
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#define BM 64
#define BN 64
#define BK 8
#define TM 8

__global__ void sgemm_1d_blocktiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int cRow = blockIdx.y;
    const unsigned int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % BN;
    const int threadRow = threadIdx.x / BN;
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int innerColA = threadIdx.x % BK;
    const int innerRowA = threadIdx.x / BK;
    const int innerColB = threadIdx.x % BN;
    const int innerRowB = threadIdx.x / BN;
    float threadResults[TM];
    for (int r = 0; r < TM; ++r) threadResults[r] = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        As[innerRowA * BK + innerColA] = A[(cRow * BM + innerRowA) * K + bkIdx + innerColA];
        Bs[innerRowB * BN + innerColB] = B[(bkIdx + innerRowB) * N + cCol * BN + innerColB];
        __syncthreads();
        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            float tmpB = Bs[dotIdx * BN + threadCol];
            for (int resIdx = 0; resIdx < TM; ++resIdx) {
                threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
            }
        }
        __syncthreads();
    }
    for (int resIdx = 0; resIdx < TM; ++resIdx) {
        int c = (cRow * BM + threadRow * TM + resIdx) * N + cCol * BN + threadCol;
        C[c] = alpha * threadResults[resIdx] + beta * C[c];
    }
}
