// A loop invariant in GPUVerify's style that is false at the last head evaluation: `i <= 63`
// fails when the loop leaves with i = 64.
// verify: assert=violated exit=1
//--blockDim=1 --gridDim=1
//@ len(a) = 64
__global__ void invariant_fails(int *a) {
    for (int i = 0; __invariant(i <= 63), i < 64; i++) {
        a[i] = i;
    }
}
