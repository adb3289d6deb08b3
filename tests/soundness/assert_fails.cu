// An assertion that fails for the upper half of each block.
// (its twin assert_holds.cu holds)
// verify: assert=violated exit=1
//--blockDim=64 --gridDim=2
__global__ void assert_fails(int *a, int n) {
    __requires(n == 64);
    __ensures(n == 64);
    for (int i = threadIdx.x; __invariant(i >= 0), __global_invariant(i < 10000), i < n;
         i += blockDim.x) {
        assert(i < 32);
        a[i + blockIdx.x * n] = 1;
    }
}
