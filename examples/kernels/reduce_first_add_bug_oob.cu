// Buggy twin of reduce_first_add.cu: only the first of the two loaded indices is bounds-checked.
// In the last block, i < n holds but i + blockDim.x can reach past the end of g_idata.
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x
//@ expect oob

__global__ void reduce_first_add(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = g_idata[i] + g_idata[i + blockDim.x];
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
