// y = 2x over four blocks of 32 threads.
//--blockDim=32 --gridDim=4
//@ len(x) = 128
//@ len(y) = 128
__global__ void scale(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i];
}
