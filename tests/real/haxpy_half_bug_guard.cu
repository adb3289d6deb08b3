// Half-precision AXPY, y = a * x + y on `__half` arrays: the scalar arrives as a float and is
// converted once with `__float2half`, the update uses the `__hmul`/`__hadd` intrinsics, and a
// second kernel widens a half array to float with `__half2float`. Idiom: `#include
// <cuda_fp16.h>`, the `__half` struct type in kernel signatures and locals, fp16 intrinsics.
// Twin: haxpy's guard is `i <= n`; with n = 1000 the thread i = 1000 reads x[1000] and
// y[1000] and writes y[1000], one past the end. half_to_float is unchanged.
// verify: exit=1
// verify[haxpy]: bounds=violated
// verify[half_to_float]: race=verified divergence=verified bounds=verified
//--blockDim=256 --gridDim=4
//@ arg n = 1000
//@ len(x) = n
//@ len(y) = n
//@ len(out) = n
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void haxpy(int n, float alpha, const __half* __restrict__ x, __half* __restrict__ y)
{
    const __half a = __float2half(alpha);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        y[i] = __hadd(__hmul(a, x[i]), y[i]);
    }
}

__global__ void half_to_float(int n, const __half* __restrict__ x, float* __restrict__ out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __half2float(x[i]);
}

void haxpy_launch(int n, float alpha, const __half* d_x, __half* d_y, cudaStream_t stream)
{
    const int block = 256;
    haxpy<<<(n + block - 1) / block, block, 0, stream>>>(n, alpha, d_x, d_y);
}
