// Device assertions and GPUVerify annotations that hold: a precondition, a loop invariant in
// the loop head, an assertion in the body and a postcondition.
// verify: assert=verified race=verified bounds=verified overflow=verified exit=0
//--blockDim=64 --gridDim=2
__global__ void assert_holds(int *a, int n) {
    __requires(n == 64);
    __ensures(n == 64);
    for (int i = threadIdx.x; __invariant(i >= 0), __global_invariant(i < 10000), i < n;
         i += blockDim.x) {
        assert(i < 64);
        a[i + blockIdx.x * n] = 1;
    }
}
