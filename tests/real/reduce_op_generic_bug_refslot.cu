// A generic block reduction parameterised by the operator: `enum class Op { Add, Mul, Max }`
// as a template parameter, a `switch` on it in a `__device__` helper that updates an
// accumulator through a `float&`, `constexpr` helpers, a `using` alias for the index type, a
// namespace, a default argument, `auto`, one explicit and one launch-site instantiation. Each
// thread folds ITEMS inputs into its own shared slot (bound once as `float& mine`), then a
// barrier-per-level tree combines the slots.
// Twin: the reference is bound to `partial[threadIdx.x % (BLOCK / 2)]`, so threads t and
// t + 128 fold their inputs into the same shared slot with plain read-modify-writes.
// verify: race=violated exit=1
//--blockDim=256 --gridDim=4
//@ arg n = 4000
//@ len(in) = n
//@ len(out) = gridDim.x
#include <cuda_runtime.h>

namespace ops {
enum class Op { Add, Mul, Max };
using index_t = int;

constexpr index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }
constexpr index_t tile_elems(index_t block, index_t items) { return block * items; }

template <Op OP>
__host__ __device__ constexpr float identity() { return OP == Op::Add ? 0.0f : OP == Op::Mul ? 1.0f : -1e30f; }

template <Op OP>
__device__ __forceinline__ void combine(float& acc, float v)
{
    switch (OP) {
    case Op::Add: acc += v; break;
    case Op::Mul: acc *= v; break;
    case Op::Max: if (v > acc) acc = v; break;
    }
}

__device__ inline float load_or(const float* p, index_t i, index_t n, float fallback = 0.0f)
{
    return i < n ? p[i] : fallback;
}
}  // namespace ops

template <ops::Op OP, int BLOCK, int ITEMS = 4>
__global__ void __launch_bounds__(BLOCK) block_reduce(const float* __restrict__ in, float* __restrict__ out, ops::index_t n)
{
    using namespace ops;
    __shared__ float partial[BLOCK];
    const index_t base = blockIdx.x * tile_elems(BLOCK, ITEMS) + threadIdx.x * ITEMS;
    float& mine = partial[threadIdx.x % (BLOCK / 2)];
    mine = identity<OP>();
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const auto v = OP == Op::Add ? load_or(in, base + k, n) : load_or(in, base + k, n, identity<OP>());
        combine<OP>(mine, v);
    }
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (static_cast<int>(threadIdx.x) < s) combine<OP>(mine, partial[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

template __global__ void block_reduce<ops::Op::Add, 256>(const float* __restrict__, float* __restrict__, ops::index_t);

void block_max(const float* d_in, float* d_block_max, ops::index_t n)
{
    const auto blocks = ops::ceil_div(n, ops::tile_elems(256, 4));
    block_reduce<ops::Op::Max, 256><<<blocks, 256>>>(d_in, d_block_max, n);
}
