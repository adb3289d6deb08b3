// Buggy twin: positive inputs are copied one cell to the right as well, past the end for the
// last thread. The out-of-bounds store is under a branch on the data.
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void relu(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    y[i] = fmaxf(v, 0.0f);
    if (v > 0.0f) {
        y[i + 1] = v;
    }
}
