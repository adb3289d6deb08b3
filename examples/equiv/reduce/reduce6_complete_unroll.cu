// Harris reduction 6: completely unrolled for a fixed block size (the template parameter is a
// macro here), last warp warp-synchronous: racy by default, equal under lock-step warps.
//--blockDim=128 --gridDim=1
//@ arg n = 256
//@ len(g_idata) = n
//@ len(g_odata) = 1
//@ expect race

#define BLOCK_SIZE 128

__device__ void warp_reduce(volatile float* sdata, unsigned int tid)
{
    if (BLOCK_SIZE >= 64) sdata[tid] += sdata[tid + 32];
    if (BLOCK_SIZE >= 32) sdata[tid] += sdata[tid + 16];
    if (BLOCK_SIZE >= 16) sdata[tid] += sdata[tid + 8];
    if (BLOCK_SIZE >= 8) sdata[tid] += sdata[tid + 4];
    if (BLOCK_SIZE >= 4) sdata[tid] += sdata[tid + 2];
    if (BLOCK_SIZE >= 2) sdata[tid] += sdata[tid + 1];
}

__global__ void reduce6(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (BLOCK_SIZE * 2) + threadIdx.x;
    float v = (i < n) ? g_idata[i] : 0.0f;
    if (i + BLOCK_SIZE < n) {
        v += g_idata[i + BLOCK_SIZE];
    }
    sdata[tid] = v;
    __syncthreads();
    if (BLOCK_SIZE >= 512) { if (tid < 256) { sdata[tid] += sdata[tid + 256]; } __syncthreads(); }
    if (BLOCK_SIZE >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
    if (BLOCK_SIZE >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
    if (tid < 32) warp_reduce(sdata, tid);
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
