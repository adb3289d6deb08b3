// Buggy twin of reduce_warp_shuffle.cu: the shuffle tail is guarded by `tid < offset`, as in
// the shared-memory version, but it names the full warp in its mask. Lanes offset..31 never
// reach the __shfl_down_sync their mask says they take part in.
#define FULL_MASK 0xffffffff
//--blockDim=256 --gridDim=8
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= 2 * blockDim.x * gridDim.x
//@ expect divergence

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
            if (tid < offset) {
                sum += __shfl_down_sync(FULL_MASK, sum, offset);
            }
        }
        if (tid == 0) {
            g_odata[blockIdx.x] = sum;
        }
    }
}
