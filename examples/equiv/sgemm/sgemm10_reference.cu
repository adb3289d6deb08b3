// SGEMM reference of the sized family (10-13): C = alpha * A*B + beta * C, row-major, one
// thread per output element in 16x16 blocks. The size is the macro SIZE (default 128), as a
// user sets it: `warpsafe equiv -D SIZE=256 sgemm10_reference.cu sgemm12_warptiling.cu`.
// The launch, the buffer lengths (cudaMalloc) and M = N = K come from the host code below;
// alpha and beta are parameters of the host function, so they stay symbolic.
#include <cuda_runtime.h>

#ifndef SIZE
#define SIZE 128
#endif

__global__ void sgemm_reference(int M, int N, int K, float alpha, const float* __restrict__ A,
                                const float* __restrict__ B, float beta, float* __restrict__ C)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += A[row * K + k] * B[k * N + col];
        }
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

void sgemm(float alpha, float beta)
{
    const int M = SIZE, N = SIZE, K = SIZE;
    float *A, *B, *C;
    cudaMalloc(&A, M * K * sizeof(float));
    cudaMalloc(&B, K * N * sizeof(float));
    cudaMalloc(&C, M * N * sizeof(float));
    sgemm_reference<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(M, N, K, alpha, A, B, beta, C);
}
