// Buggy twin: positive inputs are also written to the neighbour's cell, which the neighbour
// writes too. The racing store is under a branch on the data, so whether it runs depends on the
// input: the checker must not call the kernels equal (and cannot call the race certain).
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void relu(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    y[i] = fmaxf(v, 0.0f);
    if (v > 0.0f && i + 1 < 128) {
        y[i + 1] = v;
    }
}
