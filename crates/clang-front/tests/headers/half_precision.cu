// Half-precision AXPY on packed __half2 and a scalar half dot product.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void haxpy(int n, half a, const half *x, half *y) {
  int start = threadIdx.x + blockDim.x * blockIdx.x;
  int stride = blockDim.x * gridDim.x;
  int n2 = n / 2;
  half2 *x2 = (half2 *)x, *y2 = (half2 *)y;
  half2 a2 = __half2half2(a);
  for (int i = start; i < n2; i += stride) y2[i] = __hfma2(a2, x2[i], y2[i]);
  if (start == 0 && (n % 2)) y[n - 1] = __hfma(a, x[n - 1], y[n - 1]);
}

__global__ void hdot(const __half *a, const __half *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half prod = __float2half(0.0f);
  if (i < n) prod = __hmul(a[i], b[i]) + __hadd(a[i], __float2half(1.0f));
  if (__hgt(prod, __float2half(0.5f)) && !__hisnan(prod)) prod = hsqrt(prod);
  float f = __half2float(prod);
  half2 p = __floats2half2_rn(f, f);
  float2 back = __half22float2(p);
  prod = __shfl_down_sync(0xffffffff, prod, 1);
  atomicAdd(out, back.x + __low2float(p) + (float)prod);
  __nv_bfloat16 bf = __float2bfloat16(f);
  out[1] = __bfloat162float(bf);
}

void host_convert(float *dst, const float *src, int n) {
  for (int i = 0; i < n; ++i) {
    __half h = __float2half(src[i]);
    dst[i] = __half2float(h);
  }
  haxpy<<<(n + 255) / 256, 256>>>(n, __float2half(2.0f), nullptr, nullptr);
}
