// Reference for the tensor-core GEMM: C = alpha * A*B + beta * C with `__half` operands and
// float accumulation, one thread per element of C, all matrices column-major (as cuBLAS and
// the wmma example keep them). Compare it with the warp-matrix version:
//   warpsafe equiv examples/equiv/wmma/gemm_half_reference.cu examples/equiv/wmma/wmma_gemm.cu
//--blockDim=[16,16] --gridDim=[4,4]
//@ len(a) = M * K
//@ len(b) = K * N
//@ len(c) = M * N
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
#include <cuda_fp16.h>

__global__ void gemm_half(const half *a, const half *b, float *c, int M, int N, int K,
                          float alpha, float beta)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += __half2float(a[row + k * M]) * __half2float(b[k + col * K]);
        c[row + col * M] = alpha * acc + beta * c[row + col * M];
    }
}
