// A tree reduction written for blocks of at most 256 threads: its first step folds in the
// element 128 places to the right, so only the first 256 elements of a block are ever added.
// The contract says so (`requires blockDim.x <= 256`), and `prove --all-sizes` proves it for
// every block size the contract admits; reduce_fixed_stride_no_requires.cu, the same kernel
// without that line, is refuted at blockDim.x = 512.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(g_idata) = n
//@ len(g_odata) = gridDim.x
//@ requires blockDim.x <= 256
//@ requires n <= blockDim.x * gridDim.x

__global__ void reduce_fixed_stride(const float* __restrict__ g_idata, float* __restrict__ g_odata, int n)
{
    __shared__ float sdata[256];

    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? g_idata[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = 128; s > 0; s >>= 1) {
        if (tid < s && tid + s < blockDim.x) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
