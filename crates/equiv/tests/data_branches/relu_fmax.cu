// ReLU as the reference writes it: y = max(x, 0).
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void relu(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = fmaxf(x[i], 0.0f);
}
