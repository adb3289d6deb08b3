/* warpsafe device headers: the file clang force-includes into every .cu file
 * (`-include warpsafe/cuda_runtime.h`), standing in for what nvcc includes
 * implicitly. There is no CUDA toolkit behind it (`-nocudainc`): everything here
 * is written by the warpsafe authors from the CUDA C++ Programming Guide and the
 * CUDA Runtime / Math API references, as declarations.
 *
 * Conventions (the translator relies on them):
 *  - Every declaration lives under crates/clang-front/include, so "declared in
 *    our headers" is a question about the declaration's file.
 *  - Device functions are plain declarations: a call to an intrinsic shows up
 *    in clang's AST as a CallExpr whose callee DeclRefExpr names the CUDA name
 *    (`__popc`, `atomicAdd`, `__shfl_down_sync`, ...).
 *  - Long lists are wrapped in `#pragma clang attribute push(...)` regions that
 *    add `__device__` (or `__host__ __device__`) to every function inside, which
 *    keeps the JSON AST small (no macro expansion locations per declaration).
 *  - The few bodies are trivial and carry a `body:` comment.
 *  - threadIdx / blockIdx / blockDim / gridDim / warpSize are ordinary
 *    `extern const __device__` variables, so `threadIdx.x` is a MemberExpr on a
 *    DeclRefExpr named `threadIdx`.
 */
#ifndef WARPSAFE_CUDA_RUNTIME_H
#define WARPSAFE_CUDA_RUNTIME_H

#pragma clang system_header

/* ---- what nvcc defines ------------------------------------------------- */

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
/* The toolkit release these headers follow (texture references still exist,
 * the `_sync` warp intrinsics too). */
#ifndef CUDA_VERSION
#define CUDA_VERSION 11080
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 11080
#endif
/* Include guards of the toolkit headers code sometimes tests for. */
#define __CUDA_RUNTIME_H__
#define __WARPSAFE_HEADERS__ 1

/* ---- execution-space and variable qualifiers --------------------------- */

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang accepts `managed` only for HIP; a managed variable is a device
 * variable the host may also touch, and the annotation keeps that visible. */
#define __managed__ __attribute__((device)) __attribute__((annotate("__managed__")))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* clang >= 15 knows `__noinline__` as a CUDA keyword (so that libstdc++'s
 * `__attribute__((__noinline__))` keeps working); older clang gets the
 * macro, and include/bits/shared_ptr_base.h hides it from libstdc++. */
#if !defined(__noinline__) && __clang_major__ < 15
#define __noinline__ __attribute__((noinline))
#endif
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#if __has_attribute(grid_constant)
#define __grid_constant__ __attribute__((grid_constant))
#else
#define __grid_constant__
#endif
/* Markers the toolkit puts on its own declarations; nothing for clang. */
#define __device_builtin__
#define __cudart_builtin__
#define __device_builtin_texture_type__ __attribute__((device_builtin_texture_type))
#define __device_builtin_surface_type__ __attribute__((device_builtin_surface_type))
#define CUDARTAPI
#define CUDART_CB
#define CUDAAPI
#define CUDART_DEVICE __device__

#include <stddef.h> /* size_t, the compiler's own (tiny) header */

typedef unsigned int uint;
typedef unsigned short ushort;

#include "vector_types.h"
#include "builtin_vars.h"
#include "runtime_api.h"
#include "device_functions.h"
#include "atomics.h"
#include "math_api.h"
#include "texture.h"
#include "gpuverify.h"
#include "float_limits.h"

#endif /* WARPSAFE_CUDA_RUNTIME_H */
