/* warpsafe device headers: synchronization, warp-level primitives, memory
 * fences, cache-hinted loads and stores, integer / float / conversion
 * intrinsics, and the device-side C library (printf, malloc, assert)
 * (Programming Guide: "Synchronization Functions", "Memory Fence Functions",
 * "Warp Vote / Match / Reduce / Shuffle Functions", "Read-Only Data Cache Load
 * Function", "Load/Store Functions Using Cache Hints", "Time Function",
 * "Assertion", "Formatted Output", "Dynamic Global Memory Allocation";
 * CUDA Math API: "Integer Intrinsics", "Single/Double Precision Intrinsics",
 * "Type Casting Intrinsics"). */
#ifndef WARPSAFE_DEVICE_FUNCTIONS_H
#define WARPSAFE_DEVICE_FUNCTIONS_H

#pragma clang system_header

typedef long clock_t; /* glibc's clock_t, so <time.h> may come later */

/* Lets the cache-hinted stores take a value of the pointee type without that
 * argument also deducing it (`__stcg(p, 0)` with `float *p`). */
template <class T> struct __warpsafe_identity { typedef T type; };

/* ---- device C library and assert --------------------------------------- */

extern "C" {
#pragma clang attribute push(__attribute__((device)), apply_to = function)
int printf(const char *format, ...);
int vprintf(const char *format, const char *args);
void *malloc(size_t size);
void free(void *ptr);
void *memcpy(void *dst, const void *src, size_t count);
void *memset(void *ptr, int value, size_t count);
clock_t clock(void);
#pragma clang attribute pop
}

/* `assert(e)` is a call to this function (include/assert.h keeps the name free
 * of glibc's macro; with NDEBUG it expands to nothing, as the standard says).
 * It is constexpr so that constexpr functions may assert, as with the macro. */
#if __cplusplus >= 201402L
__attribute__((host, device)) constexpr void assert(bool condition) {} /* body: trivial */
#else
__attribute__((host, device)) void assert(bool condition);
#endif

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* ---- synchronization and fences ---------------------------------------- */

extern "C" void __syncthreads(void); /* also a clang builtin; same signature */
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);
void __syncwarp(unsigned int mask = 0xffffffffu);
void __threadfence_block(void);
void __threadfence(void);
void __threadfence_system(void);

/* ---- time, traps, misc -------------------------------------------------- */

long long int clock64(void);

/* warpsafe: a value of the type about which nothing is known, a new one in each
 * thread and each call (the IR's `arbitrary`). clock() and clock64() are
 * such values; the headers use these for what a library computes but the
 * checks need not know (cuRAND's generators), and a call of a function of the
 * file declared without a body has one as its value. */
bool __warpsafe_arbitrary_bool(void);
signed char __warpsafe_arbitrary_i8(void);
unsigned char __warpsafe_arbitrary_u8(void);
short __warpsafe_arbitrary_i16(void);
unsigned short __warpsafe_arbitrary_u16(void);
int __warpsafe_arbitrary_i32(void);
unsigned int __warpsafe_arbitrary_u32(void);
long long __warpsafe_arbitrary_i64(void);
unsigned long long __warpsafe_arbitrary_u64(void);
float __warpsafe_arbitrary_f32(void);
double __warpsafe_arbitrary_f64(void);
void __nanosleep(unsigned int ns);
void __trap(void);
void __brkpt(void);
void __prof_trigger(int counter);
unsigned int __isGlobal(const void *ptr);
unsigned int __isShared(const void *ptr);
unsigned int __isConstant(const void *ptr);
unsigned int __isLocal(const void *ptr);
size_t __cvta_generic_to_shared(const void *ptr);
size_t __cvta_generic_to_global(const void *ptr);
void *__cvta_shared_to_generic(size_t rawbits);
void *__cvta_global_to_generic(size_t rawbits);

/* ---- warp vote, match, reduce ------------------------------------------ */

unsigned int __activemask(void);
unsigned int __ballot_sync(unsigned int mask, int predicate);
int __any_sync(unsigned int mask, int predicate);
int __all_sync(unsigned int mask, int predicate);
int __uni_sync(unsigned int mask, int predicate);
/* Pre-CUDA-9 vote without a mask (not on sm_70+). `__all` is left to the
 * GPUVerify annotation of that name (gpuverify.h). */
unsigned int __ballot(int predicate);
int __any(int predicate);
/* T: int, unsigned, long, unsigned long, long long, unsigned long long, float,
 * double. */
template <class T> unsigned int __match_any_sync(unsigned int mask, T value);
template <class T> unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
int __reduce_add_sync(unsigned int mask, int value);
unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
int __reduce_min_sync(unsigned int mask, int value);
unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
int __reduce_max_sync(unsigned int mask, int value);
unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

/* ---- warp shuffle ------------------------------------------------------- */

int __shfl_sync(unsigned int mask, int var, int srcLane, int width = warpSize);
unsigned int __shfl_sync(unsigned int mask, unsigned int var, int srcLane, int width = warpSize);
long __shfl_sync(unsigned int mask, long var, int srcLane, int width = warpSize);
unsigned long __shfl_sync(unsigned int mask, unsigned long var, int srcLane,
                          int width = warpSize);
long long __shfl_sync(unsigned int mask, long long var, int srcLane, int width = warpSize);
unsigned long long __shfl_sync(unsigned int mask, unsigned long long var, int srcLane,
                               int width = warpSize);
float __shfl_sync(unsigned int mask, float var, int srcLane, int width = warpSize);
double __shfl_sync(unsigned int mask, double var, int srcLane, int width = warpSize);

int __shfl_up_sync(unsigned int mask, int var, unsigned int delta, int width = warpSize);
unsigned int __shfl_up_sync(unsigned int mask, unsigned int var, unsigned int delta,
                            int width = warpSize);
long __shfl_up_sync(unsigned int mask, long var, unsigned int delta, int width = warpSize);
unsigned long __shfl_up_sync(unsigned int mask, unsigned long var, unsigned int delta,
                             int width = warpSize);
long long __shfl_up_sync(unsigned int mask, long long var, unsigned int delta,
                         int width = warpSize);
unsigned long long __shfl_up_sync(unsigned int mask, unsigned long long var, unsigned int delta,
                                  int width = warpSize);
float __shfl_up_sync(unsigned int mask, float var, unsigned int delta, int width = warpSize);
double __shfl_up_sync(unsigned int mask, double var, unsigned int delta, int width = warpSize);

int __shfl_down_sync(unsigned int mask, int var, unsigned int delta, int width = warpSize);
unsigned int __shfl_down_sync(unsigned int mask, unsigned int var, unsigned int delta,
                              int width = warpSize);
long __shfl_down_sync(unsigned int mask, long var, unsigned int delta, int width = warpSize);
unsigned long __shfl_down_sync(unsigned int mask, unsigned long var, unsigned int delta,
                               int width = warpSize);
long long __shfl_down_sync(unsigned int mask, long long var, unsigned int delta,
                           int width = warpSize);
unsigned long long __shfl_down_sync(unsigned int mask, unsigned long long var,
                                    unsigned int delta, int width = warpSize);
float __shfl_down_sync(unsigned int mask, float var, unsigned int delta, int width = warpSize);
double __shfl_down_sync(unsigned int mask, double var, unsigned int delta, int width = warpSize);

int __shfl_xor_sync(unsigned int mask, int var, int laneMask, int width = warpSize);
unsigned int __shfl_xor_sync(unsigned int mask, unsigned int var, int laneMask,
                             int width = warpSize);
long __shfl_xor_sync(unsigned int mask, long var, int laneMask, int width = warpSize);
unsigned long __shfl_xor_sync(unsigned int mask, unsigned long var, int laneMask,
                              int width = warpSize);
long long __shfl_xor_sync(unsigned int mask, long long var, int laneMask, int width = warpSize);
unsigned long long __shfl_xor_sync(unsigned int mask, unsigned long long var, int laneMask,
                                   int width = warpSize);
float __shfl_xor_sync(unsigned int mask, float var, int laneMask, int width = warpSize);
double __shfl_xor_sync(unsigned int mask, double var, int laneMask, int width = warpSize);

/* Pre-CUDA-9 shuffles without a mask (deprecated, not on sm_70+), for any of
 * the types above. */
template <class T> T __shfl(T var, int srcLane, int width = warpSize);
template <class T> T __shfl_up(T var, unsigned int delta, int width = warpSize);
template <class T> T __shfl_down(T var, unsigned int delta, int width = warpSize);
template <class T> T __shfl_xor(T var, int laneMask, int width = warpSize);

/* ---- cache-hinted loads and stores -------------------------------------- */

/* The guide lists scalar and vector overloads; one template per hint covers
 * them all with the same call syntax. */
template <class T> T __ldg(const T *ptr);
template <class T> T __ldcg(const T *ptr);
template <class T> T __ldca(const T *ptr);
template <class T> T __ldcs(const T *ptr);
template <class T> T __ldlu(const T *ptr);
template <class T> T __ldcv(const T *ptr);
template <class T> void __stwb(T *ptr, typename __warpsafe_identity<T>::type value);
template <class T> void __stcg(T *ptr, typename __warpsafe_identity<T>::type value);
template <class T> void __stcs(T *ptr, typename __warpsafe_identity<T>::type value);
template <class T> void __stwt(T *ptr, typename __warpsafe_identity<T>::type value);

/* ---- integer intrinsics -------------------------------------------------- */

int __mul24(int x, int y);
unsigned int __umul24(unsigned int x, unsigned int y);
int __mulhi(int x, int y);
unsigned int __umulhi(unsigned int x, unsigned int y);
long long int __mul64hi(long long int x, long long int y);
unsigned long long int __umul64hi(unsigned long long int x, unsigned long long int y);
int __popc(unsigned int x);
int __popcll(unsigned long long int x);
int __clz(int x);
int __clzll(long long int x);
int __ffs(int x);
int __ffsll(long long int x);
unsigned int __brev(unsigned int x);
unsigned long long int __brevll(unsigned long long int x);
unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift);
unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift);
int __hadd(int x, int y);
int __rhadd(int x, int y);
unsigned int __uhadd(unsigned int x, unsigned int y);
unsigned int __urhadd(unsigned int x, unsigned int y);
unsigned int __sad(int x, int y, unsigned int z);
unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
int __dp4a(int srcA, int srcB, int c);
unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
int __dp2a_lo(int srcA, int srcB, int c);
int __dp2a_hi(int srcA, int srcB, int c);

/* ---- type-casting intrinsics -------------------------------------------- */

int __float_as_int(float x);
float __int_as_float(int x);
unsigned int __float_as_uint(float x);
float __uint_as_float(unsigned int x);
long long int __double_as_longlong(double x);
double __longlong_as_double(long long int x);
int __double2hiint(double x);
int __double2loint(double x);
double __hiloint2double(int hi, int lo);

/* ---- conversions with a rounding mode ------------------------------------ */

int __float2int_rn(float x);
int __float2int_rz(float x);
int __float2int_ru(float x);
int __float2int_rd(float x);
unsigned int __float2uint_rn(float x);
unsigned int __float2uint_rz(float x);
unsigned int __float2uint_ru(float x);
unsigned int __float2uint_rd(float x);
long long int __float2ll_rn(float x);
long long int __float2ll_rz(float x);
long long int __float2ll_ru(float x);
long long int __float2ll_rd(float x);
unsigned long long int __float2ull_rn(float x);
unsigned long long int __float2ull_rz(float x);
unsigned long long int __float2ull_ru(float x);
unsigned long long int __float2ull_rd(float x);
float __int2float_rn(int x);
float __int2float_rz(int x);
float __int2float_ru(int x);
float __int2float_rd(int x);
float __uint2float_rn(unsigned int x);
float __uint2float_rz(unsigned int x);
float __uint2float_ru(unsigned int x);
float __uint2float_rd(unsigned int x);
float __ll2float_rn(long long int x);
float __ll2float_rz(long long int x);
float __ull2float_rn(unsigned long long int x);
float __ull2float_rz(unsigned long long int x);
float __double2float_rn(double x);
float __double2float_rz(double x);
float __double2float_ru(double x);
float __double2float_rd(double x);
int __double2int_rn(double x);
int __double2int_rz(double x);
int __double2int_ru(double x);
int __double2int_rd(double x);
unsigned int __double2uint_rn(double x);
unsigned int __double2uint_rz(double x);
unsigned int __double2uint_ru(double x);
unsigned int __double2uint_rd(double x);
long long int __double2ll_rn(double x);
long long int __double2ll_rz(double x);
unsigned long long int __double2ull_rn(double x);
unsigned long long int __double2ull_rz(double x);
double __int2double_rn(int x);
double __uint2double_rn(unsigned int x);
double __ll2double_rn(long long int x);
double __ll2double_rz(long long int x);
double __ull2double_rn(unsigned long long int x);
double __ull2double_rz(unsigned long long int x);

/* ---- single-precision intrinsics ----------------------------------------- */

float __fadd_rn(float x, float y);
float __fadd_rz(float x, float y);
float __fadd_ru(float x, float y);
float __fadd_rd(float x, float y);
float __fsub_rn(float x, float y);
float __fsub_rz(float x, float y);
float __fsub_ru(float x, float y);
float __fsub_rd(float x, float y);
float __fmul_rn(float x, float y);
float __fmul_rz(float x, float y);
float __fmul_ru(float x, float y);
float __fmul_rd(float x, float y);
float __fmaf_rn(float x, float y, float z);
float __fmaf_rz(float x, float y, float z);
float __fmaf_ru(float x, float y, float z);
float __fmaf_rd(float x, float y, float z);
float __fdiv_rn(float x, float y);
float __fdiv_rz(float x, float y);
float __fdiv_ru(float x, float y);
float __fdiv_rd(float x, float y);
float __frcp_rn(float x);
float __frcp_rz(float x);
float __frcp_ru(float x);
float __frcp_rd(float x);
float __fsqrt_rn(float x);
float __fsqrt_rz(float x);
float __fsqrt_ru(float x);
float __fsqrt_rd(float x);
float __frsqrt_rn(float x);
float __fdividef(float x, float y);
float __expf(float x);
float __exp10f(float x);
float __logf(float x);
float __log2f(float x);
float __log10f(float x);
float __sinf(float x);
float __cosf(float x);
float __tanf(float x);
inline void __sincosf(float x, float *sptr, float *cptr) { *sptr = __sinf(x); *cptr = __cosf(x); }
float __powf(float x, float y);
float __saturatef(float x);

/* ---- double-precision intrinsics ----------------------------------------- */

double __dadd_rn(double x, double y);
double __dadd_rz(double x, double y);
double __dadd_ru(double x, double y);
double __dadd_rd(double x, double y);
double __dsub_rn(double x, double y);
double __dsub_rz(double x, double y);
double __dsub_ru(double x, double y);
double __dsub_rd(double x, double y);
double __dmul_rn(double x, double y);
double __dmul_rz(double x, double y);
double __dmul_ru(double x, double y);
double __dmul_rd(double x, double y);
double __fma_rn(double x, double y, double z);
double __fma_rz(double x, double y, double z);
double __fma_ru(double x, double y, double z);
double __fma_rd(double x, double y, double z);
double __ddiv_rn(double x, double y);
double __ddiv_rz(double x, double y);
double __ddiv_ru(double x, double y);
double __ddiv_rd(double x, double y);
double __drcp_rn(double x);
double __drcp_rz(double x);
double __drcp_ru(double x);
double __drcp_rd(double x);
double __dsqrt_rn(double x);
double __dsqrt_rz(double x);
double __dsqrt_ru(double x);
double __dsqrt_rd(double x);

#pragma clang attribute pop

#endif /* WARPSAFE_DEVICE_FUNCTIONS_H */
