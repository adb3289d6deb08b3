// The twin of remainder_under_branch.cu whose remainder loop runs once too often (`rem`
// counts to 0 from `(t & 3) + 1`): thread 255 writes x[1024], one past the end.
// verify: race=verified bounds=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(x) = 1024
__global__ void remainder_under_branch(float *x) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned rem = (t & 3u) + 1u;
    int i = 0;
    if (rem != 0u) {
        do { i = i + 1; rem = rem - 1u; } while (rem != 0u);
    }
    x[4u * t + (unsigned)i] = 1.0f;
}
