// Buggy twin of template_scale.cu: the tile offset forgets the `* items` factor, so block b's
// tile overlaps blocks b+1 .. b+items-1 and different blocks write the same y[i].
//--blockDim=128 --gridDim=8
//@ arg n = 4000
//@ arg items = 4
//@ arg alpha = 2.5
//@ len(x) = n
//@ len(y) = n
//@ requires items > 0
//@ requires n <= blockDim.x * gridDim.x * items
//@ requires (unsigned long long)blockDim.x * gridDim.x * items <= 2147483647
//@ expect race

__global__ void template_scale(const float* __restrict__ x, float* __restrict__ y, float alpha,
                               int n, int items)
{
    int tile = blockIdx.x * blockDim.x;
    for (int j = 0; j < items; ++j) {
        int i = tile + j * blockDim.x + threadIdx.x;
        if (i < n) {
            y[i] = alpha * x[i];
        }
    }
}
