// Harris, "Optimizing Parallel Reduction in CUDA", kernel 1: interleaved addressing with a
// divergent branch. Each block sums its blockDim.x-element segment in shared memory; at step s
// the threads whose id is a multiple of 2s add the element s places to the right. Correct but
// slow (the % is expensive and the active threads are scattered over all warps).
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= blockDim.x * gridDim.x

__global__ void reduce_interleaved(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
