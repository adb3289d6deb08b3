// Clamp to [0, 1] with fminf/fmaxf.
//--blockDim=32 --gridDim=1
//@ len(x) = 32
//@ len(y) = 32
__global__ void clamp01(const float* x, float* y)
{
    int i = threadIdx.x;
    y[i] = fminf(fmaxf(x[i], 0.0f), 1.0f);
}
