// Online softmax of each row with the data-dependent maximum written as a loop,
// `while (v > row_m) row_m = v`, the running sum rescaled by exp(old - new). Equal to the
// fmaxf version; a loop whose exit depends on data stops the symbolic run, so the check must
// not say `different`.
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
        float old = row_m;
        while (v > row_m) row_m = v;
        l = l * expf(old - row_m) + expf(v - row_m);
    }
    for (int i = 0; i < 8; i++) y[blockIdx.x * 8 + i] = expf(r[i] - row_m) / l;
}
