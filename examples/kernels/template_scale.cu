// Scales a vector, y[i] = alpha * x[i], with `items` elements per thread in the coalesced
// blocked layout of CUB-style kernels: block b owns the tile starting at b * blockDim.x * items,
// and item j of thread t sits at t + j * blockDim.x inside it. The original is a C++ template
// over the block size; the subset has no templates, so the block size comes from blockDim.x.
//--blockDim=128 --gridDim=8
//@ arg n = 4000
//@ arg items = 4
//@ arg alpha = 2.5
//@ len(x) = n
//@ len(y) = n
//@ requires items > 0
//@ requires n <= blockDim.x * gridDim.x * items
//@ requires (unsigned long long)blockDim.x * gridDim.x * items <= 2147483647

__global__ void template_scale(const float* __restrict__ x, float* __restrict__ y, float alpha,
                               int n, int items)
{
    int tile = blockIdx.x * blockDim.x * items;
    for (int j = 0; j < items; ++j) {
        int i = tile + j * blockDim.x + threadIdx.x;
        if (i < n) {
            y[i] = alpha * x[i];
        }
    }
}
