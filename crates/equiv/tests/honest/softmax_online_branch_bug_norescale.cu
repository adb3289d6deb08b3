// Buggy twin: the running sum is not rescaled when the maximum grows. `different`, found by
// replaying the input in the interpreter (the symbolic run stops at the branch on data).
//--blockDim=1 --gridDim=2
//@ len(x) = 16
//@ len(y) = 16
__global__ void softmax_rows(const float* x, float* y)
{
    const float* r = x + blockIdx.x * 8;
    float row_m = r[0];
    float l = 1.0f;
    for (int i = 1; i < 8; i++) {
        float v = r[i];
        if (v > row_m) row_m = v;
        l = l + expf(v - row_m);
    }
    for (int i = 0; i < 8; i++) y[blockIdx.x * 8 + i] = expf(r[i] - row_m) / l;
}
