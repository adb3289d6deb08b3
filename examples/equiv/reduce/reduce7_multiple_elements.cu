// Harris reduction 7: several elements per thread (grid-stride loop adding pairs), then the
// completely unrolled tree with a warp-synchronous tail: racy by default, equal under
// lock-step warps.
//--blockDim=64 --gridDim=1
//@ arg n = 256
//@ len(g_idata) = n
//@ len(g_odata) = 1
//@ expect race

#define BLOCK_SIZE 64

__device__ void warp_reduce(volatile float* sdata, unsigned int tid)
{
    if (BLOCK_SIZE >= 64) sdata[tid] += sdata[tid + 32];
    if (BLOCK_SIZE >= 32) sdata[tid] += sdata[tid + 16];
    if (BLOCK_SIZE >= 16) sdata[tid] += sdata[tid + 8];
    if (BLOCK_SIZE >= 8) sdata[tid] += sdata[tid + 4];
    if (BLOCK_SIZE >= 4) sdata[tid] += sdata[tid + 2];
    if (BLOCK_SIZE >= 2) sdata[tid] += sdata[tid + 1];
}

__global__ void reduce7(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (BLOCK_SIZE * 2) + threadIdx.x;
    unsigned int grid_size = BLOCK_SIZE * 2 * gridDim.x;
    float sum = 0.0f;
    while (i < n) {
        sum += g_idata[i] + g_idata[i + BLOCK_SIZE];
        i += grid_size;
    }
    sdata[tid] = sum;
    __syncthreads();
    if (BLOCK_SIZE >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
    if (BLOCK_SIZE >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
    if (BLOCK_SIZE >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
    if (tid < 32) warp_reduce(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
