// WRONG (off-by-one: the down-sweep starts one level too low). Blelloch exclusive prefix sum within a block, one element per thread: an up-sweep over
// strides 1, 2, 4, ... builds the reduction tree in place, thread 0 saves the block total to
// block_sums and clears the root, and a down-sweep swaps and adds back down the tree.
// block_sums is what a multi-block scan would scan next.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ len(y) = n
//@ len(block_sums) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= blockDim.x * gridDim.x

__global__ void blelloch_scan(const float* __restrict__ x, float* __restrict__ y,
                              float* __restrict__ block_sums, int n)
{
    __shared__ float s[256];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int idx = (tid + 1) * stride * 2 - 1;
        if (idx < blockDim.x) {
            s[idx] += s[idx - stride];
        }
        __syncthreads();
    }

    if (tid == 0) {
        block_sums[blockIdx.x] = s[blockDim.x - 1];
        s[blockDim.x - 1] = 0.0f;
    }
    __syncthreads();

    for (int stride = blockDim.x / 4; stride > 0; stride /= 2) {
        int idx = (tid + 1) * stride * 2 - 1;
        if (idx < blockDim.x) {
            float t = s[idx - stride];
            s[idx - stride] = s[idx];
            s[idx] += t;
        }
        __syncthreads();
    }

    if (i < n) {
        y[i] = s[tid];
    }
}
