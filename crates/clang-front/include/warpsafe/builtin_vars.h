/* warpsafe device headers: the built-in variables (Programming Guide,
 * "Built-in Variables"). They are plain read-only device variables, so
 * `threadIdx.x` is a MemberExpr (field `x`, unsigned int) on a DeclRefExpr
 * named `threadIdx`. */
#ifndef WARPSAFE_BUILTIN_VARS_H
#define WARPSAFE_BUILTIN_VARS_H

#pragma clang system_header

extern const __attribute__((device)) uint3 threadIdx;
extern const __attribute__((device)) uint3 blockIdx;
extern const __attribute__((device)) dim3 blockDim;
extern const __attribute__((device)) dim3 gridDim;
extern const __attribute__((device)) int warpSize;

#endif /* WARPSAFE_BUILTIN_VARS_H */
