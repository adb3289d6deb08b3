// SGEMM 5: 2-D block tiling; a 64x64 tile per block, each thread a 4x4 sub-tile computed as
// outer products of register-cached slices of A and B.
//--blockDim=256 --gridDim=[1,1]
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
// For `prove` at every size: the launch the kernel is written for (1-D blocks of 256), and
// sizes whose products (M * K, ...) fit the int indices.
//@ requires blockDim.x == 256 && blockDim.y == 1
//@ requires M % 64 == 0 && N % 64 == 0 && K % 8 == 0
//@ requires M == 64 * gridDim.y && N == 64 * gridDim.x
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

__global__ void sgemm_2d_blocktiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int cRow = blockIdx.y;
    const unsigned int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    const int innerRowA = threadIdx.x / BK;
    const int innerColA = threadIdx.x % BK;
    const int strideA = 256 / BK;
    const int innerRowB = threadIdx.x / BN;
    const int innerColB = threadIdx.x % BN;
    const int strideB = 256 / BN;
    float threadResults[TM * TN];
    float regM[TM];
    float regN[TN];
    for (int r = 0; r < TM * TN; ++r) threadResults[r] = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (int off = 0; off < BM; off += strideA) {
            As[(innerRowA + off) * BK + innerColA] = A[(cRow * BM + innerRowA + off) * K + bkIdx + innerColA];
        }
        for (int off = 0; off < BK; off += strideB) {
            Bs[(innerRowB + off) * BN + innerColB] = B[(bkIdx + innerRowB + off) * N + cCol * BN + innerColB];
        }
        __syncthreads();
        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
            for (int i = 0; i < TN; ++i) regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (int rm = 0; rm < TM; ++rm) {
                for (int rn = 0; rn < TN; ++rn) {
                    threadResults[rm * TN + rn] += regM[rm] * regN[rn];
                }
            }
        }
        __syncthreads();
    }
    for (int rm = 0; rm < TM; ++rm) {
        for (int rn = 0; rn < TN; ++rn) {
            int c = (cRow * BM + threadRow * TM + rm) * N + cCol * BN + threadCol * TN + rn;
            C[c] = alpha * threadResults[rm * TN + rn] + beta * C[c];
        }
    }
}
