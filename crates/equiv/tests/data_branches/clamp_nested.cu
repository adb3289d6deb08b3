// Clamp to [0, 1] with nested branches on the data.
//--blockDim=32 --gridDim=1
//@ len(x) = 32
//@ len(y) = 32
__global__ void clamp01(const float* x, float* y)
{
    int i = threadIdx.x;
    float v = x[i];
    if (v > 1.0f) {
        v = 1.0f;
    } else if (v < 0.0f) {
        v = 0.0f;
    }
    y[i] = v;
}
