// Harris kernel 4 with a modern tail: first add during load, sequential addressing in shared
// memory while more than one warp is needed, then the first warp finishes with register
// shuffles (__shfl_down_sync over the full mask) instead of shared memory.
#define FULL_MASK 0xffffffff
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x

__global__ void reduce_warp_shuffle(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
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
        float sum = sdata[tid] + sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(FULL_MASK, sum, offset);
        }
        if (tid == 0) {
            g_odata[blockIdx.x] = sum;
        }
    }
}
