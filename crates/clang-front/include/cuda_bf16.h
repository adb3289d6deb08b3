/* warpsafe device headers: <cuda_bf16.h>, a minimal bfloat16 (CUDA Math API,
 * "Bfloat16 Precision Intrinsics"): the type, its float conversions, basic
 * arithmetic and atomicAdd. */
#ifndef WARPSAFE_CUDA_BF16_H
#define WARPSAFE_CUDA_BF16_H
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>

struct __nv_bfloat16_raw {
  unsigned short x;
};

#pragma clang attribute push(__attribute__((host)), apply_to = function)
#pragma clang attribute push(__attribute__((device)), apply_to = function)

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __nv_bfloat16(const __nv_bfloat16_raw &raw);
  __nv_bfloat16(float f);
  __nv_bfloat16(double f);
  __nv_bfloat16(int v);
  __nv_bfloat16 &operator=(float f);
  operator float() const;
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__nv_bfloat16 __float2bfloat16(float a);
__nv_bfloat16 __float2bfloat16_rn(float a);
__nv_bfloat16 __float2bfloat16_rz(float a);
__nv_bfloat16 __double2bfloat16(double a);
float __bfloat162float(__nv_bfloat16 a);
__nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__nv_bfloat162 __float22bfloat162_rn(float2 a);
float2 __bfloat1622float2(__nv_bfloat162 a);

#pragma clang attribute pop
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((device)), apply_to = function)

__nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c);
__nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b);
__nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b);
__nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b);
__nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c);
__nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);

#pragma clang attribute pop

#endif /* WARPSAFE_CUDA_BF16_H */
