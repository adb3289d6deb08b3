// FlashAttention-style tiled attention for one head (64 queries and keys, d = 32), written the
// way minimal upstream implementations write it: key/value tiles of 16 in dynamic shared memory
// (`extern __shared__`, its size from the header), the running maximum started at -INFINITY
// and grown by a branch on the scores, `__expf`, and the running sum and output rescaled by
// exp(m_old - m_new) after every tile. Buggy twin: no barrier at the end of a tile, so fast
// threads overwrite the shared tile that slow ones still read (a race).
//--blockDim=64 --gridDim=1
//@ shared_bytes = 2 * 16 * 32 * 4
//@ len(Q) = 64 * 32
//@ len(K) = 64 * 32
//@ len(V) = 64 * 32
//@ len(O) = 64 * 32

#define N 64
#define D 32
#define SCALE 0.17677669529663687f
#define BC 16

__global__ void attention_flash_upstream_bug_nosync(const float* __restrict__ Q, const float* __restrict__ K,
                                const float* __restrict__ V, float* __restrict__ O)
{
    extern __shared__ float smem[];
    float* Ks = smem;
    float* Vs = smem + BC * D;
    int i = threadIdx.x;
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
            if (s[j] > mt) mt = s[j];
        }
        float alpha = __expf(m - mt);
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
    }
    for (int c = 0; c < D; c++) O[i * D + c] = o[c] / l;
}
