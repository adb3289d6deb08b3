// A counter that one thread also resets with a plain store is no longer handing out distinct
// values: slots may repeat, and the reset races with the atomics.
// verify: race=violated exit=1
//--blockDim=128 --gridDim=8
//@ len(in) = 1024
//@ len(out) = cap
//@ len(count) = 1
__global__ void compact_reset(const int *in, int *out, unsigned *count, unsigned cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (i == 77) count[0] = 0;
    if (v > 0) {
        unsigned slot = atomicAdd(count, 1u);
        if (slot < cap) out[slot] = v;
    }
}
