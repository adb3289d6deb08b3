// The grid-stride loop, one of the most common CUDA idioms, for every launch and every n that
// keeps `i += blockDim.x * gridDim.x` within int.
// verify: race=verified bounds=verified overflow=verified exit=0
// verify-args: --block any --grid any
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 2147483647 - blockDim.x * gridDim.x
__global__ void saxpy_grid_stride(int n, float a, const float *x, float *y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
