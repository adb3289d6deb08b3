//--blockDim=1 --gridDim=4
//@ len(x) = 4 * 16
//@ len(y) = 4 * 16
#define D 16
__global__ void layernorm(const float* x, float* y)
{
    int row = blockIdx.x;
    float mean = 0.0f;
    for (int i = 0; i < D; i++) mean += x[row * D + i];
    mean = mean / D;
    float var = 0.0f;
    for (int i = 0; i < D; i++) var += (x[row * D + i] - mean) * (x[row * D + i] - mean);
    var = var / D;
    for (int i = 0; i < D; i++) y[row * D + i] = (x[row * D + i] - mean) / sqrtf(var + 1e-5f);
}
