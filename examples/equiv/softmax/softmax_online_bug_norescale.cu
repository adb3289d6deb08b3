// Buggy twin of the online softmax: the running sum is not rescaled when the maximum grows
// (expect different).
//--blockDim=32 --gridDim=4
//@ arg n = 128
//@ len(x) = n * gridDim.x
//@ len(y) = n * gridDim.x

__global__ void softmax_online_bug_norescale(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float sm[32];
    __shared__ float ss[32];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    // Online pass over this thread's elements: running maximum and rescaled sum.
    float m = x[row * n + tid];
    float s = 1.0f;
    for (int i = tid + blockDim.x; i < n; i += blockDim.x) {
        float v = x[row * n + i];
        float mn = fmaxf(m, v);
        s = s + expf(v - mn);
        m = mn;
    }
    sm[tid] = m;
    ss[tid] = s;
    __syncthreads();
    // Merge the (max, sum) pairs of the threads by a tree.
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (tid < st) {
            float m1 = sm[tid];
            float m2 = sm[tid + st];
            float mn = fmaxf(m1, m2);
            ss[tid] = ss[tid] + ss[tid + st];
            sm[tid] = mn;
        }
        __syncthreads();
    }
    float M = sm[0];
    float S = ss[0];
    for (int i = tid; i < n; i += blockDim.x) {
        y[row * n + i] = expf(x[row * n + i] - M) / S;
    }
}
