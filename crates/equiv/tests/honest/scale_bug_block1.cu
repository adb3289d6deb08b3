// Buggy twin: block 1 computes x + x + 1. Block 0 alone is correct, so only a check of every
// block finds it.
//--blockDim=32 --gridDim=4
//@ len(x) = 128
//@ len(y) = 128
__global__ void scale(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 1) {
        y[i] = x[i] + x[i] + 1.0f;
    } else {
        y[i] = x[i] + x[i];
    }
}
