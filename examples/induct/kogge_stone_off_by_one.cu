// WRONG (off-by-one offset: reads tid - offset + 1). Kogge-Stone inclusive prefix sum within a block, double-buffered in shared memory: at step
// `offset` every element adds the one `offset` places to its left, reading one buffer and
// writing the other, so a single barrier per step suffices. Each block scans its own
// blockDim.x-element segment; there is no carry between blocks.
//--blockDim=256 --gridDim=16
//@ arg n = 4000
//@ len(x) = n
//@ len(y) = n
//@ requires blockDim.x <= 256
//@ requires n <= blockDim.x * gridDim.x

__global__ void kogge_stone_scan(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float buf[2][256];

    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int pout = 0;
    int pin = 1;

    buf[pout][tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset) {
            buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset + 1];
        } else {
            buf[pout][tid] = buf[pin][tid];
        }
        __syncthreads();
    }

    if (i < n) {
        y[i] = buf[pout][tid];
    }
}
