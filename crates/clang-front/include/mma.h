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
  typedef typename __warpsafe_storage<T>::type element_type;
  typedef typename __warpsafe_storage<T>::type storage_element_type;
  enum { num_elements = __warpsafe_tile<Use, M, N, K>::elements / 32 };
  element_type x[num_elements];
};

#pragma clang attribute push(__attribute__((device)), apply_to = function)

template <class Use, int M, int N, int K, class T, class Layout>
void fill_fragment(fragment<Use, M, N, K, T, Layout> &a,
                   const typename fragment<Use, M, N, K, T, Layout>::element_type &v);
/* matrix_a / matrix_b: the layout is part of the fragment's type. */
template <class Use, int M, int N, int K, class T, class Layout>
void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &a,
                      const typename __warpsafe_storage<T>::type *mptr, unsigned int ldm);
/* accumulator: the layout is an argument. */
template <int M, int N, int K, class T>
void load_matrix_sync(fragment<accumulator, M, N, K, T> &a, const T *mptr, unsigned int ldm,
                      layout_t layout);
template <int M, int N, int K, class T>
void store_matrix_sync(T *mptr, const fragment<accumulator, M, N, K, T> &a, unsigned int ldm,
                       layout_t layout);
template <int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
void mma_sync(fragment<accumulator, M, N, K, Td> &d, const fragment<matrix_a, M, N, K, Ta, La> &a,
              const fragment<matrix_b, M, N, K, Tb, Lb> &b,
              const fragment<accumulator, M, N, K, Tc> &c, bool satf = false);
float __float_to_tf32(float in);

#pragma clang attribute pop

} /* namespace wmma */
} /* namespace nvcuda */

#endif /* WARPSAFE_MMA_H */
