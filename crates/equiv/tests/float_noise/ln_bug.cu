//--blockDim=32 --gridDim=4
//@ len(x) = 4 * 16
//@ len(y) = 4 * 16
#define D 16
__global__ void layernorm(const float* x, float* y)
{
    int row = blockIdx.x, t = threadIdx.x;
    float v = t < D ? x[row * D + t] : 0.0f;
    float s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    float mean = s * (1.0f / D);
    float d = t < D ? v - mean : 0.0f;
    float q = d * d;
    for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffff, q, o);
    float inv = rsqrtf(q / D);
    if (t < D) y[row * D + t] = d * inv;
}
