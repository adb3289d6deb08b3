// Harris kernel 5 (unrolled last warp), written for independent thread scheduling (Volta and
// later): warps are not lock-step, so each step of the last warp reads into a register, waits
// at __syncwarp(), writes, and waits again before the next step reads.
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x

__device__ void warp_reduce(volatile float* sdata, unsigned int tid)
{
    float v;
    v = sdata[tid] + sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 16]; __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 8];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 4];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 2];  __syncwarp(); sdata[tid] = v; __syncwarp();
    v = sdata[tid] + sdata[tid + 1];  __syncwarp(); sdata[tid] = v; __syncwarp();
}

__global__ void reduce_warp_unrolled(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
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

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid < 32) {
        warp_reduce(sdata, tid);
    }
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
