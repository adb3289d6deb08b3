//--blockDim=32 --gridDim=4
//@ len(x) = 4 * 16
//@ len(y) = 4 * 16
#define D 16
__global__ void rmsnorm(const float* x, float* y)
{
    int row = blockIdx.x, t = threadIdx.x;
    float v = t < D ? x[row * D + t] : 0.0f;
    float q = v * v;
    for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffff, q, o);
    if (t < D) y[row * D + t] = v / (sqrtf(q * (1.0f / D)) + 1e-6f);
}
