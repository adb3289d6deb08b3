// Block-wide inclusive scan, Hillis-Steele style, double-buffered: at each level every thread
// reads the `pin` half of a 2 x BLOCK shared buffer and writes the `pout` half, and the halves
// swap (`pout = 1 - pout; pin = 1 - pout;`), so one barrier per level suffices. Each block scans
// its BLOCK-element segment and the last thread publishes the segment total for a second pass.
// Idiom: `int pout = 0, pin = 1;` buffer selection by arithmetic, `template <int BLOCK>`
// launched from a host function, a loop-carried selector that the verifier must bound.
// uninit holds as well (every buf cell is written before it is read), but proving it needs more
// than the default query time under load (the solver gives up): the test leaves it out.
// verify: race=verified divergence=verified bounds=verified overflow=verified exit=0
// verify-args: --property race,divergence,bounds,overflow
//--blockDim=256 --gridDim=4
//@ arg n = 1000
//@ len(in) = n
//@ len(out) = n
//@ len(block_sums) = gridDim.x
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void scan_inclusive(const float* __restrict__ in, float* __restrict__ out,
                               float* __restrict__ block_sums, int n)
{
    __shared__ float buf[2 * BLOCK];
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * BLOCK + tid;
    int pout = 0, pin = 1;

    buf[pout * BLOCK + tid] = gid < n ? in[gid] : 0.0f;
    __syncthreads();

    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        float v = buf[pin * BLOCK + tid];
        if (tid >= offset) v += buf[pin * BLOCK + tid - offset];
        buf[pout * BLOCK + tid] = v;
        __syncthreads();
    }

    if (gid < n) out[gid] = buf[pout * BLOCK + tid];
    if (tid == BLOCK - 1) block_sums[blockIdx.x] = buf[pout * BLOCK + tid];
}

void scan_segments(const float* d_in, float* d_out, float* d_block_sums, int n)
{
    constexpr int kBlock = 256;
    const int blocks = (n + kBlock - 1) / kBlock;
    scan_inclusive<kBlock><<<blocks, kBlock>>>(d_in, d_out, d_block_sums, n);
}
