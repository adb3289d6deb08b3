
//pass
//--blockDim=64 --gridDim=1
__global__ void evens(int* a, int n) {
    __requires(n > 0);
    int tid = threadIdx.x * 2;
    for (int i = tid; __invariant(i % 2 == 0), i < n; i += 2) {
        a[i] = 0;
    }
    __assert(tid % 2 == 0);
}
