// FlashAttention forward of the sized family, written for `prove` at every sequence length:
// the kernel of attention_sized_flash.cu (one thread per query row, key/value tiles of BC rows
// staged in `extern __shared__` memory, the running maximum from -INFINITY grown by a branch,
// `__expf`, the running sum and output rescaled by exp(m_old - m_new) after every tile, o / l
// at the end) with the sequence length n read from the launch (n = gridDim.x * blockDim.x
// queries and keys) instead of a macro, so one proof speaks for every n.
// `warpsafe prove attention_sized_flash_every_n.cu --spec ../specs/attention.spec` proves
// O = softmax(scale · Q Kᵀ) V for every n that is a multiple of the key tile (blocks of 16
// threads), at the head dimension D below; the header's launch is the one `run` uses.
//--blockDim=16 --gridDim=4
//@ arg scale = 0.125
//@ len(Q) = gridDim.x * blockDim.x * D
//@ len(K) = gridDim.x * blockDim.x * D
//@ len(V) = gridDim.x * blockDim.x * D
//@ len(O) = gridDim.x * blockDim.x * D
//@ shared_bytes = 2 * BC * D * 4
//@ requires blockDim.x == BC
//@ requires gridDim.x <= 1048576
#include <cuda_runtime.h>
#include <math.h>

#define D 8
#define BC 16

__global__ void attention_sized_flash_every_n(const float* __restrict__ Q,
                                              const float* __restrict__ K,
                                              const float* __restrict__ V,
                                              float* __restrict__ O, float scale)
{
    extern __shared__ float smem[];
    float* Ks = smem;
    float* Vs = smem + BC * D;
    const int n = gridDim.x * blockDim.x;
    const int tx = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + tx;
    float q[D];
    float o[D];
    float s[BC];
    for (int c = 0; c < D; c++) {
        q[c] = Q[i * D + c];
        o[c] = 0.0f;
    }
    float m = -INFINITY;
    float l = 0.0f;
    for (int kb = 0; kb < n; kb += BC) {
        // Stage a tile of BC keys and values in shared memory.
        for (int e = tx; e < BC * D; e += blockDim.x) {
            Ks[e] = K[kb * D + e];
            Vs[e] = V[kb * D + e];
        }
        __syncthreads();
        float mt = m;
        for (int j = 0; j < BC; j++) {
            float acc = 0.0f;
            for (int c = 0; c < D; c++) acc += q[c] * Ks[j * D + c];
            s[j] = acc * scale;
            if (s[j] > mt) mt = s[j];
        }
        const float alpha = __expf(m - mt);
        float rowsum = 0.0f;
        for (int j = 0; j < BC; j++) {
            s[j] = __expf(s[j] - mt);
            rowsum += s[j];
        }
        l = l * alpha + rowsum;
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int j = 0; j < BC; j++) acc += s[j] * Vs[j * D + c];
            o[c] = o[c] * alpha + acc;
        }
        m = mt;
        __syncthreads();  // every thread is done with this tile before the next overwrites it
    }
    for (int c = 0; c < D; c++) O[i * D + c] = o[c] / l;
}
