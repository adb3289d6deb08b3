// The same compaction with the counter read and bumped without an atomic: two threads can
// take the same slot (and race on the counter itself).
// verify: race=violated exit=1
//--blockDim=128 --gridDim=8
//@ len(in) = 1024
//@ len(out) = cap
//@ len(count) = 1
__global__ void compact_plain(const int *in, int *out, unsigned *count, unsigned cap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v > 0) {
        unsigned slot = count[0];
        count[0] = slot + 1;
        if (slot < cap) out[slot] = v;
    }
}
