// Stream compaction by slot allocation: each kept element takes the next slot of an atomic
// counter. Distinct threads get distinct slots, so the writes to `out` never collide.
// verify: race=verified bounds=verified exit=0
//--blockDim=128 --gridDim=8
//@ len(in) = 1024
//@ len(out) = cap
//@ len(count) = 1
__global__ void compact(const int *in, int *out, unsigned *count, unsigned cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v > 0) {
        unsigned slot = atomicAdd(count, 1u);
        if (slot < cap) out[slot] = v;
    }
}
