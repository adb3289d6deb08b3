// Buggy twin of reduce_interleaved.cu: no barrier between the steps of the tree, so thread 0
// may read sdata[2] at step 2 before thread 2 has added sdata[3] into it.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= blockDim.x * gridDim.x
//@ expect race

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
    }
    __syncthreads();

    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
