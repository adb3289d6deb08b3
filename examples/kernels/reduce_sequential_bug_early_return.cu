// Buggy twin of reduce_sequential.cu: threads past the end of the input return early instead of
// contributing a zero. In the last block (4000 is not a multiple of 256) the remaining threads
// then wait at __syncthreads() for threads that have exited.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= blockDim.x * gridDim.x
//@ expect divergence

__global__ void reduce_sequential(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    sdata[tid] = g_idata[i];
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
