// Register-tiled SGEMM (C = alpha * A * B + beta * C, row-major) reading A and
// B through float4 vector loads into shared memory.
#include <cuda_runtime.h>

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FETCH_FLOAT4(p) (reinterpret_cast<float4 *>(&(p))[0])

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), 2)
    sgemm(int M, int N, int K, float alpha, const float *__restrict__ A,
          const float *__restrict__ B, float beta, float *__restrict__ C) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  const int tid = threadIdx.x;
  float acc[TM][TN] = {{0.0f}};
  float regA[TM];
  float regB[TN];

  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;

  const int aRow = tid / (BK / 4), aCol = (tid % (BK / 4)) * 4;
  const int bRow = tid / (BN / 4), bCol = (tid % (BN / 4)) * 4;

  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 a4 = reinterpret_cast<const float4 *>(&A[OFFSET(aRow, aCol, K)])[0];
    As[aCol + 0][aRow] = a4.x;
    As[aCol + 1][aRow] = a4.y;
    As[aCol + 2][aRow] = a4.z;
    As[aCol + 3][aRow] = a4.w;
    FETCH_FLOAT4(Bs[bRow][bCol]) = __ldg(reinterpret_cast<const float4 *>(&B[OFFSET(bRow, bCol, N)]));
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int m = 0; m < TM; m += 4) {
        FETCH_FLOAT4(regA[m]) = FETCH_FLOAT4(As[k][ty * TM + m]);
      }
#pragma unroll
      for (int n = 0; n < TN; n += 4) {
        FETCH_FLOAT4(regB[n]) = FETCH_FLOAT4(Bs[k][tx * TN + n]);
      }
#pragma unroll
      for (int m = 0; m < TM; ++m)
#pragma unroll 4
        for (int n = 0; n < TN; ++n)
          acc[m][n] = fmaf(regA[m], regB[n], acc[m][n]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int m = 0; m < TM; ++m) {
    for (int n = 0; n < TN; n += 4) {
      float4 c4 = FETCH_FLOAT4(C[OFFSET(ty * TM + m, tx * TN + n, N)]);
      c4.x = alpha * acc[m][n + 0] + beta * c4.x;
      c4.y = alpha * acc[m][n + 1] + beta * c4.y;
      c4.z = alpha * acc[m][n + 2] + beta * c4.z;
      c4.w = alpha * acc[m][n + 3] + beta * c4.w;
      FETCH_FLOAT4(C[OFFSET(ty * TM + m, tx * TN + n, N)]) = c4;
    }
  }
}

void run_sgemm(int M, int N, int K, const float *dA, const float *dB, float *dC) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  sgemm<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, 1.0f, dA, dB, 0.0f, dC);
  cudaDeviceSynchronize();
}
