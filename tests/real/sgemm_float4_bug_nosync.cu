// Register-blocked SGEMM, C = alpha * A * B + beta * C (row-major; A is M x K, B is K x N): a
// BM x BN block tile, a BK-deep k-loop over shared-memory tiles, a TM x TN tile of results per
// thread. Each thread loads one float4 of A (stored transposed into As) and one float4 of B per
// step. Idiom: `template <int BM, int BN, int BK, int TM, int TN>`, `__launch_bounds__`,
// `reinterpret_cast<const float4*>(&A[...])[0]`, `#pragma unroll`, `= {0.0f}` register arrays,
// a host launcher that instantiates the template with a `dim3` grid.
// Twin: the barrier between storing the tiles and the compute loop is gone; thread 0 reads
// As[0][1], which thread 2 stores in the same barrier interval.
// verify: race=violated exit=1
// verify-args: --property race
//--blockDim=256 --gridDim=[4,4]
//@ arg M = 512
//@ arg N = 512
//@ arg K = 256
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
//@ requires M == gridDim.y * 128 && N == gridDim.x * 128
//@ requires K > 0 && K % 8 == 0 && K <= 8192
#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_tiled(int M, int N, int K, float alpha, const float* __restrict__ A,
            const float* __restrict__ B, float beta, float* __restrict__ C)
{
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int a_row = tid / (BK / 4), a_col = (tid % (BK / 4)) * 4;
    const int b_row = tid / (BN / 4), b_col = (tid % (BN / 4)) * 4;

    A += (size_t)blockIdx.y * BM * K;
    B += blockIdx.x * BN;
    float acc[TM][TN] = {{0.0f}};
    float a_frag[TM], b_frag[TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
        const float4 a4 = reinterpret_cast<const float4*>(&A[a_row * K + k0 + a_col])[0];
        As[a_col + 0][a_row] = a4.x;
        As[a_col + 1][a_row] = a4.y;
        As[a_col + 2][a_row] = a4.z;
        As[a_col + 3][a_row] = a4.w;
        reinterpret_cast<float4*>(&Bs[b_row][b_col])[0] =
            reinterpret_cast<const float4*>(&B[(k0 + b_row) * N + b_col])[0];
#pragma unroll
        for (int k = 0; k < BK; ++k) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[k][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[k][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }

    C += (size_t)(blockIdx.y * BM + ty * TM) * N + blockIdx.x * BN + tx * TN;
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) C[i * N + j] = alpha * acc[i][j] + beta * C[i * N + j];
}

void sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C)
{
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    const dim3 block((BM / TM) * (BN / TN));
    const dim3 grid(N / BN, M / BM);
    sgemm_tiled<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
