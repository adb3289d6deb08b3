// Attention for one head, O = softmax(Q K^T / sqrt(d)) V, 8 queries and keys, d = 4, by a
// single thread.
//--blockDim=1 --gridDim=1
//@ len(Q) = 8 * 4
//@ len(K) = 8 * 4
//@ len(V) = 8 * 4
//@ len(O) = 8 * 4
//@ init(O) = 0
#define N 8
#define D 4
__global__ void attention_reference(const float* Q, const float* K, const float* V, float* O)
{
    const float scale = 0.5f;
    float s[N];
    for (int i = 0; i < N; i++) {
        float m = -INFINITY;
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int c = 0; c < D; c++) acc += Q[i * D + c] * K[j * D + c];
            s[j] = acc * scale;
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
