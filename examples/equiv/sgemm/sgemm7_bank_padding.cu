// SGEMM 7: like SGEMM 6 with a bank-conflict-avoiding layout: the transposed A tile has rows
// padded to BM + 4 floats, so the four transposed stores of a warp hit different banks.
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
//@ requires M % 64 == 0 && N % 64 == 0 && K % 16 == 0
//@ requires M == 64 * gridDim.y && N == 64 * gridDim.x
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define AS_STRIDE (BM + 4)

__global__ void sgemm_bank_padded(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const unsigned int cRow = blockIdx.y;
    const unsigned int cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);
    __shared__ float As[BK * AS_STRIDE];
    __shared__ float Bs[BK * BN];
    const int innerRowA = threadIdx.x / (BK / 4);
    const int innerColA = threadIdx.x % (BK / 4);
    const int innerRowB = threadIdx.x / (BN / 4);
    const int innerColB = threadIdx.x % (BN / 4);
    float threadResults[TM * TN];
    float regM[TM];
    float regN[TN];
    for (int r = 0; r < TM * TN; ++r) threadResults[r] = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        // One 4-wide load of A (float4 in CUDA; our subset has no vector types, so four
        // consecutive scalar loads), stored transposed: As[k][m].
        const int a = (cRow * BM + innerRowA) * K + bkIdx + innerColA * 4;
        float a0 = A[a + 0];
        float a1 = A[a + 1];
        float a2 = A[a + 2];
        float a3 = A[a + 3];
        As[(innerColA * 4 + 0) * AS_STRIDE + innerRowA] = a0;
        As[(innerColA * 4 + 1) * AS_STRIDE + innerRowA] = a1;
        As[(innerColA * 4 + 2) * AS_STRIDE + innerRowA] = a2;
        As[(innerColA * 4 + 3) * AS_STRIDE + innerRowA] = a3;
        // One 4-wide load of B, stored as is.
        const int b = (bkIdx + innerRowB) * N + cCol * BN + innerColB * 4;
        Bs[innerRowB * BN + innerColB * 4 + 0] = B[b + 0];
        Bs[innerRowB * BN + innerColB * 4 + 1] = B[b + 1];
        Bs[innerRowB * BN + innerColB * 4 + 2] = B[b + 2];
        Bs[innerRowB * BN + innerColB * 4 + 3] = B[b + 3];
        __syncthreads();
        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i) regM[i] = As[dotIdx * AS_STRIDE + threadRow * TM + i];
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
