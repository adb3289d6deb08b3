/* warpsafe device headers: the floating-point limits CUDA code uses without an
 * #include (nvcc's implicit cuda_runtime.h brings in <math.h>): INFINITY,
 * HUGE_VALF, NAN and the FLT_ / DBL_ limits. Each body is token for token the
 * one the C library's <math.h> and the compiler's <float.h> use, so a file that
 * includes those headers as well redefines nothing. */
#ifndef WARPSAFE_FLOAT_LIMITS_H
#define WARPSAFE_FLOAT_LIMITS_H
#pragma clang system_header

#ifndef INFINITY
#define INFINITY (__builtin_inff ())
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (__builtin_huge_valf ())
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (__builtin_huge_val ())
#endif
#ifndef NAN
#define NAN (__builtin_nanf (""))
#endif

#ifndef FLT_MAX
#define FLT_MAX __FLT_MAX__
#endif
#ifndef FLT_MIN
#define FLT_MIN __FLT_MIN__
#endif
#ifndef FLT_EPSILON
#define FLT_EPSILON __FLT_EPSILON__
#endif
#ifndef DBL_MAX
#define DBL_MAX __DBL_MAX__
#endif
#ifndef DBL_MIN
#define DBL_MIN __DBL_MIN__
#endif
#ifndef DBL_EPSILON
#define DBL_EPSILON __DBL_EPSILON__
#endif

#endif /* WARPSAFE_FLOAT_LIMITS_H */
