// SGEMM 11: 2-D block tiling with template tile sizes and float4 traffic. A block computes a
// BM x BN tile of C with (BM/TM) * (BN/TN) threads, each a TM x TN register tile, over BK-deep
// slices of A and B staged in shared memory. A slice of A is read as float4 along its rows and
// stored transposed (As[k][m]) so the compute loop reads consecutive floats; B is copied float4
// to float4; C is read and written as float4. Instantiated by the host launch below
// (BM = BN = 64, BK = 16, TM = TN = 4: 256 threads); SIZE (default 128) must be a multiple of 64.
#include <cuda_runtime.h>
// For `prove` at every size (the host code fixes one SIZE; these lines speak for all):
// lengths in the kernel's own parameters, the launch the template is instantiated for, and
// sizes whose products (M * K, ...) fit the int indices.
//@ len(A) = M * K
//@ len(B) = K * N
//@ len(C) = M * N
//@ requires blockDim.x == 256 && blockDim.y == 1
//@ requires M % 64 == 0 && N % 64 == 0 && K % 16 == 0
//@ requires M == 64 * gridDim.y && N == 64 * gridDim.x
//@ requires 0 <= M && 0 <= N && 0 <= K && M <= 46336 && N <= 46336 && K <= 46336

#ifndef SIZE
#define SIZE 128
#endif

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_blocktiling(int M, int N, int K, float alpha, const float* __restrict__ A,
                  const float* __restrict__ B, float beta, float* __restrict__ C)
{
    constexpr int THREADS = (BM / TM) * (BN / TN);
    constexpr int A_STRIDE = THREADS / (BK / 4); // rows of the A slice per pass
    constexpr int B_STRIDE = THREADS / (BN / 4); // rows of the B slice per pass
    __shared__ __align__(16) float As[BK * BM];
    __shared__ __align__(16) float Bs[BK * BN];

    const int tid = threadIdx.x;
    const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
    const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
    const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;

    const float* Ab = A + blockIdx.y * BM * K;
    const float* Bb = B + blockIdx.x * BN;
    float acc[TM * TN] = {0.0f};
    float regM[TM], regN[TN];

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
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            for (int i = 0; i < TM; ++i) regM[i] = As[k * BM + tRow * TM + i];
            for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + tCol * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j) acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }

    float* Cb = C + (blockIdx.y * BM + tRow * TM) * N + blockIdx.x * BN + tCol * TN;
    for (int i = 0; i < TM; ++i) {
        for (int j = 0; j < TN; j += 4) {
            float4 c = reinterpret_cast<float4*>(&Cb[i * N + j])[0];
            c.x = alpha * acc[i * TN + j + 0] + beta * c.x;
            c.y = alpha * acc[i * TN + j + 1] + beta * c.y;
            c.z = alpha * acc[i * TN + j + 2] + beta * c.z;
            c.w = alpha * acc[i * TN + j + 3] + beta * c.w;
            reinterpret_cast<float4*>(&Cb[i * N + j])[0] = c;
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
    sgemm_blocktiling<64, 64, 16, 4, 4><<<dim3(N / 64, M / 64), dim3(256)>>>(M, N, K, alpha, A, B,
                                                                             beta, C);
}
