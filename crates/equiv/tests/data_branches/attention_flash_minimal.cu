// FlashAttention forward in the style of minimal single-file implementations: query tiles of
// Br rows per block (one thread per row), key/value tiles of Bc staged in shared memory, the
// running maximum and sum kept in global buffers m and l (initialised to -inf and 0), the
// row maximum found by a branch on the scores, and the output re-normalised after every tile.
//--blockDim=4 --gridDim=2
//@ len(Q) = 8 * 4
//@ len(K) = 8 * 4
//@ len(V) = 8 * 4
//@ len(O) = 8 * 4
//@ len(l) = 8
//@ len(m) = 8
//@ init(O) = 0
//@ init(l) = 0
//@ init(m) = -inf
#define N 8
#define D 4
#define BC 4
#define BR 4
__global__ void attention_flash(const float* Q, const float* K, const float* V, float* O,
                                float* l, float* m)
{
    const float scale = 0.5f;
    __shared__ float Kj[BC * D];
    __shared__ float Vj[BC * D];
    float S[BC];
    int tx = threadIdx.x;
    int row = blockIdx.x * BR + tx;
    for (int j = 0; j < N / BC; j++) {
        for (int c = 0; c < D; c++) {
            Kj[tx * D + c] = K[(j * BC + tx) * D + c];
            Vj[tx * D + c] = V[(j * BC + tx) * D + c];
        }
        __syncthreads();
        float row_m_prev = m[row];
        float row_l_prev = l[row];
        float row_m = -INFINITY;
        for (int y = 0; y < BC; y++) {
            float sum = 0.0f;
            for (int c = 0; c < D; c++) sum += Q[row * D + c] * Kj[y * D + c];
            sum *= scale;
            S[y] = sum;
            if (sum > row_m) row_m = sum;
        }
        float row_l = 0.0f;
        for (int y = 0; y < BC; y++) {
            S[y] = __expf(S[y] - row_m);
            row_l += S[y];
        }
        float row_m_new = fmaxf(row_m_prev, row_m);
        float row_l_new = __expf(row_m_prev - row_m_new) * row_l_prev
                          + __expf(row_m - row_m_new) * row_l;
        for (int c = 0; c < D; c++) {
            float pv = 0.0f;
            for (int y = 0; y < BC; y++) pv += S[y] * Vj[y * D + c];
            O[row * D + c] = (1.0f / row_l_new)
                * (row_l_prev * __expf(row_m_prev - row_m_new) * O[row * D + c]
                   + __expf(row_m - row_m_new) * pv);
        }
        m[row] = row_m_new;
        l[row] = row_l_new;
        __syncthreads();
    }
}
