// WRONG for blocks of more than 256 threads (the contract does not exclude them).
// reduce_fixed_stride.cu without its `requires blockDim.x <= 256`: the first step folds in the
// element 128 places to the right, so a block of 512 threads never adds elements 256..511.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires n <= blockDim.x * gridDim.x

__global__ void reduce_fixed_stride(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 128; s > 0; s >>= 1) {
        if (tid < s && tid + s < blockDim.x) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
