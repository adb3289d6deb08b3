
#include <cuda_runtime.h>
#define TILE 16
//--blockDim=[16,16] --gridDim=[4,4]
//@ len(A) = n * n
//@ len(B) = n * n
//@ len(C) = n * n
//@ requires n % TILE == 0
//@ arg n = 64
__global__ void matmul(const float* __restrict__ A, const float* __restrict__ B, float* C, int n) {
    __shared__ float As[TILE][TILE + 1];
    __shared__ float Bs[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
