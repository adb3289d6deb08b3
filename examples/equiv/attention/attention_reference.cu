// Attention for one head, O = softmax(Q K^T / sqrt(d)) V with 64 queries and keys, d = 32,
// computed by a single thread: scores of a row, their maximum, exponentials, weighted sum.
//--blockDim=1 --gridDim=1
//@ len(Q) = 64 * 32
//@ len(K) = 64 * 32
//@ len(V) = 64 * 32
//@ len(O) = 64 * 32

#define N 64
#define D 32
#define SCALE 0.17677669529663687f
#define NEG_INF (-1.0f / 0.0f)

__global__ void attention_reference(const float* __restrict__ Q, const float* __restrict__ K,
                                    const float* __restrict__ V, float* __restrict__ O)
{
    float s[N];
    for (int i = 0; i < N; i++) {
        float m = NEG_INF;
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int c = 0; c < D; c++) acc += Q[i * D + c] * K[j * D + c];
            s[j] = acc * SCALE;
            m = fmaxf(m, s[j]);
        }
        float l = 0.0f;
        for (int j = 0; j < N; j++) {
            s[j] = expf(s[j] - m);
            l += s[j];
        }
        for (int c = 0; c < D; c++) {
            float o = 0.0f;
            for (int j = 0; j < N; j++) o += s[j] * V[j * D + c];
            O[i * D + c] = o / l;
        }
    }
}
