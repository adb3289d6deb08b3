// Buggy twin of reduce_warp_shuffle.cu: the tree loop puts its barrier before each step rather
// than after it, so nothing separates the last shared-memory step (threads 32..63 write
// sdata[32..63]) from the first warp's tail reading sdata[tid + 32].
#define FULL_MASK 0xffffffff
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x
//@ expect race

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

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        __syncthreads();
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
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
