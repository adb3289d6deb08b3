// FlashAttention forward of the sized family, as minimal upstream kernels write it: one thread
// per query row, key/value tiles of BC rows staged in dynamic shared memory
// (`extern __shared__`, its size the launch's third argument), the running maximum started at
// -INFINITY and grown by a branch on the scores, `__expf`, and the running sum and output
// rescaled by exp(m_old - m_new) after every tile. Sizes: the macros N and D (defaults 64 and
// 32; N a multiple of BC); launch and buffer lengths from the host code below.
#include <cuda_runtime.h>
#include <math.h>

#ifndef N
#define N 64
#endif
#ifndef D
#define D 32
#endif
#define BC 16

__global__ void attention_sized_flash(const float* __restrict__ Q, const float* __restrict__ K,
                                      const float* __restrict__ V, float* __restrict__ O,
                                      float scale)
{
    extern __shared__ float smem[];
    float* Ks = smem;
    float* Vs = smem + BC * D;
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
    for (int kb = 0; kb < N; kb += BC) {
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

void attention(float scale)
{
    float *Q, *K, *V, *O;
    cudaMalloc(&Q, N * D * sizeof(float));
    cudaMalloc(&K, N * D * sizeof(float));
    cudaMalloc(&V, N * D * sizeof(float));
    cudaMalloc(&O, N * D * sizeof(float));
    attention_sized_flash<<<1, N, 2 * BC * D * sizeof(float)>>>(Q, K, V, O, scale);
}
