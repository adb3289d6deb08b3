// The launch contract and signature of mma_gemm_nvrtc.ptx (NVRTC's PTX of mma_gemm.cu), its
// sibling on the PTX road. clang-front does not translate the inline `ldmatrix`/`mma.sync`
// of mma_gemm.cu, so this file only declares the kernel: its body is the PTX's, and this
// empty one is not the kernel.
//--blockDim=[128,1] --gridDim=[2,4]
//@ len(a) = M * K
//@ len(b) = K * N
//@ len(c) = M * N
//@ arg M = 64
//@ arg N = 64
//@ arg K = 64
#include <cuda_fp16.h>

__global__ void mma_gemm(const half *a, const half *b, float *c, int M, int N, int K,
                         float alpha, float beta)
{
}
