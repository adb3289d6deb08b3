// Online softmax, one thread per row (the FlashAttention inner loop without the matrix
// products): a running maximum started at -INFINITY and a running sum rescaled by
// exp(m_old - m_new) whenever the maximum grows, then every element divided by the sum.
// The header fixes one launch for `run`; the //@ lines speak for every n (at least one
// element a row, the row offsets within int).
//--blockDim=4 --gridDim=1
//@ arg n = 128
//@ len(x) = 4 * n
//@ len(y) = 4 * n
//@ requires 1 <= n && n <= 536870911
//@ requires gridDim.x * blockDim.x >= 4

__global__ void softmax_online_row(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= 4) return;
    float m = -INFINITY;
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        float v = x[row * n + i];
        float mn = fmaxf(m, v);
        s = s * expf(m - mn) + expf(v - mn);
        m = mn;
    }
    for (int i = 0; i < n; i++) y[row * n + i] = expf(x[row * n + i] - m) / s;
}
