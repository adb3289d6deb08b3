// A tiled loop that advances its input pointer by a tile every iteration (a `long long`
// offset `off += 64`): a 64-bit loop-carried induction variable.
// The barrier between the tile's store and the neighbour's load is missing.
// verify: race=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(A) = n
//@ len(out) = 256
//@ requires n % 64 == 0
__global__ void tiled_ll_offset_bug_nosync(const float *A, float *out, int n) {
    __shared__ float tile[64];
    float acc = 0.0f;
    long long off = 0;
    for (int t = 0; t < n; t += 64) {
        tile[threadIdx.x] = A[off + threadIdx.x];
        acc += tile[(threadIdx.x + 1) % 64];
        __syncthreads();
        off += 64;
    }
    out[blockIdx.x * 64 + threadIdx.x] = acc;
}
