// GELU, tanh approximation, with tanh spelled through expf (as fused kernels often do):
// tanh(u) = (e^{2u} - 1) / (e^{2u} + 1).
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void gelu(const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    float e = expf(2.0f * u);
    y[i] = 0.5f * v * (1.0f + (e - 1.0f) / (e + 1.0f));
}
