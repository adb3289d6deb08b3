// Radix-4 tree reduction: each step folds four partial sums into one, so the active range
// shrinks by a factor of four (`s *= 4`), as in reductions tuned for wide warps.
// The barrier inside the loop is missing: the next step reads what this one writes.
// verify: race=violated exit=1
//--blockDim=256 --gridDim=8
//@ len(in) = 2048
//@ len(out) = 8
__global__ void reduce_radix4_nosync(const float *in, float *out) {
    __shared__ float buf[256];
    unsigned t = threadIdx.x;
    buf[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned s = 1; s < 256; s *= 4) {
        if (t % (4 * s) == 0) {
            buf[t] = buf[t] + buf[t + s] + buf[t + 2 * s] + buf[t + 3 * s];
        }
    }
    __syncthreads();
    if (t == 0) out[blockIdx.x] = buf[0];
}
