// Buggy twin of reduction 3: no barrier between tree steps (expect race).
//--blockDim=256 --gridDim=1
//@ arg n = 256
//@ len(g_idata) = n
//@ len(g_odata) = 1
//@ expect race

__global__ void reduce3_bug_nosync(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
