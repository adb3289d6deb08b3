// Block-wide inclusive scan, Hillis-Steele style, double-buffered: at each level every thread
// reads the `pin` half of a 2 x BLOCK shared buffer and writes the `pout` half, and the halves
// swap (`pout = 1 - pout; pin = 1 - pout;`), so one barrier per level suffices. Each block scans
// its BLOCK-element segment and the last thread publishes the segment total for a second pass.
// Idiom: `int pout = 0, pin = 1;` buffer selection by arithmetic, `template <int BLOCK>`
// launched from a host function, a loop-carried selector that the verifier must bound.
// Twin: a single buffer updated in place (`buf[tid] += buf[tid - offset]`) with the same one
// barrier per level: at offset 1, thread 2 reads buf[1] while thread 1 is adding into it.
// verify: race=violated exit=1
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
    __shared__ float buf[BLOCK];
    const int tid = threadIdx.x;
    const int gid = blockIdx.x * BLOCK + tid;

    buf[tid] = gid < n ? in[gid] : 0.0f;
    __syncthreads();

    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        if (tid >= offset) buf[tid] += buf[tid - offset];
        __syncthreads();
    }

    if (gid < n) out[gid] = buf[tid];
    if (tid == BLOCK - 1) block_sums[blockIdx.x] = buf[tid];
}

void scan_segments(const float* d_in, float* d_out, float* d_block_sums, int n)
{
    constexpr int kBlock = 256;
    const int blocks = (n + kBlock - 1) / kBlock;
    scan_inclusive<kBlock><<<blocks, kBlock>>>(d_in, d_out, d_block_sums, n);
}
