/* warpsafe device headers: <mma.h>, warp matrix multiply-accumulate
 * (Programming Guide, "Warp Matrix Functions"): nvcuda::wmma fragments and
 * the load / store / fill / mma operations. How a fragment's elements map to
 * threads is unspecified by the guide; here each thread holds
 * rows * cols / 32 elements of the tile (matrix_a: M x K, matrix_b: K x N,
 * accumulator: M x N). */
#ifndef WARPSAFE_MMA_H
#define WARPSAFE_MMA_H
#pragma clang system_header
#include <warpsafe/cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace nvcuda {
namespace wmma {

struct matrix_a;
struct matrix_b;
struct accumulator;
struct row_major;
struct col_major;
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32;
struct b1;
struct u4;
struct s4;
} /* namespace precision */
namespace experimental {
namespace precision = ::nvcuda::wmma::precision;
} /* namespace experimental */

/* Element type a fragment stores for its type parameter. */
template <class T> struct __warpsafe_storage { typedef T type; };
template <> struct __warpsafe_storage<precision::tf32> { typedef float type; };
template <> struct __warpsafe_storage<precision::b1> { typedef unsigned int type; };
template <> struct __warpsafe_storage<precision::u4> { typedef unsigned int type; };
template <> struct __warpsafe_storage<precision::s4> { typedef int type; };

/* Tile rows x cols a fragment role covers. */
template <class Use, int M, int N, int K> struct __warpsafe_tile;
template <int M, int N, int K> struct __warpsafe_tile<matrix_a, M, N, K> {
  enum { elements = M * K };
};
template <int M, int N, int K> struct __warpsafe_tile<matrix_b, M, N, K> {
  enum { elements = K * N };
};
template <int M, int N, int K> struct __warpsafe_tile<accumulator, M, N, K> {
  enum { elements = M * N };
};

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
public:
  typedef T element_type;
  typedef T storage_element_type;
  enum { num_elements = __warpsafe_tile<Use, M, N, K>::elements / 32 };
  T x[num_elements];
};
/* tf32 operands are held as floats. */
template <class Use, int M, int N, int K, class Layout>
class fragment<Use, M, N, K, precision::tf32, Layout> {
public:
  typedef float element_type;
  typedef float storage_element_type;
  enum { num_elements = __warpsafe_tile<Use, M, N, K>::elements / 32 };
  float x[num_elements];
};

#pragma clang attribute push(__attribute__((device)), apply_to = function)

float __float_to_tf32(float in);

/* The fragment layout (ours; the guide leaves it unspecified). Thread `lane`
 * holds elements lane * n .. lane * n + n - 1 (n = num_elements) of its tile
 * in this order: matrix_a and the accumulator row by row (M x K, M x N),
 * matrix_b column by column (N x K). With n dividing K, element k % n of
 * lane (row * K + k) / n holds A[row][k] and element k % n of lane
 * (col * K + k) / n holds B[k][col], so mma_sync gathers its operands with
 * shuffles whose source element is the same on every lane. Every operation
 * first waits for the warp (`__syncwarp`): the guide requires all lanes to
 * arrive, and the wait orders the lanes' memory accesses. */

/* A fragment element widened to the type its products are taken in. */
inline float __warpsafe_wide(__half v) { return __half2float(v); }
inline float __warpsafe_wide(__nv_bfloat16 v) { return __bfloat162float(v); }
inline float __warpsafe_wide(float v) { return v; }
inline double __warpsafe_wide(double v) { return v; }
inline int __warpsafe_wide(signed char v) { return v; }
inline int __warpsafe_wide(unsigned char v) { return v; }
inline int __warpsafe_wide(int v) { return v; }

/* The elements a thread holds of a fragment of role U (in a template with M, N, K). */
#define __WARPSAFE_N(U) (__warpsafe_tile<U, M, N, K>::elements / 32)

/* The lane of this thread in its warp. */
inline unsigned int __warpsafe_lane() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u;
}

template <class Use, int M, int N, int K, class T, class Layout>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout> &a,
                          const typename fragment<Use, M, N, K, T, Layout>::element_type &v) {
  __syncwarp();
  for (int e = 0; e < fragment<Use, M, N, K, T, Layout>::num_elements; ++e)
    a.x[e] = v;
}

/* matrix_a / matrix_b: the layout is part of the fragment's type. */
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<matrix_a, M, N, K, T, row_major> &a,
                             const P *mptr, unsigned int ldm) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(matrix_a); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(matrix_a) + e;
    a.x[e] = mptr[(p / K) * ldm + p % K];
  }
}
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<matrix_a, M, N, K, T, col_major> &a,
                             const P *mptr, unsigned int ldm) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(matrix_a); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(matrix_a) + e;
    a.x[e] = mptr[(p % K) * ldm + p / K];
  }
}
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<matrix_b, M, N, K, T, row_major> &b,
                             const P *mptr, unsigned int ldm) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(matrix_b); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(matrix_b) + e;
    b.x[e] = mptr[(p % K) * ldm + p / K];
  }
}
template <int M, int N, int K, class T, class P>
inline void load_matrix_sync(fragment<matrix_b, M, N, K, T, col_major> &b,
                             const P *mptr, unsigned int ldm) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(matrix_b); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(matrix_b) + e;
    b.x[e] = mptr[(p / K) * ldm + p % K];
  }
}
/* accumulator: the layout is an argument. */
template <int M, int N, int K, class T>
inline void load_matrix_sync(fragment<accumulator, M, N, K, T> &c, const T *mptr, unsigned int ldm,
                             layout_t layout) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(accumulator); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(accumulator) + e;
    c.x[e] = layout == mem_row_major ? mptr[(p / N) * ldm + p % N] : mptr[(p % N) * ldm + p / N];
  }
}
template <int M, int N, int K, class T>
inline void store_matrix_sync(T *mptr, const fragment<accumulator, M, N, K, T> &c, unsigned int ldm,
                              layout_t layout) {
  __syncwarp();
  for (int e = 0; e < __WARPSAFE_N(accumulator); ++e) {
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(accumulator) + e;
    if (layout == mem_row_major)
      mptr[(p / N) * ldm + p % N] = c.x[e];
    else
      mptr[(p % N) * ldm + p / N] = c.x[e];
  }
}
/* D = A B + C, each element's products summed in k order onto C's element.
 * One loop over (element, k) pairs, so every iteration shuffles twice.
 * `satf` (saturate to finite) is not modelled: it is ignored. */
template <int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
inline void mma_sync(fragment<accumulator, M, N, K, Td> &d,
                     const fragment<matrix_a, M, N, K, Ta, La> &a,
                     const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                     const fragment<accumulator, M, N, K, Tc> &c, bool satf = false) {
  __syncwarp();
  static_assert(K % __WARPSAFE_N(matrix_a) == 0 && K % __WARPSAFE_N(matrix_b) == 0,
                "warpsafe: unsupported wmma shape");
  for (int t = 0; t < __WARPSAFE_N(accumulator) * K; ++t) {
    int e = t / K, k = t % K;
    unsigned int p = __warpsafe_lane() * __WARPSAFE_N(accumulator) + e;
    unsigned int row = p / N, col = p % N;
    auto av = __shfl_sync(0xffffffffu, __warpsafe_wide(a.x[k % __WARPSAFE_N(matrix_a)]),
                          (row * K + k) / __WARPSAFE_N(matrix_a));
    auto bv = __shfl_sync(0xffffffffu, __warpsafe_wide(b.x[k % __WARPSAFE_N(matrix_b)]),
                          (col * K + k) / __WARPSAFE_N(matrix_b));
    d.x[e] = (k == 0 ? __warpsafe_wide(c.x[e]) : __warpsafe_wide(d.x[e])) + av * bv;
  }
}

#undef __WARPSAFE_N

#pragma clang attribute pop

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* WARPSAFE_MMA_H */
