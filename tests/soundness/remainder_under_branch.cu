// A remainder loop under a branch, as compilers unroll by four: `i` counts the remainder, and
// the loop's exit (i == rem) must survive the end of the `if` for the access after it. The
// verifier dropped what a branch learnt (a loop's exit facts) at the join, so `x[base + i]`
// looked unbounded: bounds `possible` on a correct kernel.
// verify: race=verified divergence=verified bounds=verified overflow=verified exit=0
//--blockDim=64 --gridDim=4
//@ len(x) = 1024
__global__ void remainder_under_branch(float *x) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned rem = t & 3u;
    int i = 0;
    if (rem != 0u) {
        do { i = i + 1; rem = rem - 1u; } while (rem != 0u);
    }
    x[4u * t + (unsigned)i] = 1.0f;
}
