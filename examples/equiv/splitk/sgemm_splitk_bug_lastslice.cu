// Split-K SGEMM: C = alpha * A*B + beta * C for 64x64x64, in two launches. The first kernel
// gives each of SPLITS slices of the K dimension its own z-block layer: 16x16 tiles staged
// in shared memory, the partial products written to P[slice][i][j]; the second kernel sums the
// slices of each element and applies alpha and beta. Buggy twin: the reduction skips the last
// slice. Compare it with the one-kernel reference:
//   warpsafe equiv examples/equiv/sgemm/sgemm1_naive.cu examples/equiv/splitk/sgemm_splitk_bug_lastslice.cu \
//       --sequence splitk_partial,splitk_reduce
//@ len(A) = 64 * 64
//@ len(B) = 64 * 64
//@ len(C) = 64 * 64
//@ len(P) = 4 * 64 * 64

#define M 64
#define N 64
#define K 64
#define SPLITS 4
#define TILE 16

__global__ void splitk_partial(const float* __restrict__ A, const float* __restrict__ B,
                               float* __restrict__ P)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    const int slice = blockIdx.z;
    const int span = K / SPLITS;
    float acc = 0.0f;
    for (int k0 = slice * span; k0 < (slice + 1) * span; k0 += TILE) {
        As[threadIdx.y][threadIdx.x] = A[row * K + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    P[(slice * M + row) * N + col] = acc;
}

__global__ void splitk_reduce(const float* __restrict__ P, float alpha, float beta,
                              float* __restrict__ C)
{
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < M * N) {
        float sum = 0.0f;
        for (int s = 0; s < SPLITS - 1; ++s) {
            sum += P[s * M * N + e];
        }
        C[e] = alpha * sum + beta * C[e];
    }
}

void sgemm_splitk(const float* A, const float* B, float* P, float* C, float alpha, float beta)
{
    dim3 tiles(N / TILE, M / TILE, SPLITS);
    dim3 threads(TILE, TILE);
    splitk_partial<<<tiles, threads>>>(A, B, P);
    splitk_reduce<<<(M * N + 255) / 256, 256>>>(P, alpha, beta, C);
}
