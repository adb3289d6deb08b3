// Buggy twin of softmax_online_row.cu: the running sum is not rescaled by exp(m_old - m_new)
// when the running maximum grows.
//--blockDim=4 --gridDim=1
//@ arg n = 128
//@ len(x) = 4 * n
//@ len(y) = 4 * n
//@ requires 1 <= n && n <= 536870911
//@ requires gridDim.x * blockDim.x >= 4

__global__ void softmax_online_row_bug_norescale(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= 4) return;
    float m = -INFINITY;
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        float v = x[row * n + i];
        float mn = fmaxf(m, v);
        s = s + expf(v - mn);  // bug: the sum is not rescaled when the maximum grows
        m = mn;
    }
    for (int i = 0; i < n; i++) y[row * n + i] = expf(x[row * n + i] - m) / s;
}
