// GPU-CSL's example: a barrier under a condition read from shared memory that every thread
// writes. The race is exact; whether the barrier diverges depends on what the racy read
// returns, which no replay shows — so divergence is 'possible' (unconfirmed), never
// 'violated' nor 'verified'.
// verify: race=violated divergence=possible exit=1
//--blockDim=64 --gridDim=1
//@ len(x) = 1
__global__ void racy_flag(const int *x) {
    __shared__ int s[1];
    s[0] = x[0] + threadIdx.x;
    if (s[0] > 0) __syncthreads();
}
