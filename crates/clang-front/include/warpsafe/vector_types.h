/* warpsafe device headers: built-in vector types, dim3, and the make_<type>
 * factory functions (Programming Guide, "Built-in Vector Types"). Alignments
 * follow the guide's table: the 2- and 4-component types are aligned to their
 * size (at most 16 bytes), the 1- and 3-component types to their component. */
#ifndef WARPSAFE_VECTOR_TYPES_H
#define WARPSAFE_VECTOR_TYPES_H

#pragma clang system_header

struct char1 { signed char x; };
struct __attribute__((aligned(2))) char2 { signed char x, y; };
struct char3 { signed char x, y, z; };
struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };
struct uchar1 { unsigned char x; };
struct __attribute__((aligned(2))) uchar2 { unsigned char x, y; };
struct uchar3 { unsigned char x, y, z; };
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };

struct short1 { short x; };
struct __attribute__((aligned(4))) short2 { short x, y; };
struct short3 { short x, y, z; };
struct __attribute__((aligned(8))) short4 { short x, y, z, w; };
struct ushort1 { unsigned short x; };
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
struct ushort3 { unsigned short x, y, z; };
struct __attribute__((aligned(8))) ushort4 { unsigned short x, y, z, w; };

struct int1 { int x; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct int3 { int x, y, z; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct uint1 { unsigned int x; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };

struct long1 { long x; };
struct __attribute__((aligned(2 * sizeof(long)))) long2 { long x, y; };
struct long3 { long x, y, z; };
struct __attribute__((aligned(16))) long4 { long x, y, z, w; };
struct ulong1 { unsigned long x; };
struct __attribute__((aligned(2 * sizeof(unsigned long)))) ulong2 { unsigned long x, y; };
struct ulong3 { unsigned long x, y, z; };
struct __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };

struct longlong1 { long long x; };
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
struct longlong3 { long long x, y, z; };
struct __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };
struct ulonglong1 { unsigned long long x; };
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
struct ulonglong3 { unsigned long long x, y, z; };
struct __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };

struct float1 { float x; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };

struct double1 { double x; };
struct __attribute__((aligned(16))) double2 { double x, y; };
struct double3 { double x, y, z; };
struct __attribute__((aligned(16))) double4 { double x, y, z, w; };

/* dim3: uint3 with every component defaulting to 1, built on the host for
 * launch configurations (`dim3 block(16, 16); dim3 grid = 4;`). */
struct dim3 {
  unsigned int x, y, z;
  __attribute__((host, device)) constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                               unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {} /* body: trivial */
  __attribute__((host, device)) constexpr dim3(uint3 v)
      : x(v.x), y(v.y), z(v.z) {} /* body: trivial */
  __attribute__((host, device)) constexpr operator uint3() const {
    return uint3{x, y, z}; /* body: trivial */
  }
};

#pragma clang attribute push(__attribute__((host)), apply_to = function)
#pragma clang attribute push(__attribute__((device)), apply_to = function)
char1 make_char1(signed char x);
char2 make_char2(signed char x, signed char y);
char3 make_char3(signed char x, signed char y, signed char z);
char4 make_char4(signed char x, signed char y, signed char z, signed char w);
uchar1 make_uchar1(unsigned char x);
uchar2 make_uchar2(unsigned char x, unsigned char y);
uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z);
uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w);
short1 make_short1(short x);
short2 make_short2(short x, short y);
short3 make_short3(short x, short y, short z);
short4 make_short4(short x, short y, short z, short w);
ushort1 make_ushort1(unsigned short x);
ushort2 make_ushort2(unsigned short x, unsigned short y);
ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z);
ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w);
int1 make_int1(int x);
int2 make_int2(int x, int y);
int3 make_int3(int x, int y, int z);
int4 make_int4(int x, int y, int z, int w);
uint1 make_uint1(unsigned int x);
uint2 make_uint2(unsigned int x, unsigned int y);
uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z);
uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);
long1 make_long1(long x);
long2 make_long2(long x, long y);
long3 make_long3(long x, long y, long z);
long4 make_long4(long x, long y, long z, long w);
ulong1 make_ulong1(unsigned long x);
ulong2 make_ulong2(unsigned long x, unsigned long y);
ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z);
ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w);
longlong1 make_longlong1(long long x);
longlong2 make_longlong2(long long x, long long y);
longlong3 make_longlong3(long long x, long long y, long long z);
longlong4 make_longlong4(long long x, long long y, long long z, long long w);
ulonglong1 make_ulonglong1(unsigned long long x);
ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y);
ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z);
ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z,
                           unsigned long long w);
float1 make_float1(float x);
float2 make_float2(float x, float y);
float3 make_float3(float x, float y, float z);
float4 make_float4(float x, float y, float z, float w);
double1 make_double1(double x);
double2 make_double2(double x, double y);
double3 make_double3(double x, double y, double z);
double4 make_double4(double x, double y, double z, double w);
#pragma clang attribute pop
#pragma clang attribute pop

#endif /* WARPSAFE_VECTOR_TYPES_H */
