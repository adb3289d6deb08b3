// Buggy twin of the tiled attention: the running sum and output are not rescaled when the
// running maximum grows (expect different).
//--blockDim=64 --gridDim=1
//@ len(Q) = 64 * 32
//@ len(K) = 64 * 32
//@ len(V) = 64 * 32
//@ len(O) = 64 * 32

#define N 64
#define D 32
#define SCALE 0.17677669529663687f
#define NEG_INF (-1.0f / 0.0f)
#define BC 16

__global__ void attention_flash_bug_norescale(const float* __restrict__ Q, const float* __restrict__ K,
                                const float* __restrict__ V, float* __restrict__ O)
{
    __shared__ float Ks[BC * D];
    __shared__ float Vs[BC * D];
    int i = threadIdx.x;
    float q[D];
    float o[D];
    float s[BC];
    for (int c = 0; c < D; c++) {
        q[c] = Q[i * D + c];
        o[c] = 0.0f;
    }
    float m = NEG_INF;
    float l = 0.0f;
    for (int kb = 0; kb < N; kb += BC) {
        // Stage a tile of BC keys and values in shared memory.
        for (int e = threadIdx.x; e < BC * D; e += blockDim.x) {
            Ks[e] = K[kb * D + e];
            Vs[e] = V[kb * D + e];
        }
        __syncthreads();
        float mt = m;
        for (int j = 0; j < BC; j++) {
            float acc = 0.0f;
            for (int c = 0; c < D; c++) acc += q[c] * Ks[j * D + c];
            s[j] = acc * SCALE;
            mt = fmaxf(mt, s[j]);
        }
        float alpha = expf(m - mt);
        float rowsum = 0.0f;
        for (int j = 0; j < BC; j++) {
            s[j] = expf(s[j] - mt);
            rowsum += s[j];
        }
        l = l + rowsum;
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int j = 0; j < BC; j++) acc += s[j] * Vs[j * D + c];
            o[c] = o[c] + acc;
        }
        m = mt;
        __syncthreads();
    }
    for (int c = 0; c < D; c++) O[i * D + c] = o[c] / l;
}
