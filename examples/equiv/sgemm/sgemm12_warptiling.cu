// SGEMM 12: warp tiling with template tile sizes and float4 traffic. A block computes a
// BM x BN tile of C; each warp a WM x WN part of it, walked as WMITER x WNITER sub-tiles of
// WSUBM x WSUBN; in each sub-tile a lane owns a TM x TN register tile. Shared slices as in
// kernel 11 (A transposed from float4 row loads, B float4 to float4), several passes when the
// block has fewer threads than float4s per slice. Instantiated by the host launch below
// (64 x 64 block tile, BK = 16, 32 x 32 warp tiles, WNITER = 2, 4 x 4 per lane: 128 threads);
// SIZE (default 128) must be a multiple of 64.
#include <cuda_runtime.h>
// For `prove` at every size (the host code fixes one SIZE; these lines speak for all):
// lengths in the kernel's own parameters, the launch the template is instantiated for, and
// sizes whose products (M * K, ...) fit the int indices.
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
//@ requires blockDim.x == 128 && blockDim.y == 1
//@ requires M % 64 == 0 && N % 64 == 0 && K % 16 == 0
//@ requires M == 64 * gridDim.y && N == 64 * gridDim.x
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#ifndef SIZE
#define SIZE 128
#endif

#define WARP 32

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int THREADS>
__global__ void __launch_bounds__(THREADS)
sgemm_warptiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                 const float* __restrict__ B, float beta, float* __restrict__ C)
{
    constexpr int WMITER = (WM * WN) / (WARP * TM * TN * WNITER);
    constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    constexpr int A_STRIDE = THREADS / (BK / 4);
    constexpr int B_STRIDE = THREADS / (BN / 4);
    __shared__ __align__(16) float As[BK * BM];
    __shared__ __align__(16) float Bs[BK * BN];

    const int tid = threadIdx.x;
    const int warp = tid / WARP, lane = tid % WARP;
    const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
    const int laneRow = lane / (WSUBN / TN), laneCol = lane % (WSUBN / TN);
    const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
    const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;

    const float* Ab = A + blockIdx.y * BM * K;
    const float* Bb = B + blockIdx.x * BN;
    float acc[WMITER * TM * WNITER * TN] = {0.0f};
    float regM[WMITER * TM], regN[WNITER * TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int r = 0; r < BM; r += A_STRIDE) {
            const float4 v = reinterpret_cast<const float4*>(&Ab[(aRow + r) * K + k0 + aCol])[0];
            As[(aCol + 0) * BM + aRow + r] = v.x;
            As[(aCol + 1) * BM + aRow + r] = v.y;
            As[(aCol + 2) * BM + aRow + r] = v.z;
            As[(aCol + 3) * BM + aRow + r] = v.w;
        }
        for (int r = 0; r < BK; r += B_STRIDE) {
            reinterpret_cast<float4*>(&Bs[(bRow + r) * BN + bCol])[0] =
                reinterpret_cast<const float4*>(&Bb[(k0 + bRow + r) * N + bCol])[0];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            for (int wm = 0; wm < WMITER; ++wm)
                for (int i = 0; i < TM; ++i)
                    regM[wm * TM + i] =
                        As[k * BM + warpRow * WM + wm * WSUBM + laneRow * TM + i];
            for (int wn = 0; wn < WNITER; ++wn)
                for (int j = 0; j < TN; ++j)
                    regN[wn * TN + j] =
                        Bs[k * BN + warpCol * WN + wn * WSUBN + laneCol * TN + j];
            for (int wm = 0; wm < WMITER; ++wm)
                for (int wn = 0; wn < WNITER; ++wn)
                    for (int i = 0; i < TM; ++i)
                        for (int j = 0; j < TN; ++j)
                            acc[(wm * TM + i) * (WNITER * TN) + wn * TN + j] +=
                                regM[wm * TM + i] * regN[wn * TN + j];
        }
        __syncthreads();
    }

    for (int wm = 0; wm < WMITER; ++wm) {
        for (int wn = 0; wn < WNITER; ++wn) {
            float* Cw = C + (blockIdx.y * BM + warpRow * WM + wm * WSUBM + laneRow * TM) * N +
                        blockIdx.x * BN + warpCol * WN + wn * WSUBN + laneCol * TN;
            for (int i = 0; i < TM; ++i) {
                for (int j = 0; j < TN; j += 4) {
                    const int a = (wm * TM + i) * (WNITER * TN) + wn * TN + j;
                    float4 c = reinterpret_cast<float4*>(&Cw[i * N + j])[0];
                    c.x = alpha * acc[a + 0] + beta * c.x;
                    c.y = alpha * acc[a + 1] + beta * c.y;
                    c.z = alpha * acc[a + 2] + beta * c.z;
                    c.w = alpha * acc[a + 3] + beta * c.w;
                    reinterpret_cast<float4*>(&Cw[i * N + j])[0] = c;
                }
            }
        }
    }
}

void sgemm(float alpha, float beta)
{
    const int M = SIZE, N = SIZE, K = SIZE;
    float *A, *B, *C;
    cudaMalloc(&A, M * K * sizeof(float));
    cudaMalloc(&B, K * N * sizeof(float));
    cudaMalloc(&C, M * N * sizeof(float));
    sgemm_warptiling<64, 64, 16, 32, 32, 2, 4, 4, 128>
        <<<dim3(N / 64, M / 64), dim3(128)>>>(M, N, K, alpha, A, B, beta, C);
}
