//--blockDim=1 --gridDim=4
//@ len(x) = 4 * 16
//@ len(y) = 4 * 16
#define D 16
__global__ void rmsnorm(const float* x, float* y)
{
    int row = blockIdx.x;
    float ms = 0.0f;
    for (int i = 0; i < D; i++) ms += x[row * D + i] * x[row * D + i];
    ms = ms / D;
    for (int i = 0; i < D; i++) y[row * D + i] = x[row * D + i] / sqrtf(ms + 1e-6f);
}
