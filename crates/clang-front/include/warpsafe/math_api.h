/* warpsafe device headers: the CUDA Math API (single and double precision
 * functions) plus CUDA's integer and floating min / max / abs overloads.
 *
 * The math functions are `__device__` overloads of the C library names. clang
 * lets a device function overload a host function of the same signature, so a
 * later <math.h> / <cmath> only adds the host versions: device code calls
 * these, host code calls glibc's. (libstdc++'s float overloads such as
 * std::sqrt(float) are constexpr, which clang also allows in device code.)
 * min / max are `__host__ __device__` as in the toolkit; nothing in the C
 * library declares them. */
#ifndef WARPSAFE_MATH_API_H
#define WARPSAFE_MATH_API_H

#pragma clang system_header

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* ---- single precision ---------------------------------------------------- */

float acosf(float x);
float acoshf(float x);
float asinf(float x);
float asinhf(float x);
float atanf(float x);
float atanhf(float x);
float cbrtf(float x);
float ceilf(float x);
float cosf(float x);
float coshf(float x);
float cospif(float x);
float cyl_bessel_i0f(float x);
float cyl_bessel_i1f(float x);
float erff(float x);
float erfcf(float x);
float erfcinvf(float x);
float erfcxf(float x);
float erfinvf(float x);
float expf(float x);
float exp10f(float x);
float exp2f(float x);
float expm1f(float x);
float fabsf(float x);
float floorf(float x);
float lgammaf(float x);
float logf(float x);
float log10f(float x);
float log1pf(float x);
float log2f(float x);
float logbf(float x);
float nearbyintf(float x);
float normcdff(float x);
float normcdfinvf(float x);
float rcbrtf(float x);
float rintf(float x);
float roundf(float x);
float rsqrtf(float x);
float sinf(float x);
float sinhf(float x);
float sinpif(float x);
float sqrtf(float x);
float tanf(float x);
float tanhf(float x);
float tgammaf(float x);
float truncf(float x);
float j0f(float x);
float j1f(float x);
float y0f(float x);
float y1f(float x);
float atan2f(float y, float x);
float copysignf(float x, float y);
float fdimf(float x, float y);
float fmaxf(float x, float y);
float fminf(float x, float y);
float fmodf(float x, float y);
float hypotf(float x, float y);
float nextafterf(float x, float y);
float powf(float x, float y);
float remainderf(float x, float y);
float rhypotf(float x, float y);
float fdividef(float x, float y);
float fmaf(float x, float y, float z);
unsigned int __float_as_uint(float x);
float __uint_as_float(unsigned int x);
/* The fraction in [0.5, 1) and the power of two, from the bits: a subnormal is
 * scaled by 2^25 first (exactly); zero, infinity and NaN are returned with
 * exponent 0. */
inline float frexpf(float x, int *nptr) {
    unsigned int b = __float_as_uint(x);
    int shift = 0;
    if (((b >> 23) & 0xffu) == 0xffu || (b & 0x7fffffffu) == 0u) {
        *nptr = 0;
        return x;
    }
    if (((b >> 23) & 0xffu) == 0u) {
        b = __float_as_uint(x * 33554432.0f);
        shift = 25;
    }
    *nptr = (int)((b >> 23) & 0xffu) - 126 - shift;
    return __uint_as_float((b & 0x807fffffu) | 0x3f000000u);
}
float ldexpf(float x, int exp);
float scalbnf(float x, int n);
float scalblnf(float x, long int n);
float remquof(float x, float y, int *quo);
float nanf(const char *tagp);
float jnf(int n, float x);
float ynf(int n, float x);
int ilogbf(float x);
long int lrintf(float x);
long int lroundf(float x);
long long int llrintf(float x);
long long int llroundf(float x);
/* Both results through the pointers, as the Math API documents them. */
inline void sincosf(float x, float *sptr, float *cptr) { *sptr = sinf(x); *cptr = cosf(x); }
inline void sincospif(float x, float *sptr, float *cptr) { *sptr = sinpif(x); *cptr = cospif(x); }
float norm3df(float a, float b, float c);
float rnorm3df(float a, float b, float c);
float norm4df(float a, float b, float c, float d);
float rnorm4df(float a, float b, float c, float d);
float normf(int dim, const float *p);
float rnormf(int dim, const float *p);
bool isfinite(float x);
bool isinf(float x);
bool isnan(float x);
bool signbit(float x);
/* The integral part through the pointer; the fractional part keeps x's sign
 * (x - trunc(x) is exact), and is a signed zero for an infinite x. */
inline float modff(float x, float *iptr) {
    float t = truncf(x);
    *iptr = t;
    return isinf(x) ? copysignf(0.0f, x) : copysignf(x - t, x);
}

/* ---- double precision ---------------------------------------------------- */

double acos(double x);
double acosh(double x);
double asin(double x);
double asinh(double x);
double atan(double x);
double atanh(double x);
double cbrt(double x);
double ceil(double x);
double cos(double x);
double cosh(double x);
double cospi(double x);
double cyl_bessel_i0(double x);
double cyl_bessel_i1(double x);
double erf(double x);
double erfc(double x);
double erfcinv(double x);
double erfcx(double x);
double erfinv(double x);
double exp(double x);
double exp10(double x);
double exp2(double x);
double expm1(double x);
double fabs(double x);
double floor(double x);
double lgamma(double x);
double log(double x);
double log10(double x);
double log1p(double x);
double log2(double x);
double logb(double x);
double nearbyint(double x);
double normcdf(double x);
double normcdfinv(double x);
double rcbrt(double x);
double rint(double x);
double round(double x);
double rsqrt(double x);
double sin(double x);
double sinh(double x);
double sinpi(double x);
double sqrt(double x);
double tan(double x);
double tanh(double x);
double tgamma(double x);
double trunc(double x);
double j0(double x);
double j1(double x);
double y0(double x);
double y1(double x);
double atan2(double y, double x);
double copysign(double x, double y);
double fdim(double x, double y);
double fmax(double x, double y);
double fmin(double x, double y);
double fmod(double x, double y);
double hypot(double x, double y);
double nextafter(double x, double y);
double pow(double x, double y);
double remainder(double x, double y);
double rhypot(double x, double y);
double fma(double x, double y, double z);
long long int __double_as_longlong(double x);
double __longlong_as_double(long long int x);
/* As frexpf, in double precision (a subnormal scaled by 2^54). */
inline double frexp(double x, int *nptr) {
    unsigned long long b = (unsigned long long)__double_as_longlong(x);
    int shift = 0;
    if (((b >> 52) & 0x7ffull) == 0x7ffull || (b & 0x7fffffffffffffffull) == 0ull) {
        *nptr = 0;
        return x;
    }
    if (((b >> 52) & 0x7ffull) == 0ull) {
        b = (unsigned long long)__double_as_longlong(x * 18014398509481984.0);
        shift = 54;
    }
    *nptr = (int)((b >> 52) & 0x7ffull) - 1022 - shift;
    return __longlong_as_double(
        (long long int)((b & 0x800fffffffffffffull) | 0x3fe0000000000000ull));
}
double ldexp(double x, int exp);
double scalbn(double x, int n);
double scalbln(double x, long int n);
double remquo(double x, double y, int *quo);
double nan(const char *tagp);
double jn(int n, double x);
double yn(int n, double x);
int ilogb(double x);
long int lrint(double x);
long int lround(double x);
long long int llrint(double x);
long long int llround(double x);
inline void sincos(double x, double *sptr, double *cptr) { *sptr = sin(x); *cptr = cos(x); }
inline void sincospi(double x, double *sptr, double *cptr) { *sptr = sinpi(x); *cptr = cospi(x); }
double norm3d(double a, double b, double c);
double rnorm3d(double a, double b, double c);
double norm4d(double a, double b, double c, double d);
double rnorm4d(double a, double b, double c, double d);
double norm(int dim, const double *p);
double rnorm(int dim, const double *p);
bool isfinite(double x);
bool isinf(double x);
bool isnan(double x);
bool signbit(double x);
inline double modf(double x, double *iptr) {
    double t = trunc(x);
    *iptr = t;
    return isinf(x) ? copysign(0.0, x) : copysign(x - t, x);
}

/* ---- absolute value and the toolkit's typed min / max ------------------ */

int abs(int a);
long int abs(long int a);
long long int abs(long long int a);
float abs(float a);
double abs(double a);
long int labs(long int a);
long long int llabs(long long int a);
unsigned int umin(unsigned int a, unsigned int b);
unsigned int umax(unsigned int a, unsigned int b);
long long int llmin(long long int a, long long int b);
long long int llmax(long long int a, long long int b);
unsigned long long int ullmin(unsigned long long int a, unsigned long long int b);
unsigned long long int ullmax(unsigned long long int a, unsigned long long int b);

#pragma clang attribute pop

#pragma clang attribute push(__attribute__((host)), apply_to = function)
#pragma clang attribute push(__attribute__((device)), apply_to = function)

int min(int a, int b);
unsigned int min(unsigned int a, unsigned int b);
unsigned int min(int a, unsigned int b);
unsigned int min(unsigned int a, int b);
long int min(long int a, long int b);
unsigned long int min(unsigned long int a, unsigned long int b);
unsigned long int min(long int a, unsigned long int b);
unsigned long int min(unsigned long int a, long int b);
long long int min(long long int a, long long int b);
unsigned long long int min(unsigned long long int a, unsigned long long int b);
unsigned long long int min(long long int a, unsigned long long int b);
unsigned long long int min(unsigned long long int a, long long int b);
float min(float a, float b);
double min(double a, double b);
double min(float a, double b);
double min(double a, float b);

int max(int a, int b);
unsigned int max(unsigned int a, unsigned int b);
unsigned int max(int a, unsigned int b);
unsigned int max(unsigned int a, int b);
long int max(long int a, long int b);
unsigned long int max(unsigned long int a, unsigned long int b);
unsigned long int max(long int a, unsigned long int b);
unsigned long int max(unsigned long int a, long int b);
long long int max(long long int a, long long int b);
unsigned long long int max(unsigned long long int a, unsigned long long int b);
unsigned long long int max(long long int a, unsigned long long int b);
unsigned long long int max(unsigned long long int a, long long int b);
float max(float a, float b);
double max(double a, double b);
double max(float a, double b);
double max(double a, float b);

#pragma clang attribute pop
#pragma clang attribute pop

#endif /* WARPSAFE_MATH_API_H */
