// Work-efficient exclusive prefix sum within a block (Blelloch; GPU Gems 3, ch. 39, "prescan"):
// each block scans its own segment of 2 * blockDim.x unsigned integers (sums wrap mod 2^32), each
// thread handling two of them, in dynamic shared memory: an up-sweep builds partial sums in a
// balanced tree, the root is cleared, and a down-sweep pushes the prefixes back down. There is no
// carry between blocks.
//--blockDim=128 --gridDim=8
//@ arg n = 2048
//@ len(g_idata) = n
//@ len(g_odata) = n
//@ requires n == 2 * blockDim.x * gridDim.x
//@ requires (blockDim.x & (blockDim.x - 1)) == 0
//@ shared_bytes = 2 * blockDim.x * 4

__global__ void exclusive_scan(const unsigned* __restrict__ g_idata, unsigned* __restrict__ g_odata, int n)
{
    extern __shared__ unsigned temp[];

    int tid = threadIdx.x;
    int m = 2 * blockDim.x;
    int base = blockIdx.x * m;

    temp[2 * tid] = g_idata[base + 2 * tid];
    temp[2 * tid + 1] = g_idata[base + 2 * tid + 1];

    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    if (tid == 0) {
        temp[m - 1] = 0;
    }

    for (int d = 1; d < m; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            unsigned t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();

    g_odata[base + 2 * tid] = temp[2 * tid];
    g_odata[base + 2 * tid + 1] = temp[2 * tid + 1];
}
