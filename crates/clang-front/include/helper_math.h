/* warpsafe device headers: <helper_math.h>, the vector arithmetic the CUDA
 * samples include (`#include "helper_math.h"`), written by the warpsafe
 * authors from what each operation means; no NVIDIA text. Declarations only,
 * like the rest of these headers: the translator gives each call its meaning,
 * component by component (crates/clang-front/src/translate/vector_math.rs),
 * so a call is an expression, with no statements of its own.
 *
 * Types: float2/3/4, int2/3/4, uint2/3/4 (and uchar4 -> float4/int4/uint4).
 * For a vector type V of scalar S:
 *   - make_V(S): every component S; make_V(W) of the vector W of the same
 *     length and another scalar: each component converted; make_V2(V3),
 *     make_V2(V4), make_V3(V4): the first components; make_V3(V2, S),
 *     make_V4(V3, S), make_V4(V2, S, S): appended components; make_V3(V2),
 *     make_V4(V3): an appended zero;
 *   - unary `-` (float and int vectors); `+ - * /` of two vectors, of a vector
 *     and a scalar and of a scalar and a vector; `+= -= *= /=` with a vector
 *     or a scalar on the right (void, as in the samples);
 *   - dot; min, max (int, uint); abs (int); clamp (scalar or vector bounds);
 *     for float vectors fminf, fmaxf, floorf, fracf, fmodf, fabs, length,
 *     normalize, lerp, smoothstep; reflect and cross (float3);
 *   - the scalar lerp, clamp (float, int, uint), fracf and smoothstep.
 * They are `__host__ __device__`, as the samples' own helpers are; GPUVerify's
 * preamble (warpsafe/gpuverify.h) includes this file with them `__device__`,
 * as its kernels declare some of them again (`__device__ float4
 * fminf(float4, float4);`). */
#ifndef WARPSAFE_HELPER_MATH_H
#define WARPSAFE_HELPER_MATH_H

#pragma clang system_header

#include <warpsafe/cuda_runtime.h>

#ifndef WARPSAFE_HELPER_MATH_DEVICE_ONLY
#pragma clang attribute push(__attribute__((host)), apply_to = function)
#endif
#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* ---- scalars ------------------------------------------------------------ */

float lerp(float a, float b, float t);
float clamp(float f, float a, float b);
int clamp(int f, int a, int b);
unsigned int clamp(unsigned int f, unsigned int a, unsigned int b);
float fracf(float v);
float smoothstep(float a, float b, float x);

/* ---- construction ------------------------------------------------------- */

#define WSHM_MAKE(V, S, W1, W2)                                                          \
  V##2 make_##V##2(S s);                                                                 \
  V##3 make_##V##3(S s);                                                                 \
  V##4 make_##V##4(S s);                                                                 \
  V##2 make_##V##2(W1##2 a);                                                             \
  V##3 make_##V##3(W1##3 a);                                                             \
  V##4 make_##V##4(W1##4 a);                                                             \
  V##2 make_##V##2(W2##2 a);                                                             \
  V##3 make_##V##3(W2##3 a);                                                             \
  V##4 make_##V##4(W2##4 a);                                                             \
  V##2 make_##V##2(V##3 a);                                                              \
  V##2 make_##V##2(V##4 a);                                                              \
  V##3 make_##V##3(V##4 a);                                                              \
  V##3 make_##V##3(V##2 a);                                                              \
  V##3 make_##V##3(V##2 a, S z);                                                         \
  V##4 make_##V##4(V##3 a);                                                              \
  V##4 make_##V##4(V##3 a, S w);                                                         \
  V##4 make_##V##4(V##2 a, S z, S w);                                                    \
  V##4 make_##V##4(uchar4 a);
WSHM_MAKE(float, float, int, uint)
WSHM_MAKE(int, int, float, uint)
WSHM_MAKE(uint, unsigned int, float, int)

/* ---- arithmetic --------------------------------------------------------- */

#define WSHM_OP(V, S, OP)                                                                \
  V operator OP(V a, V b);                                                               \
  V operator OP(V a, S s);                                                               \
  V operator OP(S s, V a);                                                               \
  void operator OP##=(V &a, V b);                                                        \
  void operator OP##=(V &a, S s);
#define WSHM_ARITH(V, S)                                                                 \
  WSHM_OP(V, S, +) WSHM_OP(V, S, -) WSHM_OP(V, S, *) WSHM_OP(V, S, /)
WSHM_ARITH(float2, float)
WSHM_ARITH(float3, float)
WSHM_ARITH(float4, float)
WSHM_ARITH(int2, int)
WSHM_ARITH(int3, int)
WSHM_ARITH(int4, int)
WSHM_ARITH(uint2, unsigned int)
WSHM_ARITH(uint3, unsigned int)
WSHM_ARITH(uint4, unsigned int)
float2 operator-(float2 a);
float3 operator-(float3 a);
float4 operator-(float4 a);
int2 operator-(int2 a);
int3 operator-(int3 a);
int4 operator-(int4 a);

/* ---- functions ---------------------------------------------------------- */

#define WSHM_COMMON(V, S)                                                                \
  S dot(V a, V b);                                                                       \
  V clamp(V v, S a, S b);                                                                \
  V clamp(V v, V a, V b);
#define WSHM_FLOAT(V)                                                                    \
  WSHM_COMMON(V, float)                                                                  \
  V fminf(V a, V b);                                                                     \
  V fmaxf(V a, V b);                                                                     \
  V fmodf(V a, V b);                                                                     \
  V floorf(V v);                                                                         \
  V fracf(V v);                                                                          \
  V fabs(V v);                                                                           \
  float length(V v);                                                                     \
  V normalize(V v);                                                                      \
  V lerp(V a, V b, float t);                                                             \
  V smoothstep(V a, V b, V x);
#define WSHM_INT(V, S)                                                                   \
  WSHM_COMMON(V, S)                                                                      \
  V min(V a, V b);                                                                       \
  V max(V a, V b);
WSHM_FLOAT(float2)
WSHM_FLOAT(float3)
WSHM_FLOAT(float4)
WSHM_INT(int2, int)
WSHM_INT(int3, int)
WSHM_INT(int4, int)
WSHM_INT(uint2, unsigned int)
WSHM_INT(uint3, unsigned int)
WSHM_INT(uint4, unsigned int)
int2 abs(int2 v);
int3 abs(int3 v);
int4 abs(int4 v);
float3 reflect(float3 i, float3 n);
float3 cross(float3 a, float3 b);

#undef WSHM_MAKE
#undef WSHM_OP
#undef WSHM_ARITH
#undef WSHM_COMMON
#undef WSHM_FLOAT
#undef WSHM_INT

#pragma clang attribute pop
#ifndef WARPSAFE_HELPER_MATH_DEVICE_ONLY
#pragma clang attribute pop
#endif

#endif /* WARPSAFE_HELPER_MATH_H */
