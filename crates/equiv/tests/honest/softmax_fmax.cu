// Softmax of each row (one thread per row, two rows): the row maximum with fmaxf.
//--blockDim=1 --gridDim=2
//@ len(x) = 16
//@ len(y) = 16
__global__ void softmax_rows(const float* x, float* y)
{
    const float* r = x + blockIdx.x * 8;
    float m = r[0];
    for (int i = 1; i < 8; i++) m = fmaxf(m, r[i]);
    float s = 0.0f;
    for (int i = 0; i < 8; i++) s += expf(r[i] - m);
    for (int i = 0; i < 8; i++) y[blockIdx.x * 8 + i] = expf(r[i] - m) / s;
}
