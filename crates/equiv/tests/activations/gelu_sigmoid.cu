// GELU, tanh approximation, as x * sigmoid(2u): 0.5 x (1 + tanh u) = x / (1 + e^{-2u}).
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void gelu(const float* __restrict__ x, float* __restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = v / (1.0f + __expf(-2.0f * u));
}
