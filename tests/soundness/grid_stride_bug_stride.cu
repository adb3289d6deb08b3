// A grid-stride loop that strides by the block instead of the grid: blocks overlap.
// verify: race=violated exit=1
// verify-args: --block any --grid any
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 2147483647 - blockDim.x * gridDim.x
__global__ void saxpy_block_stride(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
        y[i] = a * x[i] + y[i];
}
