// ReLU with a branch on the data: both sides store, under complementary conditions.
//--blockDim=64 --gridDim=2
//@ len(x) = 128
//@ len(y) = 128
__global__ void relu(const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    if (v > 0.0f) {
        y[i] = v;
    } else {
        y[i] = 0.0f;
    }
}
