// Reference sum of n floats: one thread adds them in order.
//--blockDim=1 --gridDim=1
//@ arg n = 256
//@ len(g_idata) = n
//@ len(g_odata) = 1

__global__ void reduce_reference(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
        sum += g_idata[i];
    }
    g_odata[0] = sum;
}
