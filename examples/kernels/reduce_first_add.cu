// Harris kernel 4: first add during global load. Each block covers 2 * blockDim.x elements and
// every thread adds two of them while loading, halving the number of blocks; then sequential
// addressing as in kernel 3.
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x

__global__ void reduce_first_add(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? g_idata[i] : 0.0f;
    if (i + blockDim.x < n) {
        v += g_idata[i + blockDim.x];
    }
    sdata[tid] = v;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
