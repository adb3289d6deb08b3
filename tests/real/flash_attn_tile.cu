// A flash-attention-style forward kernel (one head, HEAD_DIM = 32): each block owns Br query rows
// (one per thread) and streams K and V through shared memory in Br-row tiles, keeping the
// online-softmax state (running max m, running sum l, output accumulator) in registers.
// Idiom: `extern __shared__ float smem[];` carved into Q/K/V tiles by pointer arithmetic with
// the launch's block size, `-INFINITY` initialisation, `__expf`, `if (s > m_new) m_new = s`,
// a barrier after the tile loads and one before the next tile overwrites K and V.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=64 --gridDim=4
//@ arg seq_len = 256
//@ len(Q) = seq_len * 32
//@ len(K) = seq_len * 32
//@ len(V) = seq_len * 32
//@ len(O) = seq_len * 32
//@ shared_bytes = 3 * blockDim.x * 32 * 4
//@ requires seq_len == gridDim.x * blockDim.x
#include <cuda_runtime.h>
#include <math.h>

constexpr int HEAD_DIM = 32;

__global__ void flash_attn_fwd(const float* __restrict__ Q, const float* __restrict__ K,
                               const float* __restrict__ V, float* __restrict__ O, int seq_len,
                               float scale)
{
    extern __shared__ float smem[];
    const int Br = blockDim.x;
    float* Qs = smem;
    float* Ks = Qs + Br * HEAD_DIM;
    float* Vs = Ks + Br * HEAD_DIM;

    const int tx = threadIdx.x;
    const int row = blockIdx.x * Br + tx;
    for (int d = 0; d < HEAD_DIM; ++d) Qs[tx * HEAD_DIM + d] = Q[row * HEAD_DIM + d];

    float m = -INFINITY, l = 0.0f;
    float acc[HEAD_DIM];
    for (int d = 0; d < HEAD_DIM; ++d) acc[d] = 0.0f;

    for (int kv0 = 0; kv0 < seq_len; kv0 += Br) {
        for (int d = 0; d < HEAD_DIM; ++d) {
            Ks[tx * HEAD_DIM + d] = K[(kv0 + tx) * HEAD_DIM + d];
            Vs[tx * HEAD_DIM + d] = V[(kv0 + tx) * HEAD_DIM + d];
        }
        __syncthreads();
        for (int j = 0; j < Br; ++j) {
            float s = 0.0f;
            for (int d = 0; d < HEAD_DIM; ++d) s += Qs[tx * HEAD_DIM + d] * Ks[j * HEAD_DIM + d];
            s *= scale;
            float m_new = m;
            if (s > m_new) m_new = s;
            const float correction = __expf(m - m_new);
            const float p = __expf(s - m_new);
            l = l * correction + p;
            for (int d = 0; d < HEAD_DIM; ++d) acc[d] = acc[d] * correction + p * Vs[j * HEAD_DIM + d];
            m = m_new;
        }
        __syncthreads();  // everyone is done with this K/V tile
    }
    for (int d = 0; d < HEAD_DIM; ++d) O[row * HEAD_DIM + d] = acc[d] / l;
}

void attention(const float* q, const float* k, const float* v, float* o, int seq_len)
{
    const int Br = 64;
    const size_t smem_bytes = 3 * Br * HEAD_DIM * sizeof(float);
    flash_attn_fwd<<<seq_len / Br, Br, smem_bytes>>>(q, k, v, o, seq_len, 1.0f / sqrtf((float)HEAD_DIM));
}
