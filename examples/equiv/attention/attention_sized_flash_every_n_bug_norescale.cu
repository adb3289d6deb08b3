// Buggy twin of attention_sized_flash_every_n.cu: the running sum and output are not
// rescaled by exp(m_old - m_new) when the running maximum grows (`prove` must not prove it).
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

__global__ void attention_sized_flash_every_n_bug_norescale(const float* __restrict__ Q,
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
        l = l + rowsum;  // bug: the running sum is not rescaled
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int j = 0; j < BC; j++) acc += s[j] * Vs[j * D + c];
            o[c] = o[c] + acc;  // bug: nor is the output
        }
        m = mt;
        __syncthreads();  // every thread is done with this tile before the next overwrites it
    }
    for (int c = 0; c < D; c++) O[i * D + c] = o[c] / l;
}
