// Buggy twin of blelloch_scan.cu: the down-sweep has no barrier between levels. Thread 2t+1
// touches at level stride/2 the cell thread t swapped at level stride, unordered.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ len(y) = n
//@ len(block_sums) = gridDim.x
//@ requires blockDim.x == 256
//@ requires n <= blockDim.x * gridDim.x
//@ expect race

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

    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        int idx = (tid + 1) * stride * 2 - 1;
        if (idx < blockDim.x) {
            float t = s[idx - stride];
            s[idx - stride] = s[idx];
            s[idx] += t;
        }
    }
    __syncthreads();

    if (i < n) {
        y[i] = s[tid];
    }
}
