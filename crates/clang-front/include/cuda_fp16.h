/* warpsafe device headers: <cuda_fp16.h>, half precision (CUDA Math API,
 * "Half Precision Intrinsics"). __half holds the IEEE binary16 bits in an
 * unsigned short; it converts to and from float implicitly, as the toolkit's
 * class does, and has device arithmetic and comparison operators. */
#ifndef WARPSAFE_CUDA_FP16_H
#define WARPSAFE_CUDA_FP16_H
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

#pragma clang attribute push(__attribute__((host)), apply_to = function)
#pragma clang attribute push(__attribute__((device)), apply_to = function)

struct __attribute__((aligned(2))) __half {
  unsigned short __x;
  __half() = default;
  __half(const __half_raw &raw);
  __half(float f);
  __half(double f);
  __half(short v);
  __half(unsigned short v);
  __half(int v);
  __half(unsigned int v);
  __half(long v);
  __half(unsigned long v);
  __half(long long v);
  __half(unsigned long long v);
  __half &operator=(const __half_raw &raw);
  __half &operator=(float f);
  __half &operator=(double f);
  operator float() const;
  operator __half_raw() const;
};

struct __attribute__((aligned(4))) __half2 {
  __half x, y;
  __half2() = default;
  __half2(const __half &a, const __half &b);
  __half2(const __half2_raw &raw);
  __half2 &operator=(const __half2_raw &raw);
  operator __half2_raw() const;
};

typedef __half half;
typedef __half2 half2;

/* Conversions callable from host and device. */
__half __float2half(float a);
__half __float2half_rn(float a);
__half __float2half_rz(float a);
__half __float2half_rd(float a);
__half __float2half_ru(float a);
__half __double2half(double a);
float __half2float(__half a);
__half2 __float2half2_rn(float a);
__half2 __floats2half2_rn(float a, float b);
__half2 __float22half2_rn(float2 a);
float2 __half22float2(__half2 a);
float __low2float(__half2 a);
float __high2float(__half2 a);

#pragma clang attribute pop
#pragma clang attribute pop

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* Packing and bit casts. */
__half2 __halves2half2(__half a, __half b);
__half2 __half2half2(__half a);
__half __low2half(__half2 a);
__half __high2half(__half2 a);
__half2 __lows2half2(__half2 a, __half2 b);
__half2 __highs2half2(__half2 a, __half2 b);
__half2 __lowhigh2highlow(__half2 a);
short __half_as_short(__half h);
unsigned short __half_as_ushort(__half h);
__half __short_as_half(short i);
__half __ushort_as_half(unsigned short i);

/* Integer conversions. */
int __half2int_rn(__half h);
int __half2int_rz(__half h);
int __half2int_rd(__half h);
int __half2int_ru(__half h);
unsigned int __half2uint_rn(__half h);
unsigned int __half2uint_rz(__half h);
short __half2short_rn(__half h);
short __half2short_rz(__half h);
__half __int2half_rn(int i);
__half __int2half_rz(int i);
__half __uint2half_rn(unsigned int i);
__half __short2half_rn(short i);
__half __ushort2half_rn(unsigned short i);

/* Arithmetic. */
__half __hadd(__half a, __half b);
__half __hsub(__half a, __half b);
__half __hmul(__half a, __half b);
__half __hdiv(__half a, __half b);
__half __hadd_sat(__half a, __half b);
__half __hsub_sat(__half a, __half b);
__half __hmul_sat(__half a, __half b);
__half __hfma(__half a, __half b, __half c);
__half __hfma_sat(__half a, __half b, __half c);
__half __hneg(__half a);
__half __habs(__half a);
__half2 __hadd2(__half2 a, __half2 b);
__half2 __hsub2(__half2 a, __half2 b);
__half2 __hmul2(__half2 a, __half2 b);
__half2 __h2div(__half2 a, __half2 b);
__half2 __hadd2_sat(__half2 a, __half2 b);
__half2 __hmul2_sat(__half2 a, __half2 b);
__half2 __hfma2(__half2 a, __half2 b, __half2 c);
__half2 __hfma2_sat(__half2 a, __half2 b, __half2 c);
__half2 __hneg2(__half2 a);
__half2 __habs2(__half2 a);

/* Comparisons. */
bool __heq(__half a, __half b);
bool __hne(__half a, __half b);
bool __hlt(__half a, __half b);
bool __hle(__half a, __half b);
bool __hgt(__half a, __half b);
bool __hge(__half a, __half b);
bool __hisnan(__half a);
int __hisinf(__half a);
__half __hmax(__half a, __half b);
__half __hmin(__half a, __half b);
__half2 __heq2(__half2 a, __half2 b);
__half2 __hlt2(__half2 a, __half2 b);
__half2 __hgt2(__half2 a, __half2 b);
bool __hbeq2(__half2 a, __half2 b);
bool __hblt2(__half2 a, __half2 b);
__half2 __hmax2(__half2 a, __half2 b);
__half2 __hmin2(__half2 a, __half2 b);

/* Functions. */
__half hsqrt(__half a);
__half hrsqrt(__half a);
__half hrcp(__half a);
__half hexp(__half a);
__half hexp2(__half a);
__half hexp10(__half a);
__half hlog(__half a);
__half hlog2(__half a);
__half hlog10(__half a);
__half hsin(__half a);
__half hcos(__half a);
__half hceil(__half a);
__half hfloor(__half a);
__half hrint(__half a);
__half htrunc(__half a);
__half2 h2sqrt(__half2 a);
__half2 h2rsqrt(__half2 a);
__half2 h2exp(__half2 a);
__half2 h2log(__half2 a);
__half2 h2sin(__half2 a);
__half2 h2cos(__half2 a);

/* Operators on __half and __half2. */
__half operator+(const __half &a, const __half &b);
__half operator-(const __half &a, const __half &b);
__half operator*(const __half &a, const __half &b);
__half operator/(const __half &a, const __half &b);
__half operator-(const __half &a);
__half operator+(const __half &a);
__half &operator+=(__half &a, const __half &b);
__half &operator-=(__half &a, const __half &b);
__half &operator*=(__half &a, const __half &b);
__half &operator/=(__half &a, const __half &b);
__half &operator++(__half &a);
__half &operator--(__half &a);
bool operator==(const __half &a, const __half &b);
bool operator!=(const __half &a, const __half &b);
bool operator<(const __half &a, const __half &b);
bool operator>(const __half &a, const __half &b);
bool operator<=(const __half &a, const __half &b);
bool operator>=(const __half &a, const __half &b);
__half2 operator+(const __half2 &a, const __half2 &b);
__half2 operator-(const __half2 &a, const __half2 &b);
__half2 operator*(const __half2 &a, const __half2 &b);
__half2 operator/(const __half2 &a, const __half2 &b);
__half2 &operator+=(__half2 &a, const __half2 &b);
__half2 &operator*=(__half2 &a, const __half2 &b);

/* Warp shuffles, atomics. */
__half __shfl_sync(unsigned int mask, __half var, int srcLane, int width = warpSize);
__half __shfl_up_sync(unsigned int mask, __half var, unsigned int delta, int width = warpSize);
__half __shfl_down_sync(unsigned int mask, __half var, unsigned int delta, int width = warpSize);
__half __shfl_xor_sync(unsigned int mask, __half var, int laneMask, int width = warpSize);
__half2 __shfl_sync(unsigned int mask, __half2 var, int srcLane, int width = warpSize);
__half2 __shfl_up_sync(unsigned int mask, __half2 var, unsigned int delta, int width = warpSize);
__half2 __shfl_down_sync(unsigned int mask, __half2 var, unsigned int delta,
                         int width = warpSize);
__half2 __shfl_xor_sync(unsigned int mask, __half2 var, int laneMask, int width = warpSize);
__half atomicAdd(__half *address, __half val);
__half2 atomicAdd(__half2 *address, __half2 val);

#pragma clang attribute pop

#endif /* WARPSAFE_CUDA_FP16_H */
