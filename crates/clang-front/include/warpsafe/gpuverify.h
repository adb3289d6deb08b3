/* warpsafe device headers: GPUVerify's specification annotations, so kernels
 * from its test suite parse. Each annotation is a device function, so it
 * appears in the AST as a CallExpr naming it; the void ones work as the left
 * operand of a comma, as in
 *   for (i = 0; __invariant(i <= n), __global_invariant(__read_offset_bytes(p) == 0), i < n; ++i)
 * Pointer arguments are `const volatile void *`, which every object pointer
 * converts to. Two forms are not calls:
 *  - `__same_group` is written without parentheses; a self-naming macro turns
 *    it into the call `__same_group()`.
 *  - `__axiom(e)` is a file-scope declaration in GPUVerify; it defines the
 *    device function `bool __axiom_<N>(void) { return (e); }` (the translator
 *    reads the axioms from these bodies). */
#ifndef WARPSAFE_GPUVERIFY_H
#define WARPSAFE_GPUVERIFY_H

#pragma clang system_header

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* Contracts, assertions, assumptions, loop invariants. */
void __requires(bool expr);
void __global_requires(bool expr);
void __ensures(bool expr);
void __global_ensures(bool expr);
void __assert(bool expr);
void __global_assert(bool expr);
void __candidate_assert(bool expr);
void __candidate_global_assert(bool expr);
void __assume(bool expr);
void __invariant(bool expr);
void __global_invariant(bool expr);
void __candidate_invariant(bool expr);
void __candidate_global_invariant(bool expr);
void __function_wide_invariant(bool expr);
void __function_wide_candidate_invariant(bool expr);
void __non_temporal_loads_begin(void);
void __non_temporal_loads_end(void);

/* Logic. */
bool __implies(bool antecedent, bool consequent);
bool __enabled(void);
bool __dominator_enabled(void);

/* Values in postconditions. */
int __return_val_int(void);
bool __return_val_bool(void);
void *__return_val_ptr(void);
int __old_int(int expr);
bool __old_bool(bool expr);

/* Access sets of a pointer's array (reads, writes, atomics), and offsets. */
bool __read(const volatile void *p);
bool __write(const volatile void *p);
bool __atomic(const volatile void *p);
bool __no_read(const volatile void *p);
bool __no_write(const volatile void *p);
bool __read_implies(const volatile void *p, bool expr);
bool __write_implies(const volatile void *p, bool expr);
size_t __read_offset_bytes(const volatile void *p);
size_t __write_offset_bytes(const volatile void *p);
size_t __read_offset(const volatile void *p);
size_t __write_offset(const volatile void *p);
int __ptr_base(const volatile void *p);
size_t __ptr_offset_bytes(const volatile void *p);
size_t __ptr_offset(const volatile void *p);
void __reads_from(const volatile void *p);
void __requires_fresh_array(const volatile void *p);
void __writes_to(const volatile void *p);
void __array_snapshot(void *dst, void *src);
bool __atomic_has_taken_value(unsigned int *atomic_array, unsigned int offset,
                              unsigned int value);

/* Two-thread predicates: the value in the other thread of the pair. */
int __other_int(int expr);
bool __other_bool(bool expr);
bool __uniform_int(int expr);
bool __uniform_bool(bool expr);
bool __distinct_int(int expr);
bool __distinct_bool(bool expr);
bool __all(bool expr);
bool __exclusive(bool expr);
bool __at_most_one(bool expr);
bool __same_group(void);

#pragma clang attribute pop

#define __same_group __same_group()

#define __warpsafe_axiom_name(n) __axiom_##n
#define __warpsafe_axiom_at(e, n)                                                            \
  __attribute__((device)) bool __warpsafe_axiom_name(n)(void) { return (e); }
#define __axiom(e) __warpsafe_axiom_at(e, __COUNTER__)

/* GPUVerify's helpers. */
#define __is_pow2(x) ((((x) & ((x)-1)) == 0))
#define __mod_pow2(x, y) (((y)-1) & (x))

/* GPUVerify's CUDA preamble defines the CUDART_* constants: the CUDA samples'
 * kernel files in its benchmarks (oceanFFT's generateSpectrumKernel.cu) use
 * CUDART_PI_F, reached in the sample through the file that includes them. */
#include <math_constants.h>

/* A file in GPUVerify's test form (first line `//pass` or `//xfail:...`; the
 * driver defines __WARPSAFE_GPUVERIFY__ for it) gets what GPUVerify's CUDA
 * preamble gives every kernel: element-wise arithmetic on the vector types
 * (`float4 * float`, `make_float3(float4)`, `make_float4(0.0f)`: our
 * helper_math.h, its functions `__device__` as the kernels redeclare them) and
 * the cuRAND device API (`curandState` with no #include). */
#ifdef __WARPSAFE_GPUVERIFY__
#define WARPSAFE_HELPER_MATH_DEVICE_ONLY 1
#include <helper_math.h>
#include <curand_kernel.h>
#endif

#endif /* WARPSAFE_GPUVERIFY_H */
